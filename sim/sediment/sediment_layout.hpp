#pragma once
// Memory layout of one 2-D sediment field (h, s, alpha or beta).
//
// The nx*ny interior cells are the ones the scheme updates. Around them lies
// one ghost layer (Su et al. section 3.1): the ghost cells carry the values that
// make the face fluxes on the boundary equal to the prescribed sediment fluxes,
// so the kernels read their five-point neighbourhoods without branches.
// Corner ghosts are never read by a five-point stencil.
//
// Rows are padded so that interior cell i = 0 of every row sits on a 128-byte
// boundary (x0 elements into the row) and the pitch is a multiple of 32
// elements: a warp reading 32 consecutive interior cells touches whole lines.
#include <cstddef>
#include <cstdint>

#include "core/hd.hpp"

namespace ws {

struct SedimentLayout {
  int nx = 0, ny = 0;   // interior cells
  int x0 = 0;           // offset of interior i = 0 within a row (elements), >= 1 for the ghost
  int64_t pitch = 0;    // elements per row
  int64_t total = 0;    // elements of the padded array: pitch * (ny + 2)

  // i in [-1, nx], j in [-1, ny]: -1 and nx/ny are the ghost layer.
  WS_HD int64_t index(int i, int j) const { return (int64_t)(j + 1) * pitch + (x0 + i); }
  int64_t interior_points() const { return (int64_t)nx * ny; }
  size_t bytes(int element_bytes) const { return (size_t)total * (size_t)element_bytes; }
};

inline SedimentLayout make_sediment_layout(int nx, int ny, int elem_bytes) {
  SedimentLayout L;
  L.nx = nx;
  L.ny = ny;
  L.x0 = 128 / elem_bytes;  // 32 floats or 16 doubles: >= 1 ghost, keeps i = 0 aligned
  const int64_t row = (int64_t)L.x0 + nx + 1;
  L.pitch = ((row + 31) / 32) * 32;
  L.total = L.pitch * (ny + 2);
  return L;
}

}  // namespace ws
