#pragma once
// Tolerances for comparing a CUDA kernel with the CPU reference, both in the
// same precision but with different summation orders (and FMA on the GPU).
//
// double: 1e-12 relative to max|u|, flat: 200 steps of rounding at 1.1e-16 stay
// far below it for every stencil here.
// float: 1e-5 for the 7-point stencil, scaled by the conditioning of the update
// sum. One step evaluates K terms c_p u_p; the rounding error of a K-term sum is
// bounded by (K-1) eps sum|c_p u_p| and typically ~ sqrt(K) eps sum|c_p u_p|.
// sum|c_p u_p| <= kappa max|u| with kappa = |2 + l^2 w_0| + l^2 sum_{p != 0}|w_p| + 1
// (the last 1 for u^{n-1}). So relative to the 7-point case the expected error
// grows by (kappa / kappa_7) sqrt(K / 7): ~2.6x for leggy:8 (49 points), ~8x for
// the 461-point ball; the errors then propagate like waves (the scheme is stable:
// they neither grow nor decay), so the same factor holds after many steps.
#include <algorithm>
#include <cmath>

#include "core/precision.hpp"
#include "stencil/stencil.hpp"

namespace ws::testing {

inline double update_conditioning(const Stencil& s, double lambda2) {
  double k = 1.0;
  for (const auto& p : s.points) {
    const bool centre = p.dx == 0 && p.dy == 0 && p.dz == 0;
    k += centre ? std::abs(2.0 + lambda2 * p.w) : lambda2 * std::abs(p.w);
  }
  return k;
}

inline double relative_tolerance(const Stencil& s, double lambda2, Precision p) {
  if (p == Precision::Double) return 1e-12;
  const Stencil seven = make_stencil("7pt");
  const double lambda2_7 = lambda2 / (s.courant_max * s.courant_max) * seven.courant_max * seven.courant_max;
  const double ratio = update_conditioning(s, lambda2) / update_conditioning(seven, lambda2_7) *
                       std::sqrt(double(s.size()) / 7.0);
  return 1e-5 * std::max(1.0, ratio);
}

}  // namespace ws::testing
