#include "room_geometry.hpp"

#include <algorithm>
#include <cmath>

namespace ws::render {

int RoomGeometry::node_of(float position_m, int axis) const {
  const int n = (int)std::lround((position_m - first_m[axis]) / spacing_m);
  return std::clamp(n, 0, dim(axis) - 1);
}

std::array<glm::vec3, 4> RoomGeometry::slice_corners_m(SliceAxis a, const SlicePositions& pos) const {
  const int na = normal_axis(a);
  const auto t = tangent_axes(a);
  const float lo_u = first_m[t[0]] - 0.5f * spacing_m, lo_v = first_m[t[1]] - 0.5f * spacing_m;
  const float hi_u = lo_u + dim(t[0]) * spacing_m;
  const float hi_v = lo_v + dim(t[1]) * spacing_m;
  const float plane = node_m(pos.index_for(a), na);
  std::array<glm::vec3, 4> c;
  const float us[4] = {lo_u, hi_u, hi_u, lo_u};
  const float vs[4] = {lo_v, lo_v, hi_v, hi_v};
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
  g.first_m = glm::vec3(grid.first_node_m[0], grid.first_node_m[1], grid.first_node_m[2]);
  g.extent_m = glm::vec3(grid.modelled_m[0], grid.modelled_m[1], grid.modelled_m[2]);
  auto place = [&](const GridIndex& n, Interpolation how, const std::array<double, 3>& p) {
    if (how == Interpolation::Trilinear) return glm::vec3(p[0], p[1], p[2]);
    return glm::vec3(g.node_m(n.i, 0), g.node_m(n.j, 1), g.node_m(n.k, 2));
  };
  for (size_t q = 0; q < grid.source_nodes.size() && q < scene.sources.size(); ++q)
    g.markers.push_back(
        {place(grid.source_nodes[q], scene.sources[q].interpolation, scene.sources[q].position_m), kSourceColour});
  for (size_t q = 0; q < grid.receiver_nodes.size() && q < scene.receivers.size(); ++q)
    g.markers.push_back({place(grid.receiver_nodes[q], scene.receivers[q].interpolation,
                               scene.receivers[q].position_m),
                         kReceiverColour});
  return g;
}

}  // namespace ws::render
