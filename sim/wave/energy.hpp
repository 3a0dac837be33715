#pragma once
// The discrete energy conserved by the lossless two-step scheme.
//
// With delta_tt u = lambda^2 L u (L u = sum_p w_p u(x+p), symmetric and negative
// semi-definite under zero Dirichlet boundaries), take the inner product of the
// scheme with (u^{n+1} - u^{n-1}); the terms telescope and
//   E^{n+1/2} = 1/2 ||u^{n+1} - u^n||^2 - lambda^2/2 <u^{n+1}, L u^n>
// is the same for every n. It is non-negative (a norm) when lambda is below the
// stability limit, which is how the limit is derived energetically.
#include <vector>

#include "core/field_layout.hpp"
#include "stencil/stencil.hpp"

namespace ws {

// u_new = u^{n+1}, u_old = u^n, padded arrays with zero halos.
double scheme_energy(const std::vector<double>& u_new, const std::vector<double>& u_old, const FieldLayout& L,
                     const Stencil& st, double courant);

}  // namespace ws
