#pragma once
// Launch helpers shared by the large-stencil kernel families (KernelA, KernelB,
// register queue, pencils, compact tiled). Namespace ws::big keeps them apart
// from the 7-point families' helpers.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/launch_geometry.hpp"

namespace ws::big {

// Multiprocessors of the current device (queried once per device id).
inline int sm_count() { return device_sm_count(); }

// The z-streaming kernels (register queue, ring of planes) give each block a
// column of planes. A 512^2 xy extent already yields ~1000 blocks, but a small
// grid would leave most SMs idle, so the z range is cut into chunks until there
// are ~8 blocks per SM. Each chunk re-reads 2R halo planes, so a chunk is kept
// at least `min_planes` long (the re-read overhead stays below 2R/min_planes).
// Returns the number of planes per chunk.
inline int z_chunk_planes(int nz, long long xy_blocks, int min_planes) {
  const long long want_blocks = 8LL * sm_count();
  long long chunks = (want_blocks + xy_blocks - 1) / std::max(1LL, xy_blocks);
  chunks = std::max(1LL, std::min<long long>(chunks, (nz + min_planes - 1) / min_planes));
  chunks = std::min<long long>(chunks, 65535);
  return (int)((nz + chunks - 1) / chunks);
}

// Dynamic shared memory above 48 KiB needs an explicit opt-in per kernel; throws
// std::invalid_argument with the numbers when even the opt-in limit is too small.
// The limit and the attribute are cached (allow_dynamic_smem), so launchers call
// this on every step at no driver cost.
template <class Kernel>
void set_dynamic_smem(Kernel kernel, size_t bytes, const char* kernel_name) {
  allow_dynamic_smem(reinterpret_cast<const void*>(kernel), bytes, kernel_name);
}

// The common preconditions of every launch: halo >= radius, block within the
// kernel's __launch_bounds__, grid within CUDA's limits.
inline void check_halo_and_block(const FieldLayout& L, int radius, const BlockShape& b, const char* kernel_name,
                                 int max_threads) {
  if (L.halo < radius)
    throw std::invalid_argument(std::string(kernel_name) + ": layout halo " + std::to_string(L.halo) +
                                " is smaller than the stencil radius " + std::to_string(radius));
  if (b.x < 1 || b.y < 1 || b.z < 1 || b.threads() > max_threads)
    throw std::invalid_argument(std::string(kernel_name) + ": block " + std::to_string(b.x) + "x" +
                                std::to_string(b.y) + "x" + std::to_string(b.z) + " is not allowed (each side >= 1, at most " +
                                std::to_string(max_threads) + " threads)");
}

inline dim3 grid3(long long gx, long long gy, long long gz, const char* kernel_name) {
  if (gx < 1 || gy < 1 || gz < 1 || gx > 2147483647LL || gy > 65535 || gz > 65535)
    throw std::invalid_argument(std::string(kernel_name) + ": launch grid " + std::to_string(gx) + "x" +
                                std::to_string(gy) + "x" + std::to_string(gz) +
                                " blocks is outside CUDA's limits (y and z <= 65535); use a larger block");
  return dim3((unsigned)gx, (unsigned)gy, (unsigned)gz);
}

inline long long cdiv(long long a, long long b) { return (a + b - 1) / b; }

// FNV-1a over the stencil's points and the numbers the uploaded tables depend on:
// the constant-memory tables are re-uploaded only when this key changes.
inline uint64_t stencil_upload_key(const Stencil& s, double lambda2, int64_t a, int64_t b, int64_t c) {
  uint64_t h = 1469598103934665603ULL;
  auto mix = [&](const void* p, size_t n) {
    const unsigned char* q = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) h = (h ^ q[i]) * 1099511628211ULL;
  };
  for (const auto& p : s.points) {
    const int d[3] = {p.dx, p.dy, p.dz};
    mix(d, sizeof d);
    mix(&p.w, sizeof p.w);
  }
  const int64_t extra[3] = {a, b, c};
  mix(&lambda2, sizeof lambda2);
  mix(extra, sizeof extra);
  const size_t n = s.points.size();
  mix(&n, sizeof n);
  return h;
}

// Dynamic shared memory typed per precision (a typed extern __shared__ array
// would clash between the float and double instantiations).
template <class T>
__device__ __forceinline__ T* dyn_smem() {
  extern __shared__ __align__(16) unsigned char ws_big_smem[];
  return reinterpret_cast<T*>(ws_big_smem);
}

}  // namespace ws::big
