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

// The same reduction queued without waiting: the sum and the peak land in `host_out`
// (two doubles of pinned host memory) once the stream has passed this point;
// field_stats_from() reads them then.
template <class T>
void queue_field_stats(const T* u, const FieldLayout& L, double* scratch, double* host_out, cudaStream_t stream);
FieldStats field_stats_from(const double* sum_and_peak, const FieldLayout& L);

}  // namespace ws
