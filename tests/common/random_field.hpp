#pragma once
// Random initial states for backend comparisons: uniform in [-1, 1] on the
// interior, zero on the halo (the fixed boundary).
#include <random>
#include <vector>

#include "core/field_layout.hpp"

namespace ws::testing {

inline std::vector<double> random_field(const FieldLayout& L, unsigned seed) {
  std::vector<double> u(L.total, 0.0);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) u[L.index(i, j, k)] = d(rng);
  return u;
}

// max |a - b| over interior points, and max |b| (for a relative error).
inline std::pair<double, double> max_diff(const std::vector<double>& a, const std::vector<double>& b,
                                          const FieldLayout& L) {
  double md = 0, mb = 0;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const int64_t q = L.index(i, j, k);
        const double d = a[q] != a[q] ? 1e300 : std::abs(a[q] - b[q]);  // NaN counts as a failure
        md = std::max(md, d);
        mb = std::max(mb, std::abs(b[q]));
      }
  return {md, mb};
}

}  // namespace ws::testing
