#include "cuda/tile_groups.hpp"

#include <stdexcept>
#include <string>

namespace ws {

TileGrid make_tile_grid(const FieldLayout& L, const TileShape& s) {
  if (s.x < 1 || s.y < 1 || s.z < 1)
    throw std::invalid_argument("tile " + std::to_string(s.x) + "x" + std::to_string(s.y) + "x" + std::to_string(s.z) +
                                " is not allowed: each side must be >= 1");
  TileGrid g;
  g.shape = s;
  g.nx = (L.nx + s.x - 1) / s.x;
  g.ny = (L.ny + s.y - 1) / s.y;
  g.nz = (L.nz + s.z - 1) / s.z;
  return g;
}

int tile_of(const FieldLayout& L, const TileGrid& g, int64_t q) {
  const FieldLayout::Point p = L.point(q);
  if (q < 0 || q >= L.total || p.i < 0 || p.i >= L.nx || p.j < 0 || p.j >= L.ny || p.k < 0 || p.k >= L.nz)
    throw std::invalid_argument("index " + std::to_string(q) + " is not an interior point of the " +
                                std::to_string(L.nx) + "x" + std::to_string(L.ny) + "x" + std::to_string(L.nz) +
                                " grid");
  return p.i / g.shape.x + g.nx * (p.j / g.shape.y + g.ny * (p.k / g.shape.z));
}

TileGroups group_by_tile(const FieldLayout& L, const TileGrid& g, const std::vector<int64_t>& nodes) {
  TileGroups out;
  out.start.assign((size_t)g.count() + 1, 0);
  std::vector<int> tile(nodes.size());
  for (size_t n = 0; n < nodes.size(); ++n) {
    tile[n] = tile_of(L, g, nodes[n]);
    ++out.start[(size_t)tile[n] + 1];
  }
  for (size_t t = 0; t < (size_t)g.count(); ++t) out.start[t + 1] += out.start[t];
  std::vector<int> next(out.start.begin(), out.start.end() - 1);
  out.order.resize(nodes.size());
  for (size_t n = 0; n < nodes.size(); ++n) out.order[(size_t)next[(size_t)tile[n]]++] = (int)n;
  return out;
}

}  // namespace ws
