// The colour range: automatic (max |u| over the slices, growing at once and
// shrinking slowly) or fixed, linear or in decibels; the scale under the bar.
#include <imgui.h>

#include "gui/panel.hpp"

namespace ws::gui {

void draw_colour_section(GuiContext& ctx) {
  render::ColorScale& s = ctx.scale;
  ImGui::Checkbox("automatic range", &s.automatic);
  ImGui::SameLine();
  ImGui::Checkbox("dB", &s.decibels);
  if (!s.automatic) {
    ImGui::DragFloat("range +-", &s.fixed_max, s.fixed_max * 0.01f + 1e-9f, 1e-9f, 1e9f, "%.3g",
                     ImGuiSliderFlags_Logarithmic);
  }
  if (s.decibels) ImGui::SliderFloat("dB span", &s.db_span, 10.0f, 120.0f, "%.0f dB");
  ImGui::Text("shown: +-%.4g (max |u| on slices %.4g)", s.range_max(), ctx.session->slices().max_abs_latest());
  if (s.automatic && ImGui::Button("freeze as fixed")) {
    s.fixed_max = s.range_max();
    s.automatic = false;
  }
}

}  // namespace ws::gui
