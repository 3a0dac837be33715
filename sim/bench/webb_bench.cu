// Times Webb's standard simulation for every selected kernel variant on one
// CudaWaveSolver per precision: the same two grids, source and receiver for
// every variant, the field reset before each, the update kernel switched
// through set_kernel. Each step is Webb's fig. 2 loop body: the update kernel,
// then the I/O kernel that adds the source and records the receiver.
#include <algorithm>
#include <cmath>
#include <ostream>

#include "bench/webb_bench.hpp"
#include "core/cuda_check.hpp"
#include "cuda/cuda_solver.hpp"
#include "stencil/stencil.hpp"

namespace ws::bench {

namespace {

constexpr double kSampleRateHz = 44100.0;
constexpr int kWarmupSteps = 200;  // untimed, after each kernel switch: clocks up, caches and TLB warm

std::unique_ptr<CudaWaveSolver> make_webb_solver(const WebbConfig& cfg, Precision p, const Stencil& st) {
  const auto n = cfg.interior();
  // Webb runs at the Courant limit lambda = 1/sqrt(3) (his eq. 5).
  auto solver = make_cuda_solver(p, st, n[0], n[1], n[2], st.courant_max, 1.0 / kSampleRateHz);
  // A raised-cosine soft source and one receiver at fixed fractions of the room,
  // so that --size keeps them inside: 0.5 ms is 22 samples, smooth on the grid.
  const GridIndex src{(int)(0.3 * n[0]), (int)(0.3 * n[1]), (int)(0.4 * n[2])};
  const GridIndex rec{(int)(0.7 * n[0]), (int)(0.72 * n[1]), (int)(0.57 * n[2])};
  SourceSignal sig;
  sig.kind = SignalKind::RaisedCosine;
  sig.amplitude = 1.0;
  sig.width_s = 0.5e-3;
  solver->set_sources({{src, sig}});
  solver->set_receivers({rec});
  if (cfg.walls == "absorbing") {
    BoxWalls w;
    w.fill(WallCondition::with_admittance(0.2));
    solver->set_boundary(make_boundary_plan(solver->layout(), w, {}, st.courant_max));
  }
  return solver;
}

}  // namespace

WebbResult run_webb_bench(const WebbConfig& cfg, std::ostream& log) {
  validate_webb_config(cfg);
  WebbResult res;
  res.config = cfg;
  res.device = device_name();
  res.copy_gbs = measure_copy_bandwidth_gbs();
  log << "device-to-device copy bandwidth: " << res.copy_gbs << " GB/s (read + write)\n";
  res.l2_gbs = measure_l2_bandwidth_gbs();
  log << "L2 bandwidth: " << res.l2_gbs << " GB/s (read + write)\n";

  const Stencil st = make_stencil("7pt");
  const auto variants = webb_variants(cfg);
  const auto n = cfg.interior();
  const double points = (double)n[0] * n[1] * n[2];
  const int segments = std::max(1, cfg.segments);
  const long long seg_steps = std::max<long long>(1, cfg.steps / segments);

  for (Precision p : cfg.precisions) {
    if (cfg.stopped()) break;
    auto solver = make_webb_solver(cfg, p, st);
    const double bytes_per_point = scheme_bytes_per_point(p);
    for (const KernelVariant* v : variants) {
      if (!v->has_precision(p)) continue;
      if (v->grid_error) {  // kernels bounded by on-chip memory time the grids they hold
        const std::string why = v->grid_error(n[0], n[1], n[2], p);
        if (!why.empty()) {
          log << "skipping " << v->id << " (" << to_string(p) << "): " << why << "\n" << std::flush;
          continue;
        }
      }
      for (bool ro : cfg.readonly_modes) {
        if (cfg.stopped()) break;
        if (!ro && !v->has_readonly_toggle) continue;
        log << "timing " << v->id << " (" << to_string(p) << ", read-only cache " << (ro ? "on" : "off") << "): "
            << segments << " x " << seg_steps << " steps\n" << std::flush;
        BlockShape block = cfg.override_block ? cfg.block : preferred_block(*v, st, p);
        if (!v->block_uses_z) block.z = 1;  // those kernels ignore block.z
        solver->set_kernel(v->id, LaunchOptions{block, ro});
        solver->reset();
        solver->advance(kWarmupSteps);
        const TimingStats t = time_on_stream([&](cudaStream_t) { solver->advance((int)seg_steps); },
                                             solver->stream(), 0, segments);
        (void)solver->take_receiver_samples();  // the samples are not needed; keep the host buffer small
        WebbRow r;
        r.id = v->id;
        r.name = v->name;
        r.precision = p;
        r.readonly_cache = ro;
        r.block = block;
        r.steps_timed = seg_steps * segments;
        r.step_s = t.median_s / (double)seg_steps;
        r.step_min_s = t.min_s / (double)seg_steps;
        r.step_max_s = t.max_s / (double)seg_steps;
        r.seconds_full = r.step_s * (double)kWebbSteps;
        r.gpoints_per_s = r.step_s > 0 ? points / r.step_s * 1e-9 : 0.0;
        r.roofline_fraction = r.gpoints_per_s / roofline_gpoints(res.copy_gbs, bytes_per_point);
        if (p == Precision::Double && cfg.is_webb_standard()) r.k20_s = webb_k20_seconds(v->id);
        res.rows.push_back(r);
      }
    }
  }
  // Webb's ratio column: each time against 3D tiling at the same precision and cache mode.
  for (auto& r : res.rows)
    for (const auto& b : res.rows)
      if (b.id == "tiling3d" && b.precision == r.precision && b.readonly_cache == r.readonly_cache &&
          b.seconds_full > 0)
        r.ratio_to_tiling3d = r.seconds_full / b.seconds_full;
  return res;
}

}  // namespace ws::bench
