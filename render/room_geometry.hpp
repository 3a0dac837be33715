#pragma once
// What the views draw besides the field: the room's box, the slice planes'
// positions in metres, and the source and receiver markers.
#include <array>
#include <glm/glm.hpp>
#include <vector>

#include "scene/scene.hpp"
#include "slice_geometry.hpp"

namespace ws::render {

struct Marker {
  glm::vec3 position_m;
  glm::vec4 colour;
};

struct RoomGeometry {
  int nx = 0, ny = 0, nz = 0;
  float spacing_m = 0.0f;
  glm::vec3 first_m{0.0f};   // position of node 0 along each axis (X for a fixed wall, X/2 otherwise)
  glm::vec3 extent_m{0.0f};  // the modelled room's far walls (DerivedGrid::modelled_m)
  std::vector<Marker> markers;

  int dim(int axis) const { return axis == 0 ? nx : axis == 1 ? ny : nz; }
  // Node n along an axis sits at first_m + n X from the wall.
  float node_m(int n, int axis) const { return first_m[axis] + n * spacing_m; }
  // Inverse: the nearest node of a coordinate in metres, clamped to the grid.
  int node_of(float position_m, int axis) const;
  // Where a slice's quad lies: corners (u, v) = (0,0), (1,0), (1,1), (0,1),
  // spanning half a cell beyond the outermost nodes so texel centres fall on the nodes.
  std::array<glm::vec3, 4> slice_corners_m(SliceAxis a, const SlicePositions& pos) const;
};

constexpr glm::vec4 kSourceColour{1.0f, 0.85f, 0.1f, 1.0f};    // amber
constexpr glm::vec4 kReceiverColour{0.2f, 0.9f, 0.35f, 1.0f};  // green

// Sources and receivers where the solver puts them: the nearest node, or the
// position itself for a trilinear source or receiver.
RoomGeometry make_room_geometry(const WaveScene& scene, const DerivedGrid& grid);

}  // namespace ws::render
