#include "stencil/symbol.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace ws {

StencilSymbol::StencilSymbol(const std::vector<StencilPoint>& points) : points_(points) {
  struct Acc {
    double w = 0.0;
    int count = 0;
    bool same = true;
  };
  std::map<std::tuple<int, int, int>, Acc> acc;
  for (const auto& p : points) {
    radius_ = std::max({radius_, std::abs(p.dx), std::abs(p.dy), std::abs(p.dz)});
    Acc& g = acc[{std::abs(p.dx), std::abs(p.dy), std::abs(p.dz)}];
    if (g.count > 0 && std::fabs(g.w - p.w) > 1e-14 * std::max(1.0, std::fabs(p.w))) g.same = false;
    g.w = p.w;
    ++g.count;
  }
  for (const auto& [key, g] : acc) {
    const auto [a, b, c] = key;
    const int variants = 1 << ((a != 0) + (b != 0) + (c != 0));
    if (!g.same || g.count != variants) sign_symmetric_ = false;
    groups_.push_back({a, b, c, g.w});
  }
  if (radius_ >= 64) sign_symmetric_ = false;  // beyond the cosine tables below
}

void StencilSymbol::fill_table(double k, double* f) const {
  f[0] = 1.0;
  for (int m = 1; m <= radius_; ++m) f[m] = 2.0 * std::cos(m * k);
}

double StencilSymbol::operator()(double kx, double ky, double kz) const {
  if (!sign_symmetric_) {
    double s = 0.0;
    for (const auto& p : points_) s += p.w * std::cos(kx * p.dx + ky * p.dy + kz * p.dz);
    return s;
  }
  // f(m, k) tables for m = 0..radius on each axis. The radius is at most a few tens.
  constexpr int kMaxTable = 64;
  double fx[kMaxTable], fy[kMaxTable], fz[kMaxTable];
  const int n = std::min(radius_, kMaxTable - 1);
  fx[0] = fy[0] = fz[0] = 1.0;
  for (int m = 1; m <= n; ++m) {
    fx[m] = 2.0 * std::cos(m * kx);
    fy[m] = 2.0 * std::cos(m * ky);
    fz[m] = 2.0 * std::cos(m * kz);
  }
  return from_tables(fx, fy, fz);
}

}  // namespace ws
