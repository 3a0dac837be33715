#include "decomp/halo_planes.hpp"

#include <cstring>

#include "core/cuda_check.hpp"

namespace ws {

void copy_planes(void* dst, int dst_device, const void* src, int src_device, size_t bytes) {
  if (dst_device < 0 && src_device < 0) {
    std::memcpy(dst, src, bytes);
    return;
  }
  // Host staging for MPI: synchronous, the message is posted right after.
  CUDA_CHECK(cudaSetDevice(dst_device >= 0 ? dst_device : src_device));
  CUDA_CHECK(cudaMemcpy(dst, src, bytes, dst_device >= 0 ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost));
}

}  // namespace ws
