#include "stencil/dispersion.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "stencil/symbol.hpp"

namespace ws {

namespace {

double v_over_c(const StencilSymbol& S, double courant, const std::array<double, 3>& d, double kX) {
  const double len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  if (!(len > 0.0)) throw std::invalid_argument("dispersion: the direction must not be the zero vector");
  if (!(courant > 0.0)) throw std::invalid_argument("dispersion: the Courant number must be positive");
  if (kX == 0.0) return 1.0;
  const double s = S(kX * d[0] / len, kX * d[1] / len, kX * d[2] / len);
  const double cos_wt = 1.0 + 0.5 * courant * courant * s;
  // Allow the rounding of a wave sitting exactly at the limit (cos(omega T) = -1).
  if (cos_wt < -1.0 - 1e-12 || cos_wt > 1.0 + 1e-12) return std::numeric_limits<double>::quiet_NaN();
  const double wt = std::acos(std::fmax(-1.0, std::fmin(1.0, cos_wt)));
  return wt / (courant * std::fabs(kX));
}

}  // namespace

double relative_phase_velocity(const Stencil& stencil, double courant, const std::array<double, 3>& direction,
                               double kX) {
  return v_over_c(StencilSymbol(stencil.points), courant, direction, kX);
}

const std::array<std::array<int, 3>, 3>& dispersion_directions() {
  static const std::array<std::array<int, 3>, 3> dirs = {{{1, 0, 0}, {1, 1, 0}, {1, 1, 1}}};
  return dirs;
}

DispersionCurves dispersion_curves(const Stencil& stencil, double courant, int samples, double kX_max) {
  if (samples < 1) throw std::invalid_argument("dispersion_curves: samples must be >= 1");
  const StencilSymbol S(stencil.points);
  DispersionCurves out;
  out.courant = courant;
  out.directions = dispersion_directions();
  for (int i = 1; i <= samples; ++i) out.kX.push_back(kX_max * i / samples);
  for (int d = 0; d < 3; ++d) {
    const std::array<double, 3> dir = {(double)out.directions[d][0], (double)out.directions[d][1],
                                       (double)out.directions[d][2]};
    for (double k : out.kX) out.v_over_c[d].push_back(v_over_c(S, courant, dir, k));
  }
  return out;
}

}  // namespace ws
