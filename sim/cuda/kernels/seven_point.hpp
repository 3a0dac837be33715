#pragma once
// The coefficient of the 7-point update (Webb's eq. 2 with the centre written
// as differences, see exact_update.cuh):
//   u^{n+1} = (2u^n - u^{n-1}) + lambda^2 w_1 (S - 6u^n),  S = the six neighbours,
// with w_1 = 1 and the centre weight w_0 = -6 w_1 implied.
#include <stdexcept>

#include "cuda/kernel_registry.hpp"

namespace ws {

template <class T>
struct SevenPointCoeffs {
  T neighbour;  // lambda^2 w_1 = lambda^2
};

template <class T>
SevenPointCoeffs<T> seven_point_coeffs(const StepArgs<T>& a) {
  if (!a.stencil->is_seven_point())
    throw std::invalid_argument("this kernel runs the 7-point stencil only, not '" + a.stencil->name + "'");
  return {T(a.lambda2 * a.stencil->axis_weight(1))};
}

inline bool supports_seven_point(const Stencil& s) { return s.is_seven_point(); }

}  // namespace ws
