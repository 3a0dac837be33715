#pragma once
// `--kernel auto`: the fastest registered kernel and block for a scene's own grid,
// stencil and precision, found by timing the candidates (at most about two seconds
// in all) and cached per device, driver and build in
// $XDG_CACHE_HOME/wavescope/autotune.json (else ~/.cache/wavescope/autotune.json).
//
// The cache logic is host-only and takes the measurement as a function, so that
// it is tested without a GPU; sim/cuda/autotune_device.cu measures on the device.
// A cache written for another device, driver or build is discarded as a whole; a
// file that does not parse is ignored with a message and rewritten.
#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "core/precision.hpp"
#include "cuda/autotune_cache.hpp"
#include "cuda/kernel_registry.hpp"

namespace ws {

struct TuneCandidate {
  std::string kernel;
  BlockShape block;
  int z_waves = 0;  // LaunchOptions::z_waves (0: the kernel's rule)
};

struct TuneChoice {
  std::string kernel;
  BlockShape block;
  int z_waves = 0;
  double seconds_per_step = 0.0;
  bool from_cache = false;
  int measured = 0;      // candidates timed (0 when cached)
  double tune_s = 0.0;   // wall time of the tuning (0 when cached)
  // "auto → zstream_vec 64x8" (the panel's and the CLI's line).
  std::string label() const;
};

// Seconds per step of one candidate, measured within about `budget_s`; throws
// (std::exception) when the candidate cannot run or fails its check, with the reason.
using TuneMeasure = std::function<double(const TuneCandidate&, double budget_s)>;

struct AutotuneOptions {
  std::string cache_path;  // "" : default_autotune_cache_path(); "-": no cache file
  bool force = false;      // re-tune even when a cached choice exists (the panel's button)
  double budget_s = 2.0;   // for all candidates together
  std::ostream* log = nullptr;  // messages (corrupt or stale cache, the tuning's outcome)
};

// The cached choice when the cache holds one for this identity and problem (and it is
// still a candidate), else times every candidate with `measure`, caches and returns the
// fastest. Throws std::runtime_error when no candidate ran (with every reason).
TuneChoice autotune(const TuneProblem& problem, const TuneIdentity& identity,
                    const std::vector<TuneCandidate>& candidates, const TuneMeasure& measure,
                    const AutotuneOptions& options);

// The candidates for a stencil and precision: every registered kernel that runs them,
// at its preferred block and, for kernels that take any block, a few common shapes.
std::vector<TuneCandidate> tune_candidates(const Stencil& stencil, Precision precision);

// This process's device (name), driver (version) and build (a hash of the kernels' sources).
TuneIdentity current_tune_identity();

// Tunes on the current CUDA device (autotune_device.cu): each candidate is first checked
// bit for bit against the kernel's preferred block on a random field of the problem's
// grid (a block that changes the arithmetic is refused), then timed.
TuneChoice autotune_on_device(const Stencil& stencil, Precision precision, int nx, int ny, int nz,
                              const AutotuneOptions& options);

// The cached choices valid for this device, driver and build, by problem key (for
// `wavescope kernels`); `note` says where they come from or why there are none.
std::map<std::string, AutotuneCacheEntry> cached_auto_choices(std::string& note,
                                                               const std::string& cache_path = "");

}  // namespace ws
