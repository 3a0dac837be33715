#pragma once
// Mean and max |u| of a field's interior on the device, for the watchdog.
#include <cuda_runtime.h>

#include "core/field_layout.hpp"
#include "wave/wave_solver.hpp"

namespace ws {

// Reduces the interior of `u` (layout L) on `stream`; `scratch` is two doubles of
// device memory. Synchronises the stream once.
template <class T>
FieldStats device_field_stats(const T* u, const FieldLayout& L, double* scratch, cudaStream_t stream);

}  // namespace ws
