#pragma once
// The extra fields an out-of-place multi-step kernel works in
// (KernelVariant::multi_scratch_fields, MultiStepArgs::scratch), for every caller of a
// multi-step launch: the solver, the autotuner and `bench stencils`.
#include "core/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/kernel_registry.hpp"

namespace ws {

// Makes `buf` hold the fields kernel `v` asks for on layout L (none: left as it is),
// zeroed on allocation since the kernel never writes their halo, which it reads as the
// fixed boundary. Returns the pointer to pass as MultiStepArgs::scratch.
template <class T>
T* ensure_multi_scratch(DeviceBuffer<T>& buf, const KernelVariant& v, const FieldLayout& L, cudaStream_t stream) {
  const size_t n = (size_t)v.multi_scratch_fields * (size_t)L.total;
  if (n == 0) return nullptr;
  if (buf.size() < n) {
    buf = DeviceBuffer<T>(n);
    CUDA_CHECK(cudaMemsetAsync(buf.get(), 0, buf.bytes(), stream));
  }
  return buf.get();
}

}  // namespace ws
