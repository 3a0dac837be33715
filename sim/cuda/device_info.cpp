#include "cuda/device_info.hpp"

#include "core/grid_too_large.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace ws {

CudaDeviceInfo query_cuda_device() {
  CudaDeviceInfo info;
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    info.reason = std::string("no usable CUDA driver/device: ") + cudaGetErrorString(e);
    cudaGetLastError();  // clear the sticky-free error so later calls are not confused
    return info;
  }
  if (count == 0) {
    info.reason = "no CUDA device found";
    return info;
  }
  cudaDeviceProp prop{};
  e = cudaGetDeviceProperties(&prop, 0);
  if (e != cudaSuccess) {
    info.reason = std::string("cannot query CUDA device 0: ") + cudaGetErrorString(e);
    return info;
  }
  info.name = prop.name;
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  e = cudaMemGetInfo(&info.free_bytes, &info.total_bytes);
  if (e != cudaSuccess) {
    info.reason = std::string("cannot create a CUDA context: ") + cudaGetErrorString(e);
    return info;
  }
  info.usable = true;
  return info;
}

void check_grid_fits(long long nx, long long ny, long long nz, size_t total_elements, int elem_bytes) {
  size_t free_b = 0, total_b = 0;
  if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) return;  // the allocation itself will report
  // Test hook: a smaller device, so that a switch or load that runs out of memory can be tested.
  if (const char* cap = std::getenv("WS_TEST_DEVICE_MEMORY_BYTES"))
    free_b = std::min<size_t>(free_b, std::strtoull(cap, nullptr, 10));
  const double need = 2.0 * (double)total_elements * elem_bytes;
  const double budget = 0.95 * (double)free_b - 64.0 * 1024 * 1024;  // room for receivers, slices, context
  if (need <= budget) return;
  // Same aspect ratio, scaled down: the padded array grows like the interior.
  const double scale = budget > 0.0 ? std::cbrt(budget / need) : 0.0;
  std::ostringstream os;
  os << "grid " << nx << "x" << ny << "x" << nz << " needs " << need / (1 << 30) << " GiB of GPU memory (two "
     << elem_bytes * 8 << "-bit grids) but only " << std::max(0.0, budget) / (1 << 30)
     << " GiB are free; the largest grid of this shape that fits is about " << (long long)(nx * scale) << "x"
     << (long long)(ny * scale) << "x" << (long long)(nz * scale)
     << " points (lower the sample rate, shrink the room, or use float)";
  throw GridTooLargeError(os.str());
}

}  // namespace ws
