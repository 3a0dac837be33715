#include "stencil/stencil.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "stencil/families.hpp"

namespace ws {

double Stencil::centre_weight() const {
  for (const auto& p : points)
    if (p.dx == 0 && p.dy == 0 && p.dz == 0) return p.w;
  return 0.0;
}

double Stencil::axis_weight(int m) const {
  for (const auto& p : points)
    if (p.dx == m && p.dy == 0 && p.dz == 0) return p.w;
  return 0.0;
}

bool Stencil::is_leggy() const {
  for (const auto& p : points) {
    const int nonzero = (p.dx != 0) + (p.dy != 0) + (p.dz != 0);
    if (nonzero > 1) return false;
  }
  return true;
}

Stencil make_stencil(const std::string& name) {
  Stencil s = build_stencil_by_name(name);
  s.radius = 0;
  for (const auto& p : s.points) s.radius = std::max({s.radius, std::abs(p.dx), std::abs(p.dy), std::abs(p.dz)});
  s.courant_max = compute_courant_max(s.points);
  return s;
}

}  // namespace ws
