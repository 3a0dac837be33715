#pragma once
// Host-side helpers for the kernel launchers: grid-size limits with clear
// errors, block checks, and the occupancy facts the z-streaming launchers use
// to decide how many z chunks to cut a column into.
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "cuda/kernel_registry.hpp"

namespace ws {

// dim3 grid for a launch; throws std::invalid_argument when a dimension
// exceeds what CUDA allows (y and z at most 65535 blocks).
dim3 checked_grid(long long gx, long long gy, long long gz, const std::string& kernel_id);

// Throws std::invalid_argument naming the kernel when a plane of the layout holds more
// elements than an int: for kernels that step through z by an int plane (fewer registers
// than a 64-bit one in their loops).
void check_int_plane(const FieldLayout& L, const std::string& kernel_id);

// Throws std::invalid_argument naming the kernel when the block is smaller than
// `min_x` x `min_y` (e.g. halo-thread blocks need a rim on each side).
void require_block_at_least(const LaunchOptions& o, int min_x, int min_y, const std::string& kernel_id);

// Allows `kernel` more than the default 48 KiB of dynamic shared memory when a
// block needs it (e.g. a 1 x 1024 double block's two tiles); no-op below that. The
// opt-in limit and the attribute are cached per device (and kernel and size), so
// launchers may call it on every step.
// Throws std::invalid_argument when the device cannot give that much.
void allow_dynamic_smem(const void* kernel, size_t bytes, const std::string& kernel_id);

// Multiprocessors of the current device (cached per device).
int device_sm_count();

// Resident blocks per multiprocessor for `kernel` at this block size and
// dynamic shared memory (cached; at least 1).
int resident_blocks_per_sm(const void* kernel, int threads, size_t dynamic_smem_bytes);

// Asks for the smallest shared-memory carveout that holds `blocks` blocks of
// `dynamic_smem_bytes` each, so that the rest of the SM's unified memory serves as
// L1 and no more blocks than that are resident (the driver rounds the request up to
// a carveout the device offers). Cached per device, kernel and size.
void set_carveout_for_blocks(const void* kernel, size_t dynamic_smem_bytes, int blocks);

// How many z chunks a column of `nz` planes is cut into so that `xy_blocks`
// blocks per chunk fill the device for about `target_waves` waves, with no
// chunk shorter than `min_planes` (each chunk re-reads the two planes that
// bound it, so short chunks cost bandwidth).
int z_chunks_for(long long xy_blocks, int resident_blocks, int nz, int target_waves, int min_planes);

}  // namespace ws
