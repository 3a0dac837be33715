#pragma once
// The autotune cache file (sim/cuda/autotune.hpp): which kernel and block won on
// which grid, for one device, driver and build. Host-only and free of CUDA, so
// that the parser is fuzzed (tests/fuzz) and tested without a GPU.
//
//   {"version": 1, "device": "NVIDIA H200", "driver": "...", "build": "...",
//    "entries": {"7pt/float/160x180x130": {"kernel": "zstream_vec", "block": [64, 8, 1],
//                                          "seconds_per_step": 2.1e-05}}}
#include <array>
#include <map>
#include <string>

#include "core/precision.hpp"

namespace ws {

// What is tuned for: the grid and the arithmetic.
struct TuneProblem {
  std::string stencil;
  Precision precision = Precision::Float;
  int nx = 0, ny = 0, nz = 0;
};

// What a cached choice is valid for.
struct TuneIdentity {
  std::string device, driver, build;
  bool operator==(const TuneIdentity& o) const {
    return device == o.device && driver == o.driver && build == o.build;
  }
  bool operator!=(const TuneIdentity& o) const { return !(*this == o); }
};

struct AutotuneCacheEntry {
  std::string kernel;
  std::array<int, 3> block{1, 1, 1};
  double seconds_per_step = 0.0;
  int z_waves = 0;  // LaunchOptions::z_waves; "z_waves" in the file, absent for 0
};

struct AutotuneCache {
  static constexpr int kVersion = 1;
  TuneIdentity identity;
  std::map<std::string, AutotuneCacheEntry> entries;  // by problem_key()

  // Throws std::runtime_error saying what is wrong with the text (not JSON, another
  // version, a missing or mistyped field, a block side outside 1..1024).
  static AutotuneCache parse(const std::string& text);
  std::string dump() const;
};

std::string problem_key(const TuneProblem& p);  // "7pt/float/160x180x130"

// The cache file at `path` parsed into `out`. False with `why` empty when there is no
// such file; false with `why` saying what is wrong when it is not a valid cache.
bool read_cache_file(const std::string& path, AutotuneCache& out, std::string& why);

// $XDG_CACHE_HOME/wavescope/autotune.json when XDG_CACHE_HOME is an absolute path,
// else $HOME/.cache/wavescope/autotune.json; "" when neither is set.
std::string default_autotune_cache_path();

}  // namespace ws
