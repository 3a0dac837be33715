// The list of kernel families beyond the first (3-D tiling). A new family adds
// one call here and one file under sim/cuda/kernels/.
#include "cuda/kernel_registry.hpp"

namespace ws {

void register_webb_shared_kernels(KernelRegistry& r);     // webb_shared.cu
void register_webb_slicing_kernels(KernelRegistry& r);    // webb_slicing.cu
void register_fdtd3d_kernels(KernelRegistry& r);          // register_queue.cu
void register_zstream_cached_kernels(KernelRegistry& r);  // zstream_cached.cu
void register_zstream_vec_kernels(KernelRegistry& r);     // zstream_vec.cu
void register_halo_threads_kernels(KernelRegistry& r);   // halo_threads.cu
void register_bigstencil_kernels(KernelRegistry& r);     // bigstencil_families.cpp
void register_persistent_l2_kernels(KernelRegistry& r);  // persistent_l2.cu
void register_temporal_2step_kernels(KernelRegistry& r);  // temporal_2step.cu
void register_temporal_2step_vec_kernels(KernelRegistry& r);  // temporal_2step_vec.cu
void register_zstream_fused_kernels(KernelRegistry& r);   // zstream_fused.cu
void register_zstream_fused_vec_kernels(KernelRegistry& r);  // zstream_fused_vec.cu
void register_cluster_onchip_kernels(KernelRegistry& r);  // cluster_onchip.cu
void register_spread_onchip_kernels(KernelRegistry& r);   // spread_onchip.cu
void register_brick_onchip_kernels(KernelRegistry& r);    // brick_onchip.cu

void register_extra_kernel_families(KernelRegistry& r) {
  register_webb_shared_kernels(r);
  register_webb_slicing_kernels(r);
  register_fdtd3d_kernels(r);
  register_zstream_cached_kernels(r);
  register_zstream_vec_kernels(r);
  register_halo_threads_kernels(r);
  register_bigstencil_kernels(r);
  register_persistent_l2_kernels(r);
  register_temporal_2step_kernels(r);
  register_temporal_2step_vec_kernels(r);
  register_zstream_fused_kernels(r);
  register_zstream_fused_vec_kernels(r);
  register_cluster_onchip_kernels(r);
  register_spread_onchip_kernels(r);
  register_brick_onchip_kernels(r);
}

}  // namespace ws
