#include <imgui.h>

#include "gui/panel.hpp"

namespace ws::gui {

std::vector<PanelSection> make_panel_sections(const std::shared_ptr<audio::AudioSession>& audio) {
  const auto wave = ModelKind::Wave, sediment = ModelKind::Sediment;
  std::vector<PanelSection> s = {
      {"Run", draw_run_section, true, nullptr, std::nullopt},
      {"Scene and grid", draw_scene_section, true, nullptr, std::nullopt},
      {"Sources and receivers", draw_positions_section, false, nullptr, wave},
      {"Slices", draw_slices_section, true, nullptr, wave},
      {"Colour range", draw_colour_section, false, nullptr, wave},
      {"Height view", draw_height_view_section, true, nullptr, sediment},
      {"Timing", draw_timing_section, true, nullptr, std::nullopt},
      {"Receiver waveform", draw_receiver_section, true, nullptr, wave},
      {"Kernel and stencil", draw_kernel_section, false, nullptr, wave},
      {"Dispersion", draw_dispersion_section, false, nullptr, wave},
      {"Sediment kernels", draw_sediment_kernel_section, true, nullptr, sediment},
  };
  register_extra_panel_sections(s, audio);
  s.push_back({"Keyboard shortcuts", draw_shortcuts_section, false, nullptr, std::nullopt});
  return s;
}

void draw_panel(GuiContext& ctx, const std::vector<PanelSection>& sections) {
  ImGui::SetNextWindowPos(ImVec2(8, 8), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(400, 780), ImGuiCond_FirstUseEver);
  ImGui::Begin("wavescope");
  // The backend line is always visible: which solver runs, or why the CPU one does.
  ImGui::TextWrapped("%s", ctx.view->backend_note().c_str());
  if (!ctx.blowup.empty()) {  // wrapped: a solver fault's message names the error and what was kept
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(ImVec4(1, 0.35f, 0.3f, 1), "%s", ctx.blowup.c_str());
    ImGui::PopTextWrapPos();
  }
  if (!ctx.action_error.empty()) ImGui::TextColored(ImVec4(1, 0.6f, 0.2f, 1), "%s", ctx.action_error.c_str());
  for (const auto& sec : sections) {
    if (!sec.applies_to(ctx)) continue;
    if (ImGui::CollapsingHeader(sec.title.c_str(), sec.default_open ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
      ImGui::PushID(sec.title.c_str());
      sec.draw(ctx);
      ImGui::PopID();
    }
  }
  ImGui::End();
}

}  // namespace ws::gui
