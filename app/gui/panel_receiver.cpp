// The receivers' waveforms: the most recent samples of each, as recorded by the solver.
#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "gui/panel.hpp"

namespace ws::gui {

void draw_receiver_section(GuiContext& ctx) {
  static int window = 2048;
  ImGui::SliderInt("samples shown", &window, 128, 16384, "%d", ImGuiSliderFlags_Logarithmic);
  const auto& hist = ctx.model().receiver_history();
  const auto& recs = ctx.model().scene().receivers;
  std::vector<float> buf;
  for (size_t r = 0; r < hist.size() && r < recs.size(); ++r) {
    const auto& h = hist[r];
    const size_t n = std::min<size_t>(h.size(), (size_t)window);
    buf.assign(h.end() - n, h.end());
    float peak = 1e-12f;
    for (float v : buf) peak = std::max(peak, std::fabs(v));
    char overlay[96];
    snprintf(overlay, sizeof overlay, "%s: %zu samples, peak %.3g", recs[r].name.c_str(), h.size(), peak);
    ImGui::PushID((int)r);
    ImGui::PlotLines("##wave", buf.data(), (int)buf.size(), 0, overlay, -peak, peak,
                     ImVec2(ImGui::GetContentRegionAvail().x, 70));  // explicit: 1.86 draws width -1 as a sliver
    ImGui::PopID();
  }
  if (hist.empty()) ImGui::TextDisabled("the scene has no receivers");
}

}  // namespace ws::gui
