#pragma once
// The display's view of a decomposed grid: only the points of the three slices through
// (i, j, k) travel, not the whole grid. Per slab, packed in this order: plane k when the
// slab owns it, row j of each of its interior planes, column i of each of its interior
// planes (halo rows included: the fixed boundary's zeros). Slabs share the grid's pitch
// and plane (slab_plan.hpp), so a slab's interior plane kk is the grid's plane z0 + kk.
#include <cstddef>
#include <vector>

#include "decomp/slab_plan.hpp"
#include "wave/wave_solver.hpp"

namespace ws {

struct SliceAt {
  int i = 0, j = 0, k = 0;
};

// The slice point at (i, j, k) clamped into the grid's interior.
SliceAt clamp_slice(const FieldLayout& grid, SliceAt at);

// Number of values a slab packs.
size_t slab_slice_values(const FieldLayout& grid, const Slab& s, const SliceAt& at);

// Appends slab `s`'s slice points, read from its own field (host or device; a device
// field's stream must be idle), to `out`.
void pack_slab_slices(const FieldView& slab_field, const Slab& s, const SliceAt& at, std::vector<double>& out);

// Writes the values packed for slab `s` (from `in`) into the grid's padded array `grid_out`
// of the grid's precision (float or double, as `precision`); returns the values read.
size_t unpack_slab_slices(const double* in, const FieldLayout& grid, const Slab& s, const SliceAt& at,
                          Precision precision, void* grid_out);

}  // namespace ws
