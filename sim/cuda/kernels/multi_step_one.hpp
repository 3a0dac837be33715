#pragma once
// The registry's per-step interface (LaunchFn) for a kernel whose launch runs many whole
// steps (MultiLaunchFn): one bare step (no walls, sources or receivers) through it.
#include <cuda_runtime.h>

#include "cuda/kernel_registry.hpp"

namespace ws {

template <class T, int (*Multi)(const MultiStepArgs<T>&, const LaunchOptions&, cudaStream_t)>
void one_step_through_multi(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  (void)Multi(MultiStepArgs<T>{const_cast<T*>(a.u_cur), a.u_next, 1, a.layout, a.stencil, a.lambda2, nullptr, nullptr},
              o, stream);
}

}  // namespace ws
