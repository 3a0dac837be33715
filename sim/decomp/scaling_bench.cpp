#include "decomp/scaling_bench.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "bench/median.hpp"
#include "core/cuda_check.hpp"
#include "cpu/cpu_solver.hpp"
#include "cuda/cuda_solver.hpp"
#include "decomp/decomposed_solver.hpp"
#include "stencil/stencil.hpp"

namespace ws {

namespace {

struct Grid {
  int nx, ny, nz;
};

Grid grid_for(const ScalingOptions& o, int parts) {
  if (o.weak) return {o.side, o.side, o.side * parts};
  return {o.nx, o.ny, o.nz};
}

// Wall-clock time: the parts run on several devices (or ranks), whose events cannot be
// compared, and advance() returns with every stream synchronised. The median of `reps`
// runs, so one run disturbed by the host does not set the figure.
double seconds_of(WaveSolver& s, int steps, int reps) {
  std::vector<double> t;
  for (int i = 0; i < std::max(1, reps); ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    s.advance(steps);
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return bench::median(t);
}

// A field that is not zero, so the timings see ordinary arithmetic (no denormals:
// a smooth bump of amplitude 1 decays far slower than the run is long).
void seed(WaveSolver& s) {
  SourceNode src;
  const FieldLayout& L = s.layout();
  src.node = GridIndex{L.nx / 2, L.ny / 2, L.nz / 2};
  src.signal.kind = SignalKind::RaisedCosine;
  src.signal.width_s = 4 * s.dt_s();
  s.set_sources({src});
}

}  // namespace

std::vector<ScalingRecord> run_scaling_bench(const ScalingOptions& o) {
  const Stencil st = make_stencil(o.stencil);
  const bool gpu = !o.devices.empty();
  const std::string kernel = gpu ? slab_kernel(st, o.precision, o.kernel, o.devices.size() > 1) : std::string();
  const double courant = 0.9 * st.courant_max, dt = 1e-5;
  const int ranks = o.comm ? o.comm->size() : 1;
  std::vector<ScalingRecord> out;
  double base_rate = 0.0;  // one undecomposed part (under MPI: rank 0's, shared)

  auto one_part = [&](const Grid& g) -> std::unique_ptr<WaveSolver> {
    if (!gpu) return make_cpu_solver(o.precision, st, g.nx, g.ny, g.nz, courant, dt);
    CUDA_CHECK(cudaSetDevice(o.devices[0]));
    return make_cuda_solver(o.precision, st, g.nx, g.ny, g.nz, courant, dt, kernel);
  };

  std::vector<int> counts = o.parts;
  if (ranks > 1) counts = {ranks};
  if (std::find(counts.begin(), counts.end(), 1) == counts.end()) counts.insert(counts.begin(), 1);
  for (int parts : counts) {
    if (o.stop_requested && o.stop_requested()) break;
    const bool decomposed = parts > 1;
    const Grid g = grid_for(o, decomposed ? parts : 1);
    // The baseline: one part alone (strong: the whole grid; weak: one part's share).
    std::unique_ptr<WaveSolver> s;
    if (!decomposed) {
      s = one_part(g);
    } else {
      DecompOptions d = o.slab_steps;
      d.comm = o.comm;
      d.kernel_id = kernel;
      if (ranks > 1) {
        d.slabs_per_process = 1;
        if (gpu) d.devices = {o.devices[0]};
      } else {
        d.slabs_per_process = parts;
        if (gpu) {
          if ((int)o.devices.size() < parts)
            throw std::invalid_argument(std::to_string(parts) + " parts need " + std::to_string(parts) +
                                        " devices; " + std::to_string(o.devices.size()) + " given");
          d.devices.assign(o.devices.begin(), o.devices.begin() + parts);
        }
      }
      s = make_decomposed_solver(d, o.precision, st, g.nx, g.ny, g.nz, courant, dt);
    }
    seed(*s);
    s->advance(o.warmup);
    ScalingRecord r;
    r.mode = o.weak ? "weak" : "strong";
    r.parts = parts;
    r.ranks = decomposed ? ranks : 1;
    r.nx = g.nx;
    r.ny = g.ny;
    r.nz = g.nz;
    r.steps = o.steps;
    r.seconds = seconds_of(*s, o.steps, o.reps);
    if (o.comm && o.comm->size() > 1) {  // the slowest rank sets the pace
      double unused = 0.0;
      bool all = true;
      o.comm->allreduce_stats(unused, r.seconds, all);
    }
    const double points = (double)g.nx * g.ny * g.nz;
    r.gpoints_per_s = points * o.steps / r.seconds * 1e-9;
    r.gpoints_per_s_per_part = r.gpoints_per_s / parts;
    r.backend = s->backend();
    r.kernel = kernel;
    if (DecompProbe* p = decomp_probe(*s)) {
      r.slabs = p->slab_count();
      r.mpi_halos = p->remote_halo_path();
      r.halo_s_per_step = p->time_exchange_s(std::max(5, o.steps / 5));
      p->set_exchange(false);
      double without = seconds_of(*s, o.steps, o.reps);
      if (o.comm && o.comm->size() > 1) {
        double unused = 0.0;
        bool all = true;
        o.comm->allreduce_stats(unused, without, all);
      }
      p->set_exchange(true);
      r.exposed_s_per_step = std::max(0.0, (r.seconds - without) / o.steps);
      r.hidden_fraction =
          r.halo_s_per_step > 0 ? std::clamp(1.0 - r.exposed_s_per_step / r.halo_s_per_step, 0.0, 1.0) : 1.0;
      r.copy_gbs = r.halo_s_per_step > 0 ? p->cross_bytes_per_step() / r.halo_s_per_step * 1e-9 : 0.0;
    }
    if (!decomposed) {
      base_rate = r.gpoints_per_s;
      if (o.comm && o.comm->size() > 1) {  // rank 0's baseline for everyone
        double sum = o.comm->rank() == 0 ? base_rate : 0.0, peak = 0.0;
        bool all = true;
        o.comm->allreduce_stats(sum, peak, all);
        base_rate = sum;
      }
    }
    r.efficiency = base_rate > 0 ? r.gpoints_per_s_per_part / base_rate : 0.0;
    out.push_back(r);
  }
  return out;
}

}  // namespace ws
