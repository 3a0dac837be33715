#include "decomp/halo_planes.hpp"

#include <cstring>
#include <mutex>
#include <set>
#include <utility>

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

// Peer access lasts as long as the devices' primary contexts (the process: nothing here
// resets a device), so each ordered pair is enabled once and remembered. Asking again
// would be answered with cudaErrorPeerAccessAlreadyEnabled, which compute-sanitizer
// reports as an API error even where it is expected.
void enable_peer_access(const std::vector<int>& devices) {
  static std::mutex mutex;
  static std::set<std::pair<int, int>> enabled;
  const std::lock_guard<std::mutex> lock(mutex);
  for (int a : devices)
    for (int b : devices) {
      if (a == b || enabled.count({a, b})) continue;
      int can = 0;
      CUDA_CHECK(cudaDeviceCanAccessPeer(&can, a, b));
      if (!can) continue;  // cudaMemcpyPeerAsync then goes through the host
      CUDA_CHECK(cudaSetDevice(a));
      const cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
      if (e == cudaErrorPeerAccessAlreadyEnabled) (void)cudaGetLastError();  // enabled outside this function
      else CUDA_CHECK(e);
      enabled.insert({a, b});
    }
}

}  // namespace ws
