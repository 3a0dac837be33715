// Numerical dispersion of the running stencil at the running Courant number:
// the relative phase velocity v/c against kX (radians per grid spacing) along
// the axis (1,0,0), the face diagonal (1,1,0) and the body diagonal (1,1,1),
// overlaid in one plot drawn with ImDrawList. The exact wave equation would
// give v/c = 1 everywhere; the spread between the curves is the anisotropy.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gui/panel.hpp"
#include "stencil/dispersion.hpp"

namespace ws::gui {

void draw_dispersion_section(GuiContext& ctx) {
  const DerivedGrid& g = ctx.model().grid();
  // Recomputed only when the stencil or the Courant number changes.
  static std::string cached_for;
  static DispersionCurves curves;
  const std::string key = g.stencil.name + "@" + std::to_string(g.courant);
  if (key != cached_for) {
    curves = dispersion_curves(g.stencil, g.courant, 160);
    cached_for = key;
  }
  double lo = 1.0, hi = 1.0;
  for (const auto& c : curves.v_over_c)
    for (double v : c)
      if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  const double pad = 0.05 * std::max(hi - lo, 0.01);
  lo -= pad, hi += pad;

  const ImU32 colours[3] = {IM_COL32(230, 90, 80, 255), IM_COL32(90, 200, 110, 255), IM_COL32(90, 150, 240, 255)};
  const float width = std::max(120.0f, ImGui::GetContentRegionAvail().x), height = 170.0f;
  const ImVec2 p0 = ImGui::GetCursorScreenPos();
  const float left = 40.0f, bottom = 18.0f;  // room for the axis labels
  const ImVec2 a(p0.x + left, p0.y + 4), b(p0.x + width - 4, p0.y + height - bottom);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(a, b, IM_COL32(25, 27, 32, 255));
  dl->AddRect(a, b, IM_COL32(120, 120, 128, 255));
  const double kx_max = curves.kX.empty() ? M_PI : curves.kX.back();
  auto to_px = [&](double kx, double v) {
    return ImVec2(a.x + (float)(kx / kx_max) * (b.x - a.x), b.y - (float)((v - lo) / (hi - lo)) * (b.y - a.y));
  };
  // v/c = 1, the exact answer.
  dl->AddLine(to_px(0, 1.0), to_px(kx_max, 1.0), IM_COL32(200, 200, 200, 120));
  for (int d = 0; d < 3; ++d) {
    const auto& v = curves.v_over_c[d];
    for (size_t q = 1; q < v.size(); ++q)
      if (std::isfinite(v[q - 1]) && std::isfinite(v[q]))  // NaN: unstable at this k, a gap in the curve
        dl->AddLine(to_px(curves.kX[q - 1], v[q - 1]), to_px(curves.kX[q], v[q]), colours[d], 2.0f);
  }
  char text[48];
  snprintf(text, sizeof text, "%.3f", hi);
  dl->AddText(ImVec2(p0.x, a.y), IM_COL32(200, 200, 200, 255), text);
  snprintf(text, sizeof text, "%.3f", lo);
  dl->AddText(ImVec2(p0.x, b.y - 14), IM_COL32(200, 200, 200, 255), text);
  dl->AddText(ImVec2(a.x, b.y + 2), IM_COL32(200, 200, 200, 255), "kX = 0");
  dl->AddText(ImVec2(b.x - 52, b.y + 2), IM_COL32(200, 200, 200, 255), "kX = pi");
  ImGui::Dummy(ImVec2(width, height));

  for (int d = 0; d < 3; ++d) {
    const auto& dir = curves.directions[d];
    // v/c at kX = pi/2 (the middle of the band), as `wavescope stencil info` reports it.
    const double mid = relative_phase_velocity(g.stencil, g.courant, {(double)dir[0], (double)dir[1], (double)dir[2]},
                                               M_PI / 2);
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(colours[d]), "(%d,%d,%d)", dir[0], dir[1], dir[2]);
    ImGui::SameLine();
    ImGui::Text("v/c at kX = pi/2: %.4f", mid);
  }
  ImGui::TextDisabled("%s at courant %.4f (limit %.4f)", g.stencil.name.c_str(), g.courant, g.stencil.courant_max);
}

}  // namespace ws::gui
