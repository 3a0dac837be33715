#pragma once
// Stencils for the large-stencil kernel tests. Leggy stencils come from
// make_stencil; the general (non-leggy) shapes are built here by hand so the
// kernels are tested independently of the family code:
//   hand:box27, hand:box125    full (2R+1)^3 cubes, R = 1, 2
//   hand:ball5, hand:ball9     compact-like balls |p|^2 <= 5 (57 points, radius 2), <= 9 (123, radius 3)
//   hand:ball22                |p|^2 <= 22: 461 points, radius 4, the size of S_22
// Weights: w_p = a / |p|^2 for p != 0, centre = -sum, with a chosen so that
// sum_p w_p p_x^2 = 2. With full cubic symmetry that makes sum_p w_p u(x+p) a
// consistent (second-order) Laplacian, and positive off-centre weights make
// -S(k) = sum w_p (1 - cos k.p) >= 0, so compute_courant_max gives a finite limit.
#include <cmath>
#include <exception>
#include <string>
#include <vector>

#include "stencil/stencil.hpp"

namespace ws::testing {

inline Stencil hand_stencil(const std::string& name, int radius, int max_r2) {
  Stencil s;
  s.name = name;
  s.family = StencilFamily::Compact;
  double second_moment = 0.0;
  for (int z = -radius; z <= radius; ++z)
    for (int y = -radius; y <= radius; ++y)
      for (int x = -radius; x <= radius; ++x) {
        const int r2 = x * x + y * y + z * z;
        if (r2 == 0 || r2 > max_r2) continue;
        s.points.push_back({x, y, z, 1.0 / r2});
        second_moment += double(x * x) / r2;
      }
  const double a = 2.0 / second_moment;
  double sum = 0.0;
  for (auto& p : s.points) {
    p.w *= a;
    sum += p.w;
  }
  s.points.insert(s.points.begin(), StencilPoint{0, 0, 0, -sum});
  s.radius = radius;
  s.courant_max = compute_courant_max(s.points);
  return s;
}

// Any stencil the tests use, by name: "hand:..." built here, everything else by make_stencil.
inline Stencil test_stencil(const std::string& name) {
  if (name == "hand:box27") return hand_stencil(name, 1, 3);
  if (name == "hand:box125") return hand_stencil(name, 2, 12);
  if (name == "hand:ball5") return hand_stencil(name, 2, 5);
  if (name == "hand:ball9") return hand_stencil(name, 3, 9);
  if (name == "hand:ball22") return hand_stencil(name, 4, 22);
  return make_stencil(name);
}

inline std::vector<std::string> test_stencil_names() {
  std::vector<std::string> v;
  for (int m = 1; m <= 8; ++m) v.push_back("leggy:" + std::to_string(m));
  for (const char* n : {"hand:box27", "hand:box125", "hand:ball5", "hand:ball9", "hand:ball22"}) v.push_back(n);
  // Members of the real families with the family code's weights, when make_stencil knows them
  // (the 27-point srl scheme, compact S_5 and S_22, the 5x5x5 box).
  for (const char* n : {"srl", "compact:5", "compact:22", "box:2,2,2"}) {
    try {
      make_stencil(n);
      v.push_back(n);
    } catch (const std::exception&) {
    }
  }
  return v;
}

}  // namespace ws::testing
