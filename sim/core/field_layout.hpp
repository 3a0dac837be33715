#pragma once
// Memory layout of one pressure grid.
//
// The nx*ny*nz interior points are the ones the scheme updates. Around them lies
// a halo of `halo` points per side (>= the stencil radius) that holds the fixed
// (Dirichlet, zero) boundary of Webb's scheme: it is never written by any kernel,
// so the update needs no boundary branches for neighbour reads.
//
// Rows are padded so that the first interior point of every row (i = 0) sits on
// a 128-byte boundary (x0 elements into the row) and the row pitch is a multiple
// of 32 elements: a warp reading 32 consecutive interior points touches whole
// cache lines, which is what the bandwidth roofline assumes.
#include <cstddef>
#include <cstdint>

#include "core/hd.hpp"

namespace ws {

struct FieldLayout {
  int nx = 0, ny = 0, nz = 0;  // interior points
  int halo = 1;                // fixed boundary layers on each side
  int x0 = 0;                  // offset of interior i=0 within a row (elements)
  int64_t pitch = 0;           // elements per row (x)
  int64_t plane = 0;           // elements per xy plane = pitch * (ny + 2*halo)
  int64_t total = 0;           // elements of the whole padded array

  // Linear index of interior coordinates (i,j,k); halo cells have i,j,k in [-halo, 0) or [n, n+halo).
  WS_HD int64_t index(int i, int j, int k) const {
    return (int64_t)(k + halo) * plane + (int64_t)(j + halo) * pitch + (x0 + i);
  }
  int64_t interior_points() const { return (int64_t)nx * ny * nz; }
  // The coordinates of linear index q (the inverse of index(); halo and row padding
  // give coordinates outside [0, n)).
  struct Point {
    int i, j, k;
  };
  WS_HD Point point(int64_t q) const {
    const int64_t in_plane = q % plane;
    return {(int)(in_plane % pitch) - x0, (int)(in_plane / pitch) - halo, (int)(q / plane) - halo};
  }
  size_t bytes(int element_bytes) const { return (size_t)total * (size_t)element_bytes; }
};

// elem_bytes selects the alignment: 128 bytes worth of elements.
inline FieldLayout make_layout(int nx, int ny, int nz, int halo, int elem_bytes) {
  FieldLayout L;
  L.nx = nx;
  L.ny = ny;
  L.nz = nz;
  L.halo = halo;
  const int align = 128 / elem_bytes;  // 32 floats or 16 doubles
  L.x0 = ((halo + align - 1) / align) * align;
  const int64_t row = (int64_t)L.x0 + nx + halo;
  const int64_t row_align = 32;
  L.pitch = ((row + row_align - 1) / row_align) * row_align;
  L.plane = L.pitch * (ny + 2 * halo);
  L.total = L.plane * (nz + 2 * halo);
  return L;
}

}  // namespace ws
