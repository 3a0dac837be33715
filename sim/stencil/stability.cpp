#include <algorithm>
#include <cmath>
#include <vector>

#include "stencil/stencil.hpp"
#include "stencil/symbol.hpp"

namespace ws {

// Von Neumann analysis of u^{n+1} = 2u^n + lambda^2 S u^n - u^{n-1}: with u ~ g^n e^{i k.x},
// g + 1/g = 2 + lambda^2 S(k), and |g| = 1 (no growth) iff -4 <= lambda^2 S(k) <= 0.
// S(k) = sum_p w_p cos(k.p) is real because the stencils are symmetric. For a consistent
// Laplacian S <= 0 near k = 0 and the limit is lambda_max = sqrt(4 / max_k(-S(k))).
// (A stencil with S > 0 somewhere grows for every lambda: the limit is then 0.)
//
// The maximum is taken over the wavenumber cube. For sign-symmetric stencils S is even in
// each component, so [0, pi]^3 is enough; otherwise S(k) = S(-k) still halves the cube.
// The cube is sampled on a grid that contains the faces, edges and corners exactly (where
// the maximum lies for leggy and 27-point stencils: (pi, pi, pi), which makes those limits
// exact to rounding), then the best few grid points are refined by a shrinking coordinate
// search, because a large stencil's maximum can sit inside the cube.
double compute_courant_max(const std::vector<StencilPoint>& pts) {
  const StencilSymbol S(pts);
  const double pi = 3.14159265358979323846;
  const int n = 32;
  const double lo_xy = S.sign_symmetric() ? 0.0 : -pi;
  const double step_xy = (pi - lo_xy) / n;
  const double step_z = pi / n;

  // -S on the grid, then its local maxima (no larger neighbour along any axis) as candidates:
  // separate peaks each get refined, however close their grid values.
  const int g = n + 1;
  std::vector<double> val((size_t)g * g * g);
  auto at = [g](int a, int b, int c) { return ((size_t)c * g + b) * g + a; };
  if (S.sign_symmetric()) {
    // Per-axis cosine tables for the grid coordinates: the grid then needs no cosines at all.
    const int r1 = S.radius() + 1;
    std::vector<double> table((size_t)g * r1);
    for (int a = 0; a <= n; ++a) S.fill_table(step_z * a, &table[(size_t)a * r1]);
    for (int c = 0; c <= n; ++c)
      for (int b = 0; b <= n; ++b)
        for (int a = 0; a <= n; ++a)
          val[at(a, b, c)] = -S.from_tables(&table[(size_t)a * r1], &table[(size_t)b * r1], &table[(size_t)c * r1]);
  } else {
    for (int c = 0; c <= n; ++c)
      for (int b = 0; b <= n; ++b)
        for (int a = 0; a <= n; ++a) val[at(a, b, c)] = -S(lo_xy + step_xy * a, lo_xy + step_xy * b, step_z * c);
  }
  struct Candidate {
    double v, k[3];
  };
  std::vector<Candidate> best;
  double top = 0.0, most_positive = 0.0;
  for (int c = 0; c <= n; ++c)
    for (int b = 0; b <= n; ++b)
      for (int a = 0; a <= n; ++a) {
        const double v = val[at(a, b, c)];
        top = std::max(top, v);
        most_positive = std::max(most_positive, -v);
        const int idx[3] = {a, b, c};
        bool peak = true;
        for (int d = 0; d < 3 && peak; ++d)
          for (int sgn : {-1, 1}) {
            int j[3] = {a, b, c};
            j[d] = idx[d] + sgn;
            if (j[d] < 0 || j[d] > n) continue;
            if (val[at(j[0], j[1], j[2])] > v) peak = false;
          }
        if (peak) best.push_back({v, {lo_xy + step_xy * a, lo_xy + step_xy * b, step_z * c}});
      }
  std::sort(best.begin(), best.end(), [](const Candidate& x, const Candidate& y) { return x.v > y.v; });
  if (best.size() > 12) best.resize(12);
  const double lo[3] = {lo_xy, lo_xy, 0.0};
  for (auto& cand : best) {
    double h = step_xy;
    while (h > 1e-13) {
      bool moved = false;
      for (int d = 0; d < 3; ++d)
        for (int sgn : {-1, 1}) {
          double k[3] = {cand.k[0], cand.k[1], cand.k[2]};
          k[d] = std::clamp(k[d] + sgn * h, lo[d], pi);
          const double v = -S(k[0], k[1], k[2]);
          if (v > cand.v) {
            cand.v = v;
            std::copy(k, k + 3, cand.k);
            moved = true;
          }
        }
      if (!moved) h *= 0.5;
    }
    top = std::max(top, cand.v);
  }
  // A positive S anywhere (a wave that grows at every lambda) means no stable lambda.
  if (most_positive > 1e-12 * std::max(1.0, top)) return 0.0;
  if (top <= 0.0) return 0.0;
  return std::sqrt(4.0 / top);
}

}  // namespace ws
