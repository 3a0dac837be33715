#pragma once
// The interior nodes whose positions fall inside a box, and the mesh inside
// test over such a range (used by voxelise.cpp; in its own file for tests).
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "geometry/triangle_bvh.hpp"

namespace ws::geo {

// Inclusive node index ranges per axis; empty when any lo > hi.
struct NodeRange {
  int lo[3] = {0, 0, 0}, hi[3] = {-1, -1, -1};
  bool empty() const { return lo[0] > hi[0] || lo[1] > hi[1] || lo[2] > hi[2]; }
  int size(int d) const { return hi[d] - lo[d] + 1; }
  std::size_t count() const { return empty() ? 0 : (std::size_t)size(0) * size(1) * size(2); }
};

// Nodes at f + i X (f: the first node's position per axis) with lo <= f + i X <= hi, clipped to [0, n).
inline NodeRange node_range(const Aabb& b, const int n[3], double spacing_m, const std::array<double, 3>& first_m) {
  NodeRange r;
  if (b.empty()) return r;
  for (int d = 0; d < 3; ++d) {
    const double lo = std::ceil((b.lo[d] - first_m[d]) / spacing_m), hi = std::floor((b.hi[d] - first_m[d]) / spacing_m);
    r.lo[d] = (int)std::fmax(0.0, std::fmin(lo, (double)n[d]));
    r.hi[d] = (int)std::fmin((double)n[d] - 1, std::fmax(hi, -1.0));
  }
  return r;
}
// Nodes at (i + 1) X: fixed walls on all sides.
inline NodeRange node_range(const Aabb& b, const int n[3], double spacing_m) {
  return node_range(b, n, spacing_m, {spacing_m, spacing_m, spacing_m});
}

// Per node of the range (index (i - lo) + size0 * ((j - lo) + size1 * (k - lo))):
// 1 where the generalized winding number exceeds 0.5. Evaluated exactly near
// the surface and by blocks elsewhere; see mesh_voxelise.cpp.
struct MeshInsideStats {
  long long winding_evaluations = 0;
  long long blocks = 0, blocks_filled = 0;
};
std::vector<std::uint8_t> mesh_inside(const TriangleBvh& bvh, const NodeRange& r, double spacing_m,
                                      const std::array<double, 3>& first_m, MeshInsideStats* stats = nullptr);
inline std::vector<std::uint8_t> mesh_inside(const TriangleBvh& bvh, const NodeRange& r, double spacing_m,
                                             MeshInsideStats* stats = nullptr) {
  return mesh_inside(bvh, r, spacing_m, {spacing_m, spacing_m, spacing_m}, stats);
}

}  // namespace ws::geo
