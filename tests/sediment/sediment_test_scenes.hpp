#pragma once
// Scenes for the sediment tests: small, odd-sized, with a river mouth, a bump
// and (optionally) prescribed boundary fluxes.
#include <cmath>
#include <random>
#include <vector>

#include "sediment/sediment_scene.hpp"
#include "sediment/sediment_setup.hpp"

namespace ws::testing {

inline SedimentScene river_scene(int nx, int ny, bool fluxes) {
  SedimentScene sc;
  sc.name = "test river";
  sc.nx = nx;
  sc.ny = ny;
  sc.dx_m = 50.0;
  sc.dy_m = 40.0;
  sc.compaction_sand = 0.7;
  sc.compaction_mud = 0.6;
  sc.top_layer_m = 2.0;
  sc.alpha.type = "river_mouth";
  sc.alpha.background_m2_s = 0.3;
  sc.alpha.peak_m2_s = 3.0;
  sc.alpha.side = BasinSide::West;
  sc.alpha.centre_m = 0.5 * sc.length_y_m();
  sc.alpha.width_m = 0.2 * sc.length_y_m();
  sc.alpha.decay_m = 0.3 * sc.length_x_m();
  sc.beta.value_m2_s = 0.8;
  sc.initial_h.type = "bump";
  sc.initial_h.base_m = 10.0;
  sc.initial_h.height_m = 8.0;
  sc.initial_h.centre_m = {0.6 * sc.length_x_m(), 0.4 * sc.length_y_m()};
  sc.initial_h.radius_m = 0.25 * sc.length_x_m();
  sc.initial_s = 0.3;
  if (fluxes) {
    auto& w = sc.boundary[(int)BasinSide::West];
    w.flux_m2_s = 0.02;
    w.sand_fraction = 1.0;
    w.from_m = 0.3 * sc.length_y_m();
    w.to_m = 0.7 * sc.length_y_m();
    auto& e = sc.boundary[(int)BasinSide::East];
    e.flux_m2_s = -0.004;
  }
  sc.dt_fraction = 0.9;
  return sc;
}

// Interior sum of h times the cell area: the sediment volume.
inline double volume_m3(const std::vector<double>& h, const SedimentLayout& L, double dx, double dy) {
  double v = 0;
  for (int j = 0; j < L.ny; ++j)
    for (int i = 0; i < L.nx; ++i) v += h[L.index(i, j)];
  return v * dx * dy;
}

}  // namespace ws::testing
