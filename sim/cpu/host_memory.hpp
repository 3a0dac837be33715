#pragma once
// Whether a grid fits into host memory, asked before allocating it.
//
// A std::vector of many GiB does not fail cleanly on Linux: with overcommit the
// allocation succeeds and zero-filling the pages brings the OOM killer, or it
// throws std::bad_alloc with nothing to say which grid or how much. So the CPU
// solver's grids are checked first against what the process may still use: the
// kernel's MemAvailable, the address-space limit (RLIMIT_AS, `ulimit -v`) less
// what is mapped, and the cgroup's memory.max less its use (a container's limit).
#include <cstddef>
#include <string>

#include "core/grid_too_large.hpp"

namespace ws {

struct HostMemory {
  double available_bytes = 0.0;  // the smallest of the limits below that could be read
  std::string limited_by;        // "MemAvailable", "RLIMIT_AS", "cgroup memory.max"
};

HostMemory available_host_memory();

// Throws GridTooLargeError when two grids of `total_elements` elements of `elem_bytes`
// bytes plus `extra_bytes` (a switch's temporary copies) exceed the available memory;
// the message names the grid, what it needs, what is available and the largest grid
// of the same shape that fits. WS_TEST_HOST_MEMORY_BYTES, when set, stands in for the
// available memory (tests).
void check_host_grid_fits(long long nx, long long ny, long long nz, size_t total_elements, int elem_bytes,
                          double extra_bytes = 0.0);

}  // namespace ws
