#pragma once
// Copying the three slices out of a padded field into a packed float array
// (XY, then XZ, then YZ, each row-major in u), with the largest |u| seen.
// The device version runs on the solver's stream and writes straight into a
// mapped GL buffer; the host version serves the CPU solver. No GL here.
#include <cuda_runtime.h>

#include <array>
#include <cstdint>

#include "slice_geometry.hpp"
#include "wave/wave_solver.hpp"

namespace ws::render {

struct SliceSet {
  std::array<SlicePlane, kSliceCount> planes;
  std::array<int64_t, kSliceCount> offset{};  // first texel of each slice in the packed array
  int64_t total = 0;
};

SliceSet make_slice_set(const FieldLayout& layout, const SlicePositions& pos);

// Device field -> device `out` (packed floats, SliceSet::total of them).
// `max_abs_bits` (one device uint32) receives the float bits of max |u| via
// atomicMax: for non-negative floats the bit pattern orders like the value.
// The caller zeroes it first (this function does so on `stream`).
void extract_slices_device(const FieldView& field, const SliceSet& set, float* out, uint32_t* max_abs_bits,
                           cudaStream_t stream);

// Host field -> host `out`; returns max |u|.
float extract_slices_host(const FieldView& field, const SliceSet& set, float* out);

}  // namespace ws::render
