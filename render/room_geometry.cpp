#include "room_geometry.hpp"

#include <algorithm>
#include <cmath>

namespace ws::render {

int RoomGeometry::node_of(float position_m, int axis) const {
  const int n = (int)std::lround(position_m / spacing_m) - 1;
  return std::clamp(n, 0, dim(axis) - 1);
}

std::array<glm::vec3, 4> RoomGeometry::slice_corners_m(SliceAxis a, const SlicePositions& pos) const {
  const int na = normal_axis(a);
  const auto t = tangent_axes(a);
  const float lo = 0.5f * spacing_m;
  const float hi_u = (dim(t[0]) + 0.5f) * spacing_m;
  const float hi_v = (dim(t[1]) + 0.5f) * spacing_m;
  const float plane = node_m(pos.index_for(a));
  std::array<glm::vec3, 4> c;
  const float us[4] = {lo, hi_u, hi_u, lo};
  const float vs[4] = {lo, lo, hi_v, hi_v};
  for (int q = 0; q < 4; ++q) {
    c[q][na] = plane;
    c[q][t[0]] = us[q];
    c[q][t[1]] = vs[q];
  }
  return c;
}

RoomGeometry make_room_geometry(const WaveScene& scene, const DerivedGrid& grid) {
  RoomGeometry g;
  g.nx = grid.nx;
  g.ny = grid.ny;
  g.nz = grid.nz;
  g.spacing_m = (float)grid.spacing_m;
  g.extent_m = glm::vec3(grid.nx + 1, grid.ny + 1, grid.nz + 1) * g.spacing_m;
  (void)scene;
  for (const auto& n : grid.source_nodes)
    g.markers.push_back({glm::vec3(g.node_m(n.i), g.node_m(n.j), g.node_m(n.k)), kSourceColour});
  for (const auto& n : grid.receiver_nodes)
    g.markers.push_back({glm::vec3(g.node_m(n.i), g.node_m(n.j), g.node_m(n.k)), kReceiverColour});
  return g;
}

}  // namespace ws::render
