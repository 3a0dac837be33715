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

#include "boundary/boundary_plan.hpp"
#include "core/field_layout.hpp"
#include "stencil/stencil.hpp"

namespace ws {

// u_new = u^{n+1}, u_old = u^n, padded arrays with zero halos.
// With a boundary plan (7-point stencil), L is the graph Laplacian of the air nodes
// (fixed walls count as neighbours of value 0, rigid/absorbing walls and solids are
// missing faces); the energy is then conserved for rigid walls and decays by
// sum_x b_x (u^{n+1}_x - u^{n-1}_x)^2 per step with absorbing ones.
double scheme_energy(const std::vector<double>& u_new, const std::vector<double>& u_old, const FieldLayout& L,
                     const Stencil& st, double courant, const BoundaryPlan* plan = nullptr);

}  // namespace ws
