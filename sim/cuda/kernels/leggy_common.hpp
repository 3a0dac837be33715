#pragma once
// Shared by the leggy-stencil families (KernelB, register queue, pencils): the
// update coefficients as kernel arguments and the radius dispatch.
//
// A leggy stencil S_M has the centre and 2M points on each axis with the same
// weight beta_m on all three axes (the centred 2M-order second derivative), and
// its centre weight is -6 sum_m beta_m, so
//   u^{n+1} = (2u^n - u^{n-1}) + sum_{m=1..M} w_m ([u(x±m) + u(y±m) + u(z±m)] - 6u^n),
//   w_m = lambda^2 beta_m,
// each leg's six points minus round(6u) being exactly 0 for a constant field
// (exact_update.cuh); the centre weight itself is not used.
// M is a template parameter (loops fully unrolled, queues in registers) chosen
// by a runtime switch; an unsupported M throws instead of launching.
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "cuda/kernel_registry.hpp"

namespace ws {

constexpr int kKernelMaxLeggyM = 8;

template <class T>
struct LeggyCoeffs {
  T w[kKernelMaxLeggyM + 1];   // w[m] = lambda^2 * beta_m, m = 1..M (w[0] unused)
};

// True for a leggy stencil whose weight depends on |m| only (same on the three
// axes and on both sides), with 1 <= M <= 8: what the axis-split kernels compute.
inline bool supports_leggy_1_to_8(const Stencil& s) {
  if (!s.is_leggy() || s.radius < 1 || s.radius > kKernelMaxLeggyM) return false;
  for (const auto& p : s.points) {
    const int m = std::abs(p.dx) + std::abs(p.dy) + std::abs(p.dz);  // one non-zero component
    if (m == 0) continue;
    if (p.w != s.axis_weight(m)) return false;
  }
  // Every axis point 1..M must be present exactly once per direction (6M + 1 points).
  return s.size() == 6 * s.radius + 1;
}

template <class T>
LeggyCoeffs<T> leggy_coeffs(const StepArgs<T>& a, const char* kernel_name) {
  const Stencil& s = *a.stencil;
  if (!supports_leggy_1_to_8(s))
    throw std::invalid_argument(std::string(kernel_name) + " runs leggy stencils leggy:M with M = 1..8 only, not '" +
                                s.name + "' (" + std::to_string(s.size()) + " points, radius " +
                                std::to_string(s.radius) + ")");
  if (a.layout.halo < s.radius)
    throw std::invalid_argument(std::string(kernel_name) + ": layout halo " + std::to_string(a.layout.halo) +
                                " is smaller than the stencil radius " + std::to_string(s.radius));
  LeggyCoeffs<T> c{};
  for (int m = 1; m <= s.radius; ++m) c.w[m] = T(a.lambda2 * s.axis_weight(m));
  return c;
}

// Calls f(std::integral_constant<int, M>{}) for M = 1..8; throws for anything else.
template <class F>
void dispatch_leggy_radius(int M, const char* kernel_name, F&& f) {
  switch (M) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 3: f(std::integral_constant<int, 3>{}); break;
    case 4: f(std::integral_constant<int, 4>{}); break;
    case 5: f(std::integral_constant<int, 5>{}); break;
    case 6: f(std::integral_constant<int, 6>{}); break;
    case 7: f(std::integral_constant<int, 7>{}); break;
    case 8: f(std::integral_constant<int, 8>{}); break;
    default:
      throw std::invalid_argument(std::string(kernel_name) + ": leggy radius M = " + std::to_string(M) +
                                  " is not supported; allowed: M = 1..8");
  }
}

}  // namespace ws
