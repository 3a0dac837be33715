#include "decomp/halo_copy.hpp"

#include <algorithm>
#include <cstdint>

#include "core/cuda_check.hpp"

namespace ws {

namespace {

// 16-byte words when both ends and the length allow (the planes are whole padded rows,
// so they do), single bytes otherwise.
__global__ void copy_words_kernel(uint4* __restrict__ dst, const uint4* __restrict__ src, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    dst[i] = src[i];
}

__global__ void copy_bytes_kernel(unsigned char* __restrict__ dst, const unsigned char* __restrict__ src, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    dst[i] = src[i];
}

}  // namespace

void copy_planes_by_kernel(void* dst, const void* src, size_t bytes, cudaStream_t stream) {
  if (bytes == 0) return;
  constexpr int kThreads = 256;
  const bool words = ((uintptr_t)dst | (uintptr_t)src | bytes) % sizeof(uint4) == 0;
  const size_t n = words ? bytes / sizeof(uint4) : bytes;
  // Enough blocks to keep the stores in flight, few enough to fit beside a running update.
  const unsigned blocks = (unsigned)std::min<size_t>((n + kThreads - 1) / kThreads, 128);
  if (words)
    copy_words_kernel<<<blocks, kThreads, 0, stream>>>((uint4*)dst, (const uint4*)src, n);
  else
    copy_bytes_kernel<<<blocks, kThreads, 0, stream>>>((unsigned char*)dst, (const unsigned char*)src, n);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ws
