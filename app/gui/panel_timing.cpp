// Frame timing: ms per frame, and the running model's own numbers (steps/s,
// Gpoints/s, GB/s, and GFLOP/s where the model counts flops: CUDA-event timed
// on the GPU, wall-clock on the CPU) with history plots; below, the last
// Gpoints/s of every kernel configuration run this session.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cstdio>

#include "gui/panel.hpp"

namespace ws::gui {

namespace {

void plot(const char* label, const History& h, const char* fmt) {
  char overlay[64];
  snprintf(overlay, sizeof overlay, fmt, h.ema);
  ImGui::PlotLines(label, h.values.data(), (int)h.values.size(), 0, overlay, 0.0f, FLT_MAX, ImVec2(0, 40));
}

void variant_chart(GuiContext& ctx) {
  if (ctx.variant_gpoints.empty()) return;
  ImGui::Text("last Gpoints/s per configuration this session:");
  double top = 0;
  for (const auto& kv : ctx.variant_gpoints) top = std::max(top, kv.second);
  // One labelled bar per variant: ProgressBar draws a bar scaled to the fastest.
  for (const auto& kv : ctx.variant_gpoints) {
    char text[32];
    snprintf(text, sizeof text, "%.3f", kv.second);
    ImGui::ProgressBar(top > 0 ? (float)(kv.second / top) : 0.0f, ImVec2(120, 0), text);
    ImGui::SameLine();
    ImGui::TextUnformatted(kv.first.c_str());
  }
  if (ImGui::SmallButton("clear")) ctx.variant_gpoints.clear();
}

// Who draws the views. On the GPU each frame switches it from the solver's CUDA context
// to GL and back, which on datacenter GPUs (H100, H200) costs the solver 0.4-1 ms a frame;
// --gl cpu has the CPU draw them instead (docs/benchmarks.md).
void drawn_by(const GuiContext& ctx) {
  if (ctx.gl_renderer.empty()) return;
  ImGui::TextWrapped("views drawn by %s (%s)", ctx.gl_renderer.c_str(),
                     ctx.gl_software ? "on the CPU" : "on the GPU; --gl cpu draws them on the CPU");
}

}  // namespace

void draw_timing_section(GuiContext& ctx) {
  const Timing& t = ctx.timing;
  const ModelMetrics m = ctx.view->metrics();
  plot("ms / frame", t.frame_ms, "%.1f ms (EMA)");
  plot("steps / s", t.steps_per_s, "%.0f steps/s");
  plot("Gpoints / s", t.gpoints_per_s, "%.3f Gpoints/s");
  if (m.gflops >= 0) plot("GFLOP / s", t.gflops, "%.2f GFLOP/s");
  ImGui::Text("last advance: %lld steps in %.2f ms", m.last_steps, m.last_advance_s * 1e3);
  ImGui::Text("%.3f Gpoints/s, %.0f B/point, %.1f GB/s", m.gpoints_per_s, m.bytes_per_point, m.achieved_gbs);
  drawn_by(ctx);
  variant_chart(ctx);
}

}  // namespace ws::gui
