#pragma once
// A device slab's slice points packed on its own GPU (the order of pack_slab_slices,
// slice_gather.hpp) into one contiguous buffer, and scattered from there into a grid on
// the display's GPU: the display's view of a decomposed grid then stays on a device, one
// copy per slab, and the views take it as they take one GPU's field. A host copy of the
// grid would cost a cache miss per value of the column through x = i (one on every row
// of every plane), once written and once read by the views.
#include <cuda_runtime.h>

#include "decomp/slice_gather.hpp"

namespace ws {

// Queues on `stream` (of the field's device) a kernel that writes slab `s`'s
// slab_slice_values(f.layout, s, at) slice points, of the field's type, to `dst`
// (device memory of that device).
void pack_slab_slices_on_device(const FieldView& f, const Slab& s, const SliceAt& at, void* dst,
                                cudaStream_t stream);

// The inverse, into the grid: queues on `stream` (of the device that holds `grid` and
// `packed`) a kernel that writes slab `s`'s packed slice points into the grid's padded
// array of `precision` (layout `grid_layout`), where unpack_slab_slices puts them.
void unpack_slab_slices_on_device(const void* packed, const FieldLayout& grid_layout, const Slab& s,
                                  const SliceAt& at, Precision precision, void* grid, cudaStream_t stream);

}  // namespace ws
