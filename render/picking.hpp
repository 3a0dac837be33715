#pragma once
// What lies under the mouse: the slice texel hit by a ray in the 3-D view, or
// under a pixel of the 2-D view; with the node and its position in metres.
#include <optional>

#include "orbit_camera.hpp"
#include "room_geometry.hpp"

namespace ws::render {

struct SliceHit {
  SliceAxis axis;
  int u = 0, v = 0;        // texel of that slice
  GridIndex node;          // interior node (i, j, k)
  glm::vec3 position_m{};  // the node's position
};

// Nearest slice quad along the ray, if any.
std::optional<SliceHit> pick_slice(const Ray& ray, const RoomGeometry& room, const SlicePositions& pos);

// A point (fx, fy) in [0,1]^2 of a 2-D slice image (x right, y down) to the texel under it.
std::optional<SliceHit> pick_slice_2d(SliceAxis a, float fx, float fy, const RoomGeometry& room,
                                      const SlicePositions& pos);

}  // namespace ws::render
