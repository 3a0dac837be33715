#include <algorithm>
#include <cmath>

#include "stencil/stencil.hpp"

namespace ws {

// Von Neumann analysis of u^{n+1} = 2u^n + lambda^2 S u^n - u^{n-1}: with u ~ g^n e^{i k.x},
// g + 1/g = 2 + lambda^2 S(k), and |g| = 1 (no growth) iff -4 <= lambda^2 S(k) <= 0.
// S(k) = sum_p w_p cos(k.p) is real because the stencils are symmetric. For a consistent
// Laplacian S <= 0 and the limit is lambda_max = sqrt(4 / max_k(-S(k))).
// The maximum over the wavenumber cube [0, pi]^3 (S is even in each component for the
// symmetric stencils here) is found on a grid and refined by coordinate search.
double compute_courant_max(const std::vector<StencilPoint>& pts) {
  auto neg_symbol = [&](double kx, double ky, double kz) {
    double s = 0.0;
    for (const auto& p : pts) s += p.w * std::cos(kx * p.dx + ky * p.dy + kz * p.dz);
    return -s;
  };
  const double pi = 3.14159265358979323846;
  const int n = 24;
  double best = 0.0, bx = 0, by = 0, bz = 0;
  for (int a = 0; a <= n; ++a)
    for (int b = 0; b <= n; ++b)
      for (int c = 0; c <= n; ++c) {
        const double kx = pi * a / n, ky = pi * b / n, kz = pi * c / n;
        const double v = neg_symbol(kx, ky, kz);
        if (v > best) { best = v; bx = kx; by = ky; bz = kz; }
      }
  // Refine: shrinking coordinate search inside the cube.
  for (double h = pi / n; h > 1e-12; h *= 0.5) {
    bool moved = true;
    while (moved) {
      moved = false;
      for (int d = 0; d < 3; ++d)
        for (int sgn : {-1, 1}) {
          double k[3] = {bx, by, bz};
          k[d] = std::clamp(k[d] + sgn * h, 0.0, pi);
          const double v = neg_symbol(k[0], k[1], k[2]);
          if (v > best * (1 + 1e-15)) { best = v; bx = k[0]; by = k[1]; bz = k[2]; moved = true; }
        }
    }
  }
  if (best <= 0.0) return 0.0;
  return std::sqrt(4.0 / best);
}

}  // namespace ws
