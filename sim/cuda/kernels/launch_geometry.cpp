#include "cuda/kernels/launch_geometry.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "core/cuda_check.hpp"

namespace ws {

dim3 checked_grid(long long gx, long long gy, long long gz, const std::string& kernel_id) {
  if (gx < 1 || gy < 1 || gz < 1 || gx > 2147483647LL || gy > 65535 || gz > 65535)
    throw std::invalid_argument("kernel '" + kernel_id + "': launch grid " + std::to_string(gx) + "x" +
                                std::to_string(gy) + "x" + std::to_string(gz) +
                                " blocks is outside CUDA's limits (x < 2^31, y and z <= 65535); use a larger block");
  return dim3((unsigned)gx, (unsigned)gy, (unsigned)gz);
}

void check_int_plane(const FieldLayout& L, const std::string& kernel_id) {
  if (L.plane > 2147483647LL)
    throw std::invalid_argument("kernel '" + kernel_id + "': a plane of " + std::to_string(L.plane) +
                                " elements; it allows at most 2^31 - 1 (use a smaller grid in x and y)");
}

void require_block_at_least(const LaunchOptions& o, int min_x, int min_y, const std::string& kernel_id) {
  if (o.block.x < min_x || o.block.y < min_y)
    throw std::invalid_argument("kernel '" + kernel_id + "': block " + std::to_string(o.block.x) + "x" +
                                std::to_string(o.block.y) + " is too small; it needs at least " +
                                std::to_string(min_x) + "x" + std::to_string(min_y) + " threads");
}

void allow_dynamic_smem(const void* kernel, size_t bytes, const std::string& kernel_id) {
  constexpr size_t kDefaultLimit = 48 * 1024;
  if (bytes <= kDefaultLimit) return;
  // Launchers call this on every step: the opt-in limit is queried once per device and
  // the attribute raised once per (device, kernel) and size, not per step.
  static std::mutex m;
  static std::map<int, int> optin_of;                          // device -> opt-in limit
  static std::map<std::pair<int, const void*>, size_t> raised;  // (device, kernel) -> bytes set
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  std::lock_guard<std::mutex> lock(m);
  auto it = optin_of.find(dev);
  if (it == optin_of.end()) {
    int optin = 0;
    CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    it = optin_of.emplace(dev, optin).first;
  }
  if (bytes > (size_t)it->second)
    throw std::invalid_argument("kernel '" + kernel_id + "': this block needs " + std::to_string(bytes) +
                                " bytes of shared memory; the device allows " + std::to_string(it->second) +
                                " per block; use a smaller block");
  size_t& done = raised[{dev, kernel}];
  if (bytes <= done) return;
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
  done = bytes;
}

int device_sm_count() {
  static std::mutex m;
  static std::map<int, int> cache;
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find(dev);
  if (it != cache.end()) return it->second;
  int sms = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  cache[dev] = std::max(1, sms);
  return cache[dev];
}

int resident_blocks_per_sm(const void* kernel, int threads, size_t smem) {
  static std::mutex m;
  static std::map<std::tuple<int, const void*, int, size_t>, int> cache;
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  const auto key = std::make_tuple(dev, kernel, threads, smem);
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  int blocks = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, smem));
  cache[key] = std::max(1, blocks);
  return cache[key];
}

void set_carveout_for_blocks(const void* kernel, size_t smem, int blocks) {
  static std::mutex m;
  static std::set<std::tuple<int, const void*, size_t, int>> done;
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  const auto key = std::make_tuple(dev, kernel, smem, blocks);
  std::lock_guard<std::mutex> lock(m);
  if (done.count(key)) return;
  int per_sm = 0, reserved = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, dev));
  const size_t need = (size_t)std::max(1, blocks) * (smem + (size_t)reserved);
  const int percent = (int)std::min<size_t>(100, (need * 100 + (size_t)per_sm - 1) / (size_t)std::max(1, per_sm));
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout, percent));
  done.insert(key);
}

int z_chunks_for(long long xy_blocks, int resident_blocks, int nz, int target_waves, int min_planes) {
  if (nz <= 0 || xy_blocks <= 0) return 1;
  const long long wanted = (long long)target_waves * std::max(1, resident_blocks);
  long long chunks = (wanted + xy_blocks - 1) / xy_blocks;
  const long long most = std::max(1, nz / std::max(1, min_planes));
  chunks = std::clamp(chunks, 1LL, std::min<long long>(most, 65535));
  return (int)chunks;
}

}  // namespace ws
