#include <imgui.h>

#include "gui/panel.hpp"

namespace ws::gui {

std::vector<PanelSection> make_panel_sections() {
  std::vector<PanelSection> s = {
      {"Run", draw_run_section, true, nullptr},
      {"Scene and grid", draw_scene_section, true, nullptr},
      {"Sources and receivers", draw_positions_section, false, nullptr},
      {"Slices", draw_slices_section, true, nullptr},
      {"Colour range", draw_colour_section, true, nullptr},
      {"Timing", draw_timing_section, true, nullptr},
      {"Receiver waveform", draw_receiver_section, true, nullptr},
      {"Kernel", draw_kernel_section, false, nullptr},
      {"Keyboard shortcuts", draw_shortcuts_section, false, nullptr},
  };
  register_extra_panel_sections(s);
  return s;
}

void draw_panel(GuiContext& ctx, const std::vector<PanelSection>& sections) {
  ImGui::SetNextWindowPos(ImVec2(8, 8), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(400, 780), ImGuiCond_FirstUseEver);
  ImGui::Begin("wavescope");
  // The backend line is always visible: which solver runs, or why the CPU one does.
  ImGui::TextWrapped("%s", ctx.model().backend_note().c_str());
  if (!ctx.blowup.empty()) ImGui::TextColored(ImVec4(1, 0.35f, 0.3f, 1), "%s", ctx.blowup.c_str());
  if (!ctx.action_error.empty()) ImGui::TextColored(ImVec4(1, 0.6f, 0.2f, 1), "%s", ctx.action_error.c_str());
  for (const auto& sec : sections) {
    if (ImGui::CollapsingHeader(sec.title.c_str(), sec.default_open ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
      ImGui::PushID(sec.title.c_str());
      sec.draw(ctx);
      ImGui::PopID();
    }
  }
  ImGui::End();
}

}  // namespace ws::gui
