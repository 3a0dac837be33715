// libFuzzer: the autotune cache file (sim/cuda/autotune_cache.hpp) as `--kernel
// auto` reads it from the user's cache folder. Refusals are std::runtime_error
// (the file is then ignored with a message and rewritten); anything else that
// escapes, a crash, a leak or undefined behaviour is a finding, and so is a
// cache that parses but does not survive its own dump.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "cuda/autotune_cache.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ws::AutotuneCache c;
  try {
    c = ws::AutotuneCache::parse(std::string(reinterpret_cast<const char*>(data), size));
  } catch (const std::runtime_error&) {
    return 0;
  }
  const ws::AutotuneCache back = ws::AutotuneCache::parse(c.dump());
  if (back.identity != c.identity || back.entries.size() != c.entries.size()) std::abort();
  for (const auto& [key, e] : c.entries) {
    const auto it = back.entries.find(key);
    if (it == back.entries.end() || it->second.kernel != e.kernel || it->second.block != e.block ||
        it->second.seconds_per_step != e.seconds_per_step)
      std::abort();
  }
  return 0;
}
