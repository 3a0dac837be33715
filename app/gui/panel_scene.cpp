// The scene loader and the model selector. A scene file's "model" key decides
// which model runs ("wave3d" or "sediment2d"); the selector loads each
// model's default scene. A scene that fails to load shows its error here and
// the previous scene (and model) keeps running. Below: what the scene became,
// from the running model (wave_scene_info.cpp, sediment_view.cpp).
#include <imgui.h>
#include <imgui_stdlib.h>

#include "gui/panel.hpp"

namespace ws::gui {

void draw_scene_section(GuiContext& ctx) {
  int model = ctx.view->kind() == ModelKind::Wave ? 0 : 1;
  ImGui::Text("model:");
  ImGui::SameLine();
  bool pick = ImGui::RadioButton("3-D waves", &model, 0);
  ImGui::SameLine();
  pick |= ImGui::RadioButton("2-D sediment", &model, 1);
  if (pick) {
    const ModelKind want = model == 0 ? ModelKind::Wave : ModelKind::Sediment;
    if (want != ctx.view->kind()) {
      ctx.scene_path_input = default_scene_path(want);
      ctx.pending.load_scene = ctx.scene_path_input;
    }
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("loads the model's default scene; any scene file picks its model");
  ImGui::InputText("##scene", &ctx.scene_path_input);
  ImGui::SameLine();
  if (ImGui::Button("Load")) ctx.pending.load_scene = ctx.scene_path_input;
  if (!ctx.scene_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.4f, 0.35f, 1));
    ImGui::TextWrapped("%s", ctx.scene_error.c_str());
    ImGui::PopStyleColor();
  }
  ctx.view->draw_scene_info(ctx);
}

}  // namespace ws::gui
