#pragma once
// Coefficients of the 7-point update in Webb's form (eq. 2):
//   u^{n+1} = (2 - 6 lambda^2) u^n + lambda^2 S - u^{n-1}
#include <stdexcept>

#include "cuda/kernel_registry.hpp"

namespace ws {

template <class T>
struct SevenPointCoeffs {
  T centre;     // 2 + lambda^2 w_0 = 2 - 6 lambda^2
  T neighbour;  // lambda^2 w_1 = lambda^2
};

template <class T>
SevenPointCoeffs<T> seven_point_coeffs(const StepArgs<T>& a) {
  if (!a.stencil->is_seven_point())
    throw std::invalid_argument("this kernel runs the 7-point stencil only, not '" + a.stencil->name + "'");
  return {T(2.0 + a.lambda2 * a.stencil->centre_weight()), T(a.lambda2 * a.stencil->axis_weight(1))};
}

inline bool supports_seven_point(const Stencil& s) { return s.is_seven_point(); }

}  // namespace ws
