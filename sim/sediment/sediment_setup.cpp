#include "sediment/sediment_setup.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "sediment/sediment_boundary.hpp"
#include "sediment/sediment_scheme.hpp"

namespace ws {

namespace {

// Cell centres: cell i covers [i dx, (i+1) dx] (finite volumes: the basin is nx dx long).
double cx(const SedimentScene& sc, int i) { return (i + 0.5) * sc.dx_m; }
double cy(const SedimentScene& sc, int j) { return (j + 0.5) * sc.dy_m; }

double diffusivity(const DiffusivitySpec& d, const SedimentScene& sc, double x, double y) {
  if (d.type == "constant") return d.value_m2_s;
  double along = 0, into = 0;
  switch (d.side) {
    case BasinSide::West: along = y; into = x; break;
    case BasinSide::East: along = y; into = sc.length_x_m() - x; break;
    case BasinSide::South: along = x; into = y; break;
    case BasinSide::North: along = x; into = sc.length_y_m() - y; break;
  }
  const double a = (along - d.centre_m) / d.width_m;
  return d.background_m2_s + (d.peak_m2_s - d.background_m2_s) * std::exp(-a * a) * std::exp(-into / d.decay_m);
}

double topography(const TopographySpec& t, double x, double y) {
  if (t.type == "slope") return t.base_m + t.gradient_x * x + t.gradient_y * y;
  if (t.type == "bump") {
    const double rx = x - t.centre_m[0], ry = y - t.centre_m[1];
    return t.base_m + t.height_m * std::exp(-(rx * rx + ry * ry) / (t.radius_m * t.radius_m));
  }
  return t.base_m;
}

}  // namespace

SedimentInitialState build_initial_state(const SedimentScene& sc) {
  SedimentInitialState st;
  const SedimentLayout L = make_sediment_layout(sc.nx, sc.ny, sizeof(double));
  st.layout = L;
  st.alpha.assign(L.total, 0.0);
  st.beta.assign(L.total, 0.0);
  st.h.assign(L.total, 0.0);
  st.s.assign(L.total, 0.0);
  for (int j = 0; j < sc.ny; ++j)
    for (int i = 0; i < sc.nx; ++i) {
      const int64_t p = L.index(i, j);
      st.alpha[p] = diffusivity(sc.alpha, sc, cx(sc, i), cy(sc, j));
      st.beta[p] = diffusivity(sc.beta, sc, cx(sc, i), cy(sc, j));
      st.h[p] = topography(sc.initial_h, cx(sc, i), cy(sc, j));
      st.s[p] = sc.initial_s;
    }
  // Ghost alpha and beta copy the edge cells: the face coefficient on the boundary is then the edge cell's own.
  for (int j = 0; j < sc.ny; ++j)
    for (auto* f : {&st.alpha, &st.beta}) {
      (*f)[L.index(-1, j)] = (*f)[L.index(0, j)];
      (*f)[L.index(sc.nx, j)] = (*f)[L.index(sc.nx - 1, j)];
    }
  for (int i = 0; i < sc.nx; ++i)
    for (auto* f : {&st.alpha, &st.beta}) {
      (*f)[L.index(i, -1)] = (*f)[L.index(i, 0)];
      (*f)[L.index(i, sc.ny)] = (*f)[L.index(i, sc.ny - 1)];
    }
  // Per-cell boundary fluxes: the side's flux on its segment (cell centre inside [from, to]), zero elsewhere.
  st.q_m2_s.assign(perimeter_cells(L), 0.0);
  for (int side = 0; side < 4; ++side) {
    const BoundaryFluxSpec& b = sc.boundary[side];
    st.s_in[side] = b.sand_fraction;
    const bool vertical = side < 2;  // west/east run along y
    const int n = vertical ? sc.ny : sc.nx;
    const int offset = side == 0 ? 0 : side == 1 ? sc.ny : side == 2 ? 2 * sc.ny : 2 * sc.ny + sc.nx;
    const double from = b.from_m.value_or(0.0);
    const double to = b.to_m.value_or(vertical ? sc.length_y_m() : sc.length_x_m());
    for (int c = 0; c < n; ++c) {
      const double along = vertical ? cy(sc, c) : cx(sc, c);
      if (along >= from && along <= to) st.q_m2_s[offset + c] = b.flux_m2_s;
    }
  }
  // Ghost h and s for the zero-th step (the viewer and the layer limit read them).
  const auto k = make_sediment_coeffs<double>(sc.compaction_sand, sc.compaction_mud, sc.top_layer_m, sc.dx_m,
                                              sc.dy_m, 1.0);
  BoundaryData<double> bd;
  bd.q_m2_s = st.q_m2_s.data();
  for (int q = 0; q < 4; ++q) bd.s_in[q] = st.s_in[q];
  bd.dx_m = sc.dx_m;
  bd.dy_m = sc.dy_m;
  for (int t = 0; t < perimeter_cells(L); ++t)
    fill_ghost(st.h.data(), st.s.data(), st.alpha.data(), st.beta.data(), L, k, bd, t, true);
  return st;
}

SedimentGrid derive_sediment_grid(const SedimentScene& sc) { return derive_sediment_grid(sc, build_initial_state(sc)); }

SedimentGrid derive_sediment_grid(const SedimentScene& sc, const SedimentInitialState& st) {
  SedimentGrid g;
  const SedimentLayout& L = st.layout;
  double dmax = 0.0;
  for (int j = 0; j < sc.ny; ++j)
    for (int i = 0; i < sc.nx; ++i) {
      const int64_t p = L.index(i, j);
      dmax = std::max({dmax, st.alpha[p] / sc.compaction_sand, st.beta[p] / sc.compaction_mud});
    }
  g.d_max_m2_s = dmax;
  g.dt_diffusion_limit_s = 1.0 / (2.0 * dmax * (1.0 / (sc.dx_m * sc.dx_m) + 1.0 / (sc.dy_m * sc.dy_m)));

  // Top-layer rate on the initial state (h^0 stands in for h^{l+1}).
  const auto k = make_sediment_coeffs<double>(sc.compaction_sand, sc.compaction_mud, sc.top_layer_m, sc.dx_m,
                                              sc.dy_m, 1.0);
  auto gamma = [&](int64_t p) { return mobility_contrast(k, st.alpha[p], st.beta[p]); };
  double rate = 0.0;
  const int64_t P = L.pitch;
  for (int j = 0; j < sc.ny; ++j)
    for (int i = 0; i < sc.nx; ++i) {
      const int64_t p = L.index(i, j);
      rate = std::max(rate, layer_rate(k, st.s[p], st.h[p], st.h[p + 1], st.h[p - 1], st.h[p + P], st.h[p - P],
                                       gamma(p), gamma(p + 1), gamma(p - 1), gamma(p + P), gamma(p - P), st.alpha[p],
                                       st.beta[p], sc.top_layer_m));
    }
  g.dt_layer_limit_s = rate > 0 ? 1.0 / rate : std::numeric_limits<double>::infinity();
  g.dt_limit_s = std::min(g.dt_diffusion_limit_s, g.dt_layer_limit_s);

  if (sc.dt_s) {
    if (*sc.dt_s > g.dt_limit_s) {
      std::ostringstream os;
      os.precision(6);
      os << "dt_s = " << *sc.dt_s << " is not allowed: the explicit stability limit is " << g.dt_limit_s
         << " s (diffusion limit 1/(2 D_max (1/dx^2 + 1/dy^2)) = " << g.dt_diffusion_limit_s
         << " s with D_max = max(alpha/C_s, beta/C_m) = " << dmax << " m^2/s; top-layer limit at t = 0: "
         << g.dt_layer_limit_s << " s); allowed: 0 < dt_s <= " << g.dt_limit_s;
      throw SceneError(os.str());
    }
    g.dt_s = *sc.dt_s;
  } else {
    g.dt_s = sc.dt_fraction * g.dt_limit_s;
  }
  return g;
}

}  // namespace ws
