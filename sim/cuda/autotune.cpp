#include "cuda/autotune.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <ostream>
#include <stdexcept>

#include "atomic_file.hpp"
#include "cuda/z_waves.hpp"

namespace ws {

namespace {

std::string block_text(const BlockShape& b) {
  std::string s = std::to_string(b.x) + "x" + std::to_string(b.y);
  if (b.z != 1) s += "x" + std::to_string(b.z);
  return s;
}

// The block, and the z-chunk waves where they are not the kernel's own rule.
std::string launch_text(const BlockShape& b, int z_waves) { return block_text(b) + z_waves_text(z_waves); }

// The cache at `path`, or an empty one for `id` (with a message when a file was there
// but could not be used).
AutotuneCache load_cache(const std::string& path, const TuneIdentity& id, std::ostream* log) {
  AutotuneCache fresh;
  fresh.identity = id;
  AutotuneCache c;
  std::string why;
  if (!read_cache_file(path, c, why)) {
    if (!why.empty() && log)
      *log << "autotune: ignoring the cache file '" << path << "' (" << why << "); it will be rewritten\n";
    return fresh;  // no cache yet, or one that cannot be used
  }
  if (c.identity != id) {
    if (log)
      *log << "autotune: the cache file '" << path << "' was written for device '" << c.identity.device
           << "', driver '" << c.identity.driver << "', build '" << c.identity.build << "'; this is device '"
           << id.device << "', driver '" << id.driver << "', build '" << id.build << "': re-tuning\n";
    return fresh;
  }
  return c;
}

void store_cache(const std::string& path, const AutotuneCache& c, std::ostream* log) {
  try {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    util::write_atomically(path, "autotune cache", [&](std::ostream& out) { out << c.dump(); });
  } catch (const std::exception& e) {
    // A cache that cannot be written costs the next run a re-tune, nothing more.
    if (log) *log << "autotune: " << e.what() << " (the choice is not cached)\n";
  }
}

}  // namespace

std::string TuneChoice::label() const { return "auto \u2192 " + kernel + " " + launch_text(block, z_waves); }

TuneChoice autotune(const TuneProblem& problem, const TuneIdentity& identity,
                    const std::vector<TuneCandidate>& candidates, const TuneMeasure& measure,
                    const AutotuneOptions& o) {
  if (candidates.empty())
    throw std::runtime_error("autotune: no registered kernel runs stencil '" + problem.stencil + "' in " +
                             to_string(problem.precision));
  const std::string path = o.cache_path.empty() ? default_autotune_cache_path() : o.cache_path;
  const bool use_file = !path.empty() && path != "-";
  const std::string key = problem_key(problem);
  AutotuneCache cache;
  cache.identity = identity;
  if (use_file) cache = load_cache(path, identity, o.log);
  if (!o.force) {
    auto it = cache.entries.find(key);
    if (it != cache.entries.end()) {
      const AutotuneCacheEntry& e = it->second;
      for (const auto& c : candidates)
        if (c.kernel == e.kernel && c.block.x == e.block[0] && c.block.y == e.block[1] && c.block.z == e.block[2] &&
            c.z_waves == e.z_waves) {
          TuneChoice out;
          out.kernel = c.kernel;
          out.block = c.block;
          out.z_waves = c.z_waves;
          out.seconds_per_step = e.seconds_per_step;
          out.from_cache = true;
          return out;
        }
      if (o.log) *o.log << "autotune: the cached choice " << e.kernel << " for " << key << " is no longer a candidate; re-tuning\n";
    }
  }
  // Every candidate gets an equal share of what is left of the budget; the list puts
  // each kernel's preferred block first, so when the budget runs out early the kernels
  // have been compared at their own blocks. A measurement may run past its share by a
  // fixed cost of its own (building a solver, capturing its graphs: a tenth of a second
  // and more for a room on four GPUs); the longest such overrun seen is kept back from
  // the shares, and no candidate starts once what is left would not cover it.
  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  TuneChoice best;
  std::string refused;
  int measured = 0;
  double overrun = 0.0;
  for (size_t q = 0; q < candidates.size(); ++q) {
    const double left = o.budget_s - elapsed();
    if (measured > 0 && left <= overrun) break;
    const double share = std::max(left - overrun, 0.0) / (double)(candidates.size() - q);
    const TuneCandidate& c = candidates[q];
    double sec = 0.0;
    const double started = elapsed();
    try {
      sec = measure(c, share);
    } catch (const std::exception& e) {
      refused += "\n  " + c.kernel + " " + launch_text(c.block, c.z_waves) + ": " + e.what();
      continue;
    }
    overrun = std::max(overrun, elapsed() - started - share);
    if (!(sec > 0.0)) {
      refused += "\n  " + c.kernel + " " + launch_text(c.block, c.z_waves) + ": no time measured";
      continue;
    }
    ++measured;
    if (best.kernel.empty() || sec < best.seconds_per_step) {
      best.kernel = c.kernel;
      best.block = c.block;
      best.z_waves = c.z_waves;
      best.seconds_per_step = sec;
    }
  }
  if (best.kernel.empty()) throw std::runtime_error("autotune: no candidate ran for " + key + ":" + refused);
  best.measured = measured;
  best.tune_s = elapsed();
  if (o.log) {
    *o.log << "autotune: " << key << ": " << best.kernel << " " << launch_text(best.block, best.z_waves) << " ("
           << best.seconds_per_step * 1e6 << " us per step; " << measured << " of " << candidates.size()
           << " candidates timed in " << best.tune_s << " s)\n";
  }
  cache.entries[key] = {best.kernel, {best.block.x, best.block.y, best.block.z}, best.seconds_per_step, best.z_waves};
  if (use_file) store_cache(path, cache, o.log);
  return best;
}

std::vector<TuneCandidate> tune_candidates(const Stencil& stencil, Precision precision) {
  // Common shapes for kernels that take any block: a warp or two wide, a few rows deep.
  static const BlockShape kShapes[] = {{32, 4, 1}, {32, 8, 1}, {64, 4, 1}, {64, 8, 1}, {128, 2, 1}, {128, 4, 1}};
  std::vector<TuneCandidate> first, more;
  for (const KernelVariant* v : KernelRegistry::instance().supporting(stencil, precision)) {
    if (!v->auto_candidate) continue;
    const BlockShape pref = preferred_block(*v, stencil, precision);
    first.push_back({v->id, pref});
    if (v->block_for) continue;  // a block per stencil (a compiled-in width, a grown tile): its own only
    for (BlockShape b : kShapes) {
      b.z = v->block_uses_z ? pref.z : 1;
      if (b.threads() > 1024) continue;
      if (b.x == pref.x && b.y == pref.y && b.z == pref.z) continue;
      if (v->block_error && !v->block_error(stencil, precision, b).empty()) continue;
      more.push_back({v->id, b});
    }
  }
  first.insert(first.end(), more.begin(), more.end());
  return first;
}

}  // namespace ws
