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

void enable_peer_access(const std::vector<int>& devices) {
  for (int a : devices)
    for (int b : devices) {
      if (a == b) continue;
      int can = 0;
      CUDA_CHECK(cudaDeviceCanAccessPeer(&can, a, b));
      if (!can) continue;  // cudaMemcpyPeerAsync then goes through the host
      CUDA_CHECK(cudaSetDevice(a));
      const cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
      if (e == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError();
      else CUDA_CHECK(e);
    }
}

}  // namespace ws
