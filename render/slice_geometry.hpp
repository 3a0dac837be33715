#pragma once
// The three orthogonal slices of a padded grid and where their texels sit.
//
// A slice is a 2-D array of interior points: texel (u, v) of the XY slice at
// k is node (u, v, k); of XZ at j, node (u, j, v); of YZ at i, node (i, u, v).
// In the padded layout every slice is a strided walk from a base index:
//   index(u, v) = base + u * stride_u + v * stride_v
// which lets one kernel (and one host loop) serve all three orientations.
// Interior node n sits at first + n X from the wall (DerivedGrid::node_position_m),
// so a slice's quad spans half a cell beyond the outermost nodes along each of its
// axes, with texel centres exactly on the nodes (RoomGeometry::slice_corners_m).
#include <algorithm>
#include <array>
#include <cstdint>

#include "core/field_layout.hpp"

namespace ws::render {

enum class SliceAxis : int { XY = 0, XZ = 1, YZ = 2 };
constexpr int kSliceCount = 3;
inline const char* slice_name(SliceAxis a) {
  return a == SliceAxis::XY ? "XY" : a == SliceAxis::XZ ? "XZ" : "YZ";
}
// The grid axis a slice is normal to (XY -> z = 2, XZ -> y = 1, YZ -> x = 0).
inline int normal_axis(SliceAxis a) { return a == SliceAxis::XY ? 2 : a == SliceAxis::XZ ? 1 : 0; }
// The grid axes along the texture's u and v.
inline std::array<int, 2> tangent_axes(SliceAxis a) {
  return a == SliceAxis::XY ? std::array<int, 2>{0, 1} : a == SliceAxis::XZ ? std::array<int, 2>{0, 2}
                                                                            : std::array<int, 2>{1, 2};
}

// Node indices of the slice planes: XY at k, XZ at j, YZ at i.
struct SlicePositions {
  int i = 0, j = 0, k = 0;
  int index_for(SliceAxis a) const { return a == SliceAxis::XY ? k : a == SliceAxis::XZ ? j : i; }
  int& index_for(SliceAxis a) { return a == SliceAxis::XY ? k : a == SliceAxis::XZ ? j : i; }
};

struct SlicePlane {
  int width = 0, height = 0;  // texels along u and v
  int64_t base = 0, stride_u = 0, stride_v = 0;
  int64_t texels() const { return (int64_t)width * height; }
};

inline SlicePlane slice_plane(const FieldLayout& L, SliceAxis a, const SlicePositions& pos) {
  SlicePlane p;
  switch (a) {
    case SliceAxis::XY:
      p = {L.nx, L.ny, L.index(0, 0, std::clamp(pos.k, 0, L.nz - 1)), 1, L.pitch};
      break;
    case SliceAxis::XZ:
      p = {L.nx, L.nz, L.index(0, std::clamp(pos.j, 0, L.ny - 1), 0), 1, L.plane};
      break;
    case SliceAxis::YZ:
      p = {L.ny, L.nz, L.index(std::clamp(pos.i, 0, L.nx - 1), 0, 0), L.pitch, L.plane};
      break;
  }
  return p;
}

}  // namespace ws::render
