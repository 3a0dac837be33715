// Frame timing: ms per frame, and the solver's own numbers (steps/s, Gpoints/s,
// GB/s: CUDA-event timed on the GPU, wall-clock on the CPU) with history plots.
#include <imgui.h>

#include "gui/panel.hpp"

namespace ws::gui {

namespace {

void plot(const char* label, const History& h, const char* fmt) {
  char overlay[64];
  snprintf(overlay, sizeof overlay, fmt, h.ema);
  ImGui::PlotLines(label, h.values.data(), (int)h.values.size(), 0, overlay, 0.0f, FLT_MAX, ImVec2(0, 40));
}

}  // namespace

void draw_timing_section(GuiContext& ctx) {
  const Timing& t = ctx.timing;
  const SolverMetrics m = ctx.model().solver().metrics();
  plot("ms / frame", t.frame_ms, "%.1f ms (EMA)");
  plot("steps / s", t.steps_per_s, "%.0f steps/s");
  plot("Gpoints / s", t.gpoints_per_s, "%.3f Gpoints/s");
  ImGui::Text("last advance: %lld steps in %.2f ms", m.last_steps, m.last_advance_s * 1e3);
  ImGui::Text("%.3f Gpoints/s, %.0f B/point, %.1f GB/s", m.gpoints_per_s, m.bytes_per_point, m.achieved_gbs);
}

}  // namespace ws::gui
