#include "picking.hpp"

#include <algorithm>
#include <cmath>

namespace ws::render {

namespace {

SliceHit make_hit(SliceAxis a, int u, int v, const RoomGeometry& room, const SlicePositions& pos) {
  SliceHit h;
  h.axis = a;
  h.u = u;
  h.v = v;
  int idx[3];
  const auto t = tangent_axes(a);
  idx[normal_axis(a)] = pos.index_for(a);
  idx[t[0]] = u;
  idx[t[1]] = v;
  h.node = {idx[0], idx[1], idx[2]};
  h.position_m = glm::vec3(room.node_m(idx[0], 0), room.node_m(idx[1], 1), room.node_m(idx[2], 2));
  return h;
}

}  // namespace

std::optional<SliceHit> pick_slice(const Ray& ray, const RoomGeometry& room, const SlicePositions& pos) {
  std::optional<SliceHit> best;
  float best_t = INFINITY;
  for (int q = 0; q < kSliceCount; ++q) {
    const SliceAxis a = (SliceAxis)q;
    const int na = normal_axis(a);
    if (std::fabs(ray.direction[na]) < 1e-6f) continue;  // parallel to the plane
    const float plane = room.node_m(pos.index_for(a), na);
    const float t = (plane - ray.origin[na]) / ray.direction[na];
    if (t <= 0.0f || t >= best_t) continue;
    const glm::vec3 p = ray.origin + t * ray.direction;
    const auto ta = tangent_axes(a);
    // Texel under p: texel centres on the nodes, edges half a spacing either side.
    const int u = (int)std::floor((p[ta[0]] - room.first_m[ta[0]]) / room.spacing_m + 0.5f);
    const int v = (int)std::floor((p[ta[1]] - room.first_m[ta[1]]) / room.spacing_m + 0.5f);
    if (u < 0 || v < 0 || u >= room.dim(ta[0]) || v >= room.dim(ta[1])) continue;
    best_t = t;
    best = make_hit(a, u, v, room, pos);
  }
  return best;
}

std::optional<SliceHit> pick_slice_2d(SliceAxis a, float fx, float fy, const RoomGeometry& room,
                                      const SlicePositions& pos) {
  if (fx < 0.0f || fy < 0.0f || fx >= 1.0f || fy >= 1.0f) return std::nullopt;
  const auto ta = tangent_axes(a);
  const int u = std::min((int)(fx * room.dim(ta[0])), room.dim(ta[0]) - 1);
  // The image's v grows upwards; fy = 0 (the top edge) belongs to the last row.
  const int v = std::min((int)((1.0f - fy) * room.dim(ta[1])), room.dim(ta[1]) - 1);
  return make_hit(a, u, v, room, pos);
}

}  // namespace ws::render
