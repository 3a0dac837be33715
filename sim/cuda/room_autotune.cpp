#include "cuda/room_autotune.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>

#include "core/value_bits.hpp"
#include "cuda/cuda_solver.hpp"
#include "cuda/tiled_step.hpp"

namespace ws {

namespace {

// FNV-1a over the room's step, enough to tell rooms on one grid apart.
struct Digest {
  uint64_t h = 1469598103934665603ull;
  void add(uint64_t v) {
    for (int b = 0; b < 8; ++b) {
      h ^= (v >> (8 * b)) & 0xffu;
      h *= 1099511628211ull;
    }
  }
};

}  // namespace

TuneProblem room_problem(const TuneProblem& grid, const RoomStep& step) {
  Digest d;
  if (step.plan) {
    d.add(step.plan->node.size());
    for (size_t r = 0; r < step.plan->node.size(); ++r) {
      d.add((uint64_t)step.plan->node[r]);
      d.add(step.plan->neighbours[r]);
    }
    d.add(step.plan->solid.size());
    for (int64_t q : step.plan->solid) d.add((uint64_t)q);
  }
  d.add(step.sources.size());
  for (const SourceNode& s : step.sources) {
    d.add((uint64_t)s.node.i);
    d.add((uint64_t)s.node.j);
    d.add((uint64_t)s.node.k);
  }
  d.add(step.receivers.size());
  for (const ReceiverTaps& r : step.receivers) {
    d.add(r.size());
    for (const auto& t : r) {
      d.add((uint64_t)t.node.i);
      d.add((uint64_t)t.node.j);
      d.add((uint64_t)t.node.k);
      d.add(value_bits(t.weight));
    }
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)d.h);
  TuneProblem p = grid;
  p.stencil = grid.stencil + "@room:" + hex;
  return p;
}

std::vector<TuneCandidate> room_candidates(const TuneChoice& bare, const Stencil& stencil, Precision precision,
                                           KernelVariant::MultiWalls room_walls) {
  using W = KernelVariant::MultiWalls;
  std::vector<TuneCandidate> out{{bare.kernel, bare.block}};
  for (const KernelVariant* v : KernelRegistry::instance().supporting(stencil, precision)) {
    if (!v->auto_candidate || !v->multi_step()) continue;
    const bool runs_every_room = v->multi_walls == W::All;
    const bool narrow_on_chip = v->multi_walls >= W::ClassFaces && v->multi_walls <= room_walls;
    if (!runs_every_room && !narrow_on_chip) continue;
    std::vector<BlockShape> blocks = v->room_blocks;
    if (blocks.empty()) blocks.push_back(preferred_block(*v, stencil, precision));
    for (const BlockShape& b : blocks) {
      if (!(v->id == bare.kernel && b.x == bare.block.x && b.y == bare.block.y && b.z == bare.block.z &&
            bare.z_waves == 0))
        out.push_back({v->id, b, 0});
      for (int w : v->room_z_waves) out.push_back({v->id, b, w});
    }
  }
  return out;
}

std::vector<SourceNode> sources_for_timing(std::vector<SourceNode> sources) {
  for (SourceNode& s : sources)
    if (s.samples) {
      s.samples = nullptr;
      s.signal.kind = SignalKind::Gaussian;
      s.signal.width_s = 1e-3;
    }
  return sources;
}

TuneChoice autotune_room_on_device(const TuneChoice& bare, const Stencil& stencil, Precision precision, int nx,
                                   int ny, int nz, const RoomStep& step, const AutotuneOptions& options) {
  const FieldLayout L = make_layout(nx, ny, nz, halo_for(stencil), (int)bytes_of(precision));
  std::vector<TuneCandidate> cands = room_candidates(bare, stencil, precision, plan_walls_class(step.plan, L));
  // Kernels whose on-chip memory cannot hold this grid are not timed.
  cands.erase(std::remove_if(cands.begin() + 1, cands.end(),
                             [&](const TuneCandidate& c) {
                               const KernelVariant& v = KernelRegistry::instance().at(c.kernel);
                               return v.grid_error && !v.grid_error(nx, ny, nz, precision).empty();
                             }),
              cands.end());
  if (step.bare() || cands.size() < 2) return bare;
  const std::vector<SourceNode> sources = sources_for_timing(step.sources);
  // One scratch solver for every candidate: kernels, blocks and z-chunk waves are switched
  // on it (a switch drops its graphs, and its whole-step data when the block changes), so
  // the room's fields, walls, sources and receivers are set up once.
  std::unique_ptr<CudaWaveSolver> s;
  // Where the tune's wall time goes (for its log line): the solver's set-up, the switches,
  // the warm-ups (the whole-step data built for a new block, the graphs' captures) and the
  // timed runs.
  double setup_s = 0.0, switch_s = 0.0, warm_s = 0.0, runs_s = 0.0;
  using Clock = std::chrono::steady_clock;
  auto since = [](Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  const TuneMeasure measure = [&](const TuneCandidate& c, double) {
    auto t0 = Clock::now();
    if (!s) {
      s = make_cuda_solver(precision, stencil, nx, ny, nz, step.courant, step.dt_s, c.kernel);
      if (step.plan) s->set_boundary(*step.plan);
      s->set_sources(sources);
      s->set_receiver_taps(step.receivers);
      s->synchronize();
      setup_s += since(t0);
      t0 = Clock::now();
    }
    s->set_kernel(c.kernel, LaunchOptions{c.block, true, c.z_waves});
    switch_s += since(t0);
    t0 = Clock::now();
    s->advance(130);  // warm-up: the step graph's captures, the first launches' set-up
    s->synchronize();
    warm_s += since(t0);
    t0 = Clock::now();
    struct AddOnExit {
      double& to;
      Clock::time_point t0;
      ~AddOnExit() { to += std::chrono::duration<double>(Clock::now() - t0).count(); }
    } add_runs{runs_s, t0};
    // Advances of doubling length until one takes 5 ms, then at least two of them and
    // 20 ms in all; the fastest per-step time counts
    // (interference only ever slows a run down). Every candidate is timed: a room has
    // a handful of them, and skipping one for the budget could skip the winner.
    double best = std::numeric_limits<double>::infinity(), timed = 0.0;
    int n = 64;
    for (int runs = 0; runs < 64; ++runs) {
      s->advance(n);
      const double t = s->metrics().last_advance_s;
      if (t > 0) best = std::min(best, t / n);
      if (t < 5e-3 && n < (1 << 16)) {
        n *= 2;
        continue;
      }
      timed += t;
      if (runs >= 2 && timed > 0.02) break;
    }
    return best;
  };
  AutotuneOptions o = options;
  o.budget_s = std::numeric_limits<double>::infinity();  // each candidate bounds its own time (above)
  TuneChoice c = autotune(room_problem(TuneProblem{stencil.name, precision, nx, ny, nz}, step),
                          current_tune_identity(), cands, measure, o);
  if (o.log && !c.from_cache) {
    char line[192];
    std::snprintf(line, sizeof line,
                  "autotune: the room's tune took %.2f s setting up its solver, %.2f s switching kernels, %.2f s "
                  "warming up (step data, graphs), %.2f s in timed runs\n",
                  setup_s, switch_s, warm_s, runs_s);
    *o.log << line;
  }
  return c;
}

}  // namespace ws
