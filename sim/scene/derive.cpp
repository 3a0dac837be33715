#include <algorithm>
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
    const double o_min = wall_offset_cells(s.walls[2 * d]), o_max = wall_offset_cells(s.walls[2 * d + 1]);
    const long long n = std::llround(s.room_m[d] / g.spacing_m + 1.0 - o_min - o_max);
    if (n < 3)
      throw SceneError(std::string("room_m[") + axis[d] + "] = " + fmt(s.room_m[d]) +
                       " m gives fewer than 3 interior points at spacing " + fmt(g.spacing_m) +
                       " m; make the room larger or the sample rate higher");
    if (n > 100000)
      throw SceneError(std::string("room_m[") + axis[d] + "] = " + fmt(s.room_m[d]) + " m gives " +
                       std::to_string(n) + " points along " + axis[d] + "; at most 100000 are allowed");
    *dims[d] = (int)n;
    g.first_node_m[d] = o_min * g.spacing_m;
    g.modelled_m[d] = ((double)n - 1.0 + o_min + o_max) * g.spacing_m;
  }
  for (size_t q = 0; q < s.sources.size(); ++q) {
    const std::string what = "sources[" + std::to_string(q) + "].position_m";
    g.source_nodes.push_back(position_to_node(s.sources[q].position_m, s, g, what));
    g.source_taps.push_back(position_taps(s.sources[q].position_m, s.sources[q].interpolation, s, g, what));
  }
  for (size_t q = 0; q < s.receivers.size(); ++q) {
    const std::string what = "receivers[" + std::to_string(q) + "].position_m";
    g.receiver_nodes.push_back(position_to_node(s.receivers[q].position_m, s, g, what));
    g.receiver_taps.push_back(position_taps(s.receivers[q].position_m, s.receivers[q].interpolation, s, g, what));
  }
  return g;
}

namespace {

// Position p along each axis in node units, (p - first node) / X, after checking it lies in the room.
std::array<double, 3> node_coordinates(const std::array<double, 3>& p, const WaveScene& s, const DerivedGrid& g,
                                       const std::string& what) {
  std::array<double, 3> f{};
  const char* axis = "xyz";
  for (int d = 0; d < 3; ++d) {
    if (!(p[d] > 0.0 && p[d] < g.modelled_m[d])) {
      std::string allowed = "(0, " + fmt(g.modelled_m[d]) + ") m";
      if (std::fabs(g.modelled_m[d] - s.room_m[d]) > 1e-9 * s.room_m[d])
        allowed += ", the modelled room (room_m[" + std::string(1, axis[d]) + "] = " + fmt(s.room_m[d]) +
                   " m rounded to whole cells of " + fmt(g.spacing_m) + " m)";
      throw SceneError(what + "[" + axis[d] + "] = " + fmt(p[d]) + " m lies outside the room; allowed: " + allowed);
    }
    f[d] = (p[d] - g.first_node_m[d]) / g.spacing_m;
  }
  return f;
}

}  // namespace

GridIndex position_to_node(const std::array<double, 3>& p, const WaveScene& s, const DerivedGrid& g,
                           const std::string& what) {
  const std::array<double, 3> f = node_coordinates(p, s, g, what);
  int idx[3];
  for (int d = 0; d < 3; ++d) {
    long long i = std::llround(f[d]);
    if (i < 0) i = 0;
    if (i > g.dim(d) - 1) i = g.dim(d) - 1;
    idx[d] = (int)i;
  }
  return {idx[0], idx[1], idx[2]};
}

std::vector<GridTap> position_taps(const std::array<double, 3>& p, Interpolation how, const WaveScene& s,
                                   const DerivedGrid& g, const std::string& what) {
  if (how == Interpolation::Nearest) return {{position_to_node(p, s, g, what), 1.0}};
  const std::array<double, 3> f = node_coordinates(p, s, g, what);
  int lo[3];
  double w[3];
  for (int d = 0; d < 3; ++d) {
    // Between the walls and the outermost nodes the position is clamped onto those nodes.
    const double x = std::fmin(std::fmax(f[d], 0.0), (double)(g.dim(d) - 1));
    lo[d] = std::min((int)std::floor(x), g.dim(d) - 2);
    w[d] = x - lo[d];
  }
  std::vector<GridTap> taps;
  for (int c = 0; c < 8; ++c) {
    const int b[3] = {c & 1, (c >> 1) & 1, (c >> 2) & 1};
    double weight = 1.0;
    for (int d = 0; d < 3; ++d) weight *= b[d] ? w[d] : 1.0 - w[d];
    if (weight == 0.0) continue;
    taps.push_back({{lo[0] + b[0], lo[1] + b[1], lo[2] + b[2]}, weight});
  }
  return taps;
}

}  // namespace ws
