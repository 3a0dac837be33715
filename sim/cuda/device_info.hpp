#pragma once
// Whether a usable CUDA device is present, and what it is; never throws, so the
// app can fall back to the CPU solver and say why.
#include <cstddef>
#include <string>

namespace ws {

struct CudaDeviceInfo {
  bool usable = false;
  std::string reason;  // why not, when !usable
  std::string name;
  int cc_major = 0, cc_minor = 0;
  size_t total_bytes = 0, free_bytes = 0;
};

CudaDeviceInfo query_cuda_device();

// Throws GridTooLargeError (core/grid_too_large.hpp) when two grids of `elements`
// elements of `elem_bytes` do not fit into free device memory; the message gives the
// largest grid that fits. WS_TEST_DEVICE_MEMORY_BYTES caps the free memory (tests).
void check_grid_fits(long long nx, long long ny, long long nz, size_t total_elements, int elem_bytes);

}  // namespace ws
