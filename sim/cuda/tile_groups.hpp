#pragma once
// Grouping of sparse per-node items (boundary nodes, solid nodes, source nodes) by the
// tile of the interior grid they fall in, for kernels in which one block owns a tile
// for a whole step (kernels/persistent_l2.cu): the block updates its tile's interior
// points and then its own boundary nodes, solids and sources, so a step needs no
// synchronisation between blocks beyond the one at its end. Host-only, tested on the CPU.
#include <cstdint>
#include <vector>

#include "core/field_layout.hpp"
#include "core/hd.hpp"

namespace ws {

// A tile of x * y * z interior points; tiles are numbered tx + ntx * (ty + nty * tz).
struct TileShape {
  int x = 32, y = 8, z = 4;
};

struct TileGrid {
  TileShape shape;
  int nx = 0, ny = 0, nz = 0;  // tiles per axis
  WS_HD int count() const { return nx * ny * nz; }
};

// Throws std::invalid_argument naming the side when a side is < 1.
TileGrid make_tile_grid(const FieldLayout& L, const TileShape& shape);

// The tile that holds interior point q; throws std::invalid_argument for a halo or padding index.
int tile_of(const FieldLayout& L, const TileGrid& g, int64_t q);

// Items sorted by tile, stably: order[start[t]] .. order[start[t+1] - 1] are the indices
// (into `nodes`) of the items in tile t, in their original order. start has count() + 1 entries.
struct TileGroups {
  std::vector<int> start;
  std::vector<int> order;
};
TileGroups group_by_tile(const FieldLayout& L, const TileGrid& g, const std::vector<int64_t>& nodes);

// Items gathered in tile order: out[r] = in[order[r]].
template <class V>
std::vector<V> gather(const std::vector<V>& in, const std::vector<int>& order) {
  std::vector<V> out;
  out.reserve(order.size());
  for (int r : order) out.push_back(in[(size_t)r]);
  return out;
}

}  // namespace ws
