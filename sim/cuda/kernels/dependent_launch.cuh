#pragma once
// Programmatic dependent launch (sm_90 and later). A kernel launched with
// cudaLaunchAttributeProgrammaticStreamSerialization may start once every block of the
// kernel before it on the stream has called pdl_launch_dependents (or exited): its blocks
// are dispatched onto the SMs the earlier kernel's tail leaves idle and do their set-up
// there instead of after a launch gap. Before it reads or writes anything the earlier
// kernels touch it calls pdl_wait, which returns once the kernel before it has completed
// with its writes visible; since every kernel of such a chain waits before it completes,
// all earlier kernels have completed too, and the chain keeps the order of ordinary
// launches. Without the attribute (or before sm_90) both calls do nothing.
#include <cuda_runtime.h>

#include <utility>

#include "core/cuda_check.hpp"

namespace ws {

__device__ __forceinline__ void pdl_launch_dependents() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

__device__ __forceinline__ void pdl_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// `kernel` launched on `stream`, as a programmatic dependent of the kernel before it when
// `dependent` (it must then call pdl_wait before touching what that kernel, or any before
// it, touches).
template <class... P, class... A>
void launch_maybe_dependent(bool dependent, void (*kernel)(P...), dim3 grid, dim3 block, size_t smem,
                            cudaStream_t stream, A&&... args) {
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr[0].val.programmaticStreamSerializationAllowed = 1;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cfg.attrs = attr;
  cfg.numAttrs = dependent ? 1 : 0;
  CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel, std::forward<A>(args)...));
}

template <class... P, class... A>
void launch_dependent(void (*kernel)(P...), dim3 grid, dim3 block, size_t smem, cudaStream_t stream, A&&... args) {
  launch_maybe_dependent(true, kernel, grid, block, smem, stream, std::forward<A>(args)...);
}

}  // namespace ws
