#pragma once
// LaunchOptions::z_waves (kernel_registry.hpp): its bound, its check and its text, in a
// header without CUDA's so that the autotune cache's parser (built for the fuzz targets
// without the toolkit) can use them too.
#include <string>

namespace ws {

// The largest number of waves of resident blocks a whole-step kernel's z chunks may aim at.
constexpr int kMaxZWaves = 64;

// "" for an allowed value (0: the kernel's own rule, or 1..kMaxZWaves), else why not.
inline std::string z_waves_error(int z_waves) {
  if (z_waves >= 0 && z_waves <= kMaxZWaves) return "";
  return "z_waves " + std::to_string(z_waves) + " is not allowed: 0 (the kernel's rule) or 1.." +
         std::to_string(kMaxZWaves);
}

// ", 2 waves" for a launch whose z chunks aim at 2 waves; "" for the kernel's own rule.
inline std::string z_waves_text(int z_waves) {
  return z_waves > 0 ? ", " + std::to_string(z_waves) + " waves" : "";
}

}  // namespace ws
