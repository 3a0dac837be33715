#pragma once
// GPU tests skip visibly, with the reason, when no usable CUDA device exists.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cuda/device_info.hpp"

#define WS_REQUIRE_GPU()                                                      \
  do {                                                                        \
    const ::ws::CudaDeviceInfo ws_dev_ = ::ws::query_cuda_device();           \
    if (!ws_dev_.usable) GTEST_SKIP() << "no GPU: " << ws_dev_.reason;        \
  } while (0)

namespace ws::testing {

// The step count of a long GPU run: n, or at most WS_TEST_MAX_STEPS (>= 1) when that is
// set. The compute-sanitizer runs set it (scripts/gpu-session sanitize-suites): with
// every access checked, 10^5 steps take hours, and a short run goes through the same
// kernels, launches and graphs. The checks stay those of the full run (a bit-for-bit
// constant, the CPU reference run for as many steps).
inline long long long_run_steps(long long n) {
  const char* e = std::getenv("WS_TEST_MAX_STEPS");
  if (!e || !*e) return n;
  const long long cap = std::atoll(e);
  return cap >= 1 ? std::min(n, cap) : n;
}

// Kernel shards: WS_TEST_KERNEL_SHARD="i/n" (0 <= i < n) keeps, of the kernels a test
// loops over, those whose index in the loop is i modulo n. Under compute-sanitizer
// memcheck one case that runs twenty kernels takes minutes; n processes, each with its
// shard of every case, run side by side (scripts/gpu-session sanitize-suites). Unset,
// malformed or n < 2: every kernel.
struct KernelShard {
  int index = 0, count = 1;
  bool active() const { return count > 1; }
  bool keeps(int kernel_index) const { return kernel_index % count == index; }
};

inline KernelShard kernel_shard() {
  KernelShard s;
  const char* e = std::getenv("WS_TEST_KERNEL_SHARD");
  int i = 0, n = 0;
  if (e && std::sscanf(e, "%d/%d", &i, &n) == 2 && n >= 2 && i >= 0 && i < n) s.index = i, s.count = n;
  return s;
}

}  // namespace ws::testing
