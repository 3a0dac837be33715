#pragma once
// From a sediment scene to numbers: the initial fields on the padded grid (in
// double), the per-cell boundary fluxes, and the time step with its computed
// stability limit.
#include <array>
#include <vector>

#include "sediment/sediment_layout.hpp"
#include "sediment/sediment_scene.hpp"

namespace ws {

struct SedimentInitialState {
  SedimentLayout layout;              // double layout (make_sediment_layout(nx, ny, 8))
  std::vector<double> alpha, beta;    // m^2/s, ghost layer = copy of the edge cells
  std::vector<double> h, s;           // interior set; ghosts filled for the zero-th step
  std::vector<double> q_m2_s;         // 2 (nx + ny) perimeter fluxes (see sediment_boundary.hpp)
  std::array<double, 4> s_in{};       // incoming sand fraction per side
};

SedimentInitialState build_initial_state(const SedimentScene& scene);

// The time step and why it is allowed.
//
// h-equation (3): the update is h' = w_c h + sum_f w_f h_f with neighbour
// weights w_f = dt K_f / d_f^2 >= 0 and centre weight
// w_c = 1 - dt (K_e + K_w)/dx^2 - dt (K_n + K_s)/dy^2. Every face coefficient K_f
// is the mean of two cells' s alpha/C_s + (1-s) beta/C_m, a convex combination
// in s, so K_f <= D_max = max over cells of max(alpha/C_s, beta/C_m) whatever s
// in [0, 1] does. w_c >= 0 (a discrete maximum principle: no new extrema, no
// growing checkerboard) for every state therefore holds when
//   dt <= 1 / (2 D_max (1/dx^2 + 1/dy^2))      (= dx^2 / (4 D_max) when dx = dy),
// which is also the von Neumann limit for constant coefficients (the
// checkerboard's amplification 1 - 4 D dt (1/dx^2 + 1/dy^2) must stay >= -1).
//
// s-equation: s' stays in [0, 1] when dt * layer_rate <= 1 at every cell
// (sediment_scheme.hpp); the rate depends on the slopes and curvature of h,
// so it is evaluated on the initial state (with the boundary-flux ghosts) and
// the smaller of the two limits is the one enforced. Diffusion flattens h, so
// the initial state is normally the steepest; a scene whose inflow builds
// steeper slopes than it starts with should use a smaller dt_fraction.
struct SedimentGrid {
  double dt_s = 0.0;
  double dt_limit_s = 0.0;            // min of the two below
  double dt_diffusion_limit_s = 0.0;  // 1 / (2 D_max (1/dx^2 + 1/dy^2))
  double dt_layer_limit_s = 0.0;      // 1 / max layer_rate at t = 0 (inf when h is flat and closed)
  double d_max_m2_s = 0.0;            // max(alpha/C_s, beta/C_m)
};

// Throws SceneError when dt_s exceeds the limit (the message gives the limit).
SedimentGrid derive_sediment_grid(const SedimentScene& scene);
SedimentGrid derive_sediment_grid(const SedimentScene& scene, const SedimentInitialState& state);

// Copies a padded double array into the layout of another precision (ghosts included).
template <class T>
std::vector<T> relayout(const std::vector<double>& src, const SedimentLayout& from, const SedimentLayout& to) {
  std::vector<T> out((size_t)to.total, T(0));
  for (int j = -1; j <= from.ny; ++j)
    for (int i = -1; i <= from.nx; ++i) out[(size_t)to.index(i, j)] = T(src[(size_t)from.index(i, j)]);
  return out;
}

}  // namespace ws
