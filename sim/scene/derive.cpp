#include <cmath>
#include <sstream>

#include "scene/scene.hpp"

namespace ws {

namespace {
std::string fmt(double v) {
  std::ostringstream os;
  os.precision(6);
  os << v;
  return os.str();
}
}  // namespace

DerivedGrid derive_grid(const WaveScene& s) {
  DerivedGrid g;
  try {
    g.stencil = make_stencil(s.stencil);
  } catch (const std::invalid_argument& e) {
    throw SceneError(std::string("stencil: ") + e.what());
  }
  const bool needs_boundary_nodes =
      !all_fixed(s.walls) || (s.geometry.contains("obstacles") && !s.geometry.at("obstacles").empty());
  if (needs_boundary_nodes && !g.stencil.is_seven_point())
    throw SceneError("stencil = \"" + s.stencil + "\" cannot be combined with rigid, absorbing or open walls or with " +
                     "obstacles; those boundaries are built for the 7-point stencil (7pt). Use stencil 7pt or fixed walls");
  const double limit = g.stencil.courant_max;
  if (s.courant) {
    // Refuse above the limit, with a relative slack for the limit's own rounding.
    if (!(*s.courant > 0.0) || *s.courant > limit * (1.0 + 1e-12))
      throw SceneError("courant = " + fmt(*s.courant) + " is not allowed for stencil " + g.stencil.name +
                       ": it must lie in (0, " + fmt(limit) + "], the scheme's stability limit");
    g.courant = *s.courant;
  } else {
    if (!(s.courant_fraction > 0.0 && s.courant_fraction <= 1.0))
      throw SceneError("courant_fraction = " + fmt(s.courant_fraction) + " is not allowed: it must lie in (0, 1]");
    g.courant = limit * s.courant_fraction;
  }
  g.dt_s = 1.0 / s.sample_rate_hz;
  // lambda = c T / X  =>  X = c T / lambda: the finest grid the time step allows.
  g.spacing_m = s.sound_speed_m_s * g.dt_s / g.courant;
  int* dims[3] = {&g.nx, &g.ny, &g.nz};
  const char* axis = "xyz";
  for (int d = 0; d < 3; ++d) {
    // Nodes at 0, X, ..., L: the two walls are fixed nodes, the rest are interior.
    const long long n = std::llround(s.room_m[d] / g.spacing_m) - 1;
    if (n < 3)
      throw SceneError(std::string("room_m[") + axis[d] + "] = " + fmt(s.room_m[d]) +
                       " m gives fewer than 3 interior points at spacing " + fmt(g.spacing_m) +
                       " m; make the room larger or the sample rate higher");
    if (n > 100000)
      throw SceneError(std::string("room_m[") + axis[d] + "] = " + fmt(s.room_m[d]) + " m gives " +
                       std::to_string(n) + " points along " + axis[d] + "; at most 100000 are allowed");
    *dims[d] = (int)n;
  }
  for (size_t q = 0; q < s.sources.size(); ++q)
    g.source_nodes.push_back(position_to_node(s.sources[q].position_m, s, g, "sources[" + std::to_string(q) + "].position_m"));
  for (size_t q = 0; q < s.receivers.size(); ++q)
    g.receiver_nodes.push_back(
        position_to_node(s.receivers[q].position_m, s, g, "receivers[" + std::to_string(q) + "].position_m"));
  return g;
}

GridIndex position_to_node(const std::array<double, 3>& p, const WaveScene& s, const DerivedGrid& g,
                           const std::string& what) {
  const int n[3] = {g.nx, g.ny, g.nz};
  int idx[3];
  const char* axis = "xyz";
  for (int d = 0; d < 3; ++d) {
    if (!(p[d] > 0.0 && p[d] < s.room_m[d]))
      throw SceneError(what + "[" + axis[d] + "] = " + fmt(p[d]) + " m lies outside the room; allowed: (0, " +
                       fmt(s.room_m[d]) + ") m");
    long long i = std::llround(p[d] / g.spacing_m) - 1;
    if (i < 0) i = 0;
    if (i > n[d] - 1) i = n[d] - 1;
    idx[d] = (int)i;
  }
  return {idx[0], idx[1], idx[2]};
}

}  // namespace ws
