#include "decomp/slab_autotune.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "cuda/kernel_registry.hpp"
#include "decomp/slab_kernel.hpp"

namespace ws {

std::string SlabTuneChoice::label() const {
  return "auto \u2192 " + kernel + (overlap ? ", edge slabs split off" : ", no edge slabs");
}

std::vector<TuneCandidate> slab_candidates(const Stencil& stencil, Precision precision) {
  const KernelRegistry& reg = KernelRegistry::instance();
  std::vector<std::string> ids;
  for (const char* id : {"zstream_fused_vec", "zstream_fused", "zstream_cached"}) {
    const KernelVariant* v = reg.find(id);
    if (!v || !v->auto_candidate || !v->supports(stencil) || !v->has_precision(precision)) continue;
    if (!kernel_reads_halo(id) || kernel_sums_follow_z_chunks(id)) continue;
    ids.push_back(id);
  }
  try {
    const std::string fallback = slab_kernel(stencil, precision, "");
    if (std::find(ids.begin(), ids.end(), fallback) == ids.end()) ids.push_back(fallback);
  } catch (const std::invalid_argument&) {
    // No kernel runs this stencil on slabs: the list is what it is (maybe empty).
  }
  std::vector<TuneCandidate> out;
  for (const auto& id : ids) {
    TuneCandidate c;
    c.kernel = id;
    c.block = preferred_block(reg.at(id), stencil, precision);
    out.push_back(c);
  }
  return out;
}

TuneProblem slab_problem(const TuneProblem& room, int parts, bool overlap) {
  TuneProblem p = room;
  p.stencil += "@slabs:" + std::to_string(parts) + (overlap ? ":edges" : ":whole");
  return p;
}

double time_decomposed_step(const SlabBuild& build, const DecompOptions& options, double budget_s) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  auto since = [](clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); };
  std::unique_ptr<WaveSolver> s = build(options);
  s->advance(4);  // the first steps build the whole-step kernels' data and warm the caches
  // Batches of doubling length, at least up to the step graph's longest run (a few
  // milliseconds even for the largest rooms, whose set-up may already have spent the
  // budget: a shorter batch would time the replay's fixed start more than the steps), then
  // until one takes a third of what is left of the budget. A length up to that run is
  // first run untimed: its first advance captures the graph the timed one replays.
  double per_step = 0.0;
  for (int n = 4;; n *= 2) {
    if (n <= kSlabGraphLongestRun) s->advance(n);
    const auto t = clock::now();
    s->advance(n);
    const double sec = since(t);
    per_step = sec / n;
    const double left = budget_s - since(t0);
    if (n >= kSlabGraphLongestRun && (sec >= left / 3.0 || n >= (1 << 14) || left <= 0.0)) break;
  }
  return per_step;
}

SlabTuneChoice autotune_slabs(const TuneProblem& room, const TuneIdentity& identity, int parts, bool allow_overlap,
                              const std::vector<TuneCandidate>& candidates, const SlabMeasure& measure,
                              const AutotuneOptions& options) {
  std::vector<bool> splits{false};
  if (allow_overlap) splits.insert(splits.begin(), true);
  // The edge-slab split first, with two thirds of the budget: it has won on every room
  // measured (docs/benchmarks.md), and on four GPUs a candidate's solver costs half a
  // second before its first timed step, so an even share would time one kernel there.
  // The split without edge slabs gets what is left of the whole budget.
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  SlabTuneChoice best;
  std::string why;
  for (size_t q = 0; q < splits.size(); ++q) {
    const bool overlap = splits[q];
    AutotuneOptions o = options;
    const double left = options.budget_s - std::chrono::duration<double>(clock::now() - t0).count();
    o.budget_s = std::max(left, 0.0) * (q + 1 < splits.size() ? 2.0 / 3.0 : 1.0);
    try {
      const TuneChoice c = autotune(
          slab_problem(room, parts, overlap), identity, candidates,
          [&](const TuneCandidate& cand, double budget) { return measure(cand, overlap, budget); }, o);
      if (best.kernel.empty() || c.seconds_per_step < best.seconds_per_step) {
        best.kernel = c.kernel;
        best.overlap = overlap;
        best.seconds_per_step = c.seconds_per_step;
        best.from_cache = c.from_cache;
      }
    } catch (const std::exception& e) {
      why += std::string(why.empty() ? "" : "; ") + (overlap ? "edge slabs: " : "no edge slabs: ") + e.what();
    }
  }
  if (best.kernel.empty()) throw std::runtime_error("autotune on slabs: no candidate ran (" + why + ")");
  return best;
}

}  // namespace ws
