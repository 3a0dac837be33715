#pragma once
// The boundary plan on the device: coefficient arrays per boundary node and the
// two small kernels around the interior update (see boundary_plan.hpp).
#include <cuda_runtime.h>

#include "boundary/boundary_plan.hpp"
#include "cuda/device_buffer.hpp"

namespace ws {

template <class T>
class DeviceBoundary {
 public:
  DeviceBoundary() = default;
  DeviceBoundary(const BoundaryPlan& plan, const FieldLayout& layout);

  bool empty() const { return nodes_ == 0 && solids_ == 0; }
  // Kernels launched per step: compute (when there are boundary nodes) and scatter.
  int launches() const { return (nodes_ ? 1 : 0) + (nodes_ + solids_ ? 1 : 0); }
  // Phase 1: new values of the boundary nodes into the side buffer (before the interior kernel).
  void compute(const T* u_cur, const T* u_prev, cudaStream_t s) const;
  // Phase 3: scatter the side buffer and zero the solid nodes (after the interior kernel).
  void scatter(T* u_next, cudaStream_t s) const;

 private:
  FieldLayout layout_;
  size_t nodes_ = 0, solids_ = 0;
  DeviceBuffer<int64_t> node_, solid_;
  DeviceBuffer<uint8_t> mask_, n_fixed_;
  DeviceBuffer<T> cd_, cl_, side_;
};

}  // namespace ws
