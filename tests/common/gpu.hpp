#pragma once
// GPU tests skip visibly, with the reason, when no usable CUDA device exists.
#include <gtest/gtest.h>

#include "cuda/device_info.hpp"

#define WS_REQUIRE_GPU()                                                      \
  do {                                                                        \
    const ::ws::CudaDeviceInfo ws_dev_ = ::ws::query_cuda_device();           \
    if (!ws_dev_.usable) GTEST_SKIP() << "no GPU: " << ws_dev_.reason;        \
  } while (0)
