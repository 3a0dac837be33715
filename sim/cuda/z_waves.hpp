#pragma once
// The bound on LaunchOptions::z_waves (kernel_registry.hpp), in a header without CUDA's so
// that the autotune cache's parser (built for the fuzz targets without the toolkit) can
// check a cached value against it.

namespace ws {

// The largest number of waves of resident blocks a whole-step kernel's z chunks may aim at.
constexpr int kMaxZWaves = 64;

}  // namespace ws
