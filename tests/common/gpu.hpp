#pragma once
// GPU tests skip visibly, with the reason, when no usable CUDA device exists.
#include <gtest/gtest.h>

#include <algorithm>
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

}  // namespace ws::testing
