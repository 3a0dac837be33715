#pragma once
// The ghost layer that imposes the prescribed boundary fluxes, one perimeter
// cell at a time (shared by the CPU reference and the CUDA ghost kernel).
// Perimeter index t runs over west (ny cells), east (ny), south (nx), north (nx).
#include <cstdint>

#include "core/hd.hpp"
#include "sediment/sediment_layout.hpp"
#include "sediment/sediment_scheme.hpp"

namespace ws {

// Boundary data in the working precision: q[t] is the flux into the basin per
// metre of boundary (m^2/s) at perimeter cell t; s_in the incoming sand fraction per side.
template <class T>
struct BoundaryData {
  const T* q_m2_s = nullptr;  // 2 (nx + ny) values, host or device
  T s_in[4] = {0, 0, 0, 0};   // west, east, south, north
  T dx_m = 0, dy_m = 0;
};

WS_HD int perimeter_cells(const SedimentLayout& L) { return 2 * (L.nx + L.ny); }

// Side (0 west, 1 east, 2 south, 3 north), edge and ghost indices of perimeter cell t.
WS_HD void perimeter_cell(const SedimentLayout& L, int t, int& side, int64_t& edge, int64_t& ghost) {
  if (t < L.ny) {
    side = 0;
    edge = L.index(0, t);
    ghost = L.index(-1, t);
  } else if (t < 2 * L.ny) {
    side = 1;
    edge = L.index(L.nx - 1, t - L.ny);
    ghost = L.index(L.nx, t - L.ny);
  } else if (t < 2 * L.ny + L.nx) {
    side = 2;
    edge = L.index(t - 2 * L.ny, 0);
    ghost = L.index(t - 2 * L.ny, -1);
  } else {
    side = 3;
    edge = L.index(t - 2 * L.ny - L.nx, L.ny - 1);
    ghost = L.index(t - 2 * L.ny - L.nx, L.ny);
  }
}

// Writes the ghost h (and, when write_s, the ghost s) of perimeter cell t from
// the edge cell's h and s. Before the h-kernel: h = h^l, s = s^l, write_s;
// before the s-kernel: h = h^{l+1}, s = s^l (ghost s already written).
template <class T>
WS_HD void fill_ghost(T* h, T* s, const T* alpha, const T* beta, const SedimentLayout& L,
                      const SedimentCoeffs<T>& k, const BoundaryData<T>& b, int t, bool write_s) {
  int side;
  int64_t e, g;
  perimeter_cell(L, t, side, e, g);
  const T d = side < 2 ? b.dx_m : b.dy_m;
  T hg, sg;
  ghost_values(k, h[e], s[e], alpha[e], beta[e], b.q_m2_s[t], b.s_in[side], d, hg, sg);
  h[g] = hg;
  if (write_s) s[g] = sg;
}

}  // namespace ws
