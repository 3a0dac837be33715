#pragma once
// `wavescope bench scaling`: weak scaling (a fixed number of points per GPU, the grid
// growing along z) and strong scaling (one fixed grid) over 1..N parts in one process
// (GPUs, or CPU slabs for a check without a GPU), or over the MPI ranks that started it.
// Per configuration: Gpoints/s in total and per part, the efficiency against one
// undecomposed part, the time of one halo exchange alone, how much of it the overlap
// hides, and the copy bandwidth of that exchange, all measured in the same run.
#include <functional>
#include <string>
#include <vector>

#include "decomp/decomposed_solver.hpp"
#include "decomp/slab_comm.hpp"
#include "wave/wave_solver.hpp"

namespace ws {

struct ScalingOptions {
  bool weak = true;
  int side = 256;                 // weak: points per part = side^3 (nx = ny = side, nz = side * parts)
  int nx = 512, ny = 512, nz = 512;  // strong: the grid
  std::vector<int> parts;         // part counts to run (in one process); under MPI: {ranks}
  std::vector<int> devices;       // device of part q (empty: CPU slabs)
  std::string stencil = "7pt";
  Precision precision = Precision::Float;
  std::string kernel;             // "" : the first registered kernel that can run on a slab
  int steps = 50, warmup = 5;
  int reps = 3;                   // timed runs of `steps`; the median is reported
  // How the slabs step (prioritize_edges, step_graph, copy_by_kernel, flag_sync); the
  // benchmark sets the placement, the kernel and the communicator itself.
  DecompOptions slab_steps;
  SlabComm* comm = nullptr;       // MPI: one part per rank
  std::function<bool()> stop_requested;
};

struct ScalingRecord {
  std::string mode;        // "weak" or "strong"
  int parts = 1, ranks = 1, slabs = 1;
  int nx = 0, ny = 0, nz = 0;
  long long steps = 0;
  double seconds = 0.0;
  double gpoints_per_s = 0.0, gpoints_per_s_per_part = 0.0;
  double efficiency = 1.0;         // weak: per-part rate / one part's; strong: speed-up / parts
  double halo_s_per_step = 0.0;    // one exchange alone
  double exposed_s_per_step = 0.0; // step time with the exchange minus without it
  double hidden_fraction = 1.0;    // 1 - exposed / halo, clamped to [0, 1]
  double copy_gbs = 0.0;           // bytes crossing between parts per exchange / its time
  std::string backend, kernel;
  std::string mpi_halos;  // DecompProbe::remote_halo_path ("" in one process)
};

std::vector<ScalingRecord> run_scaling_bench(const ScalingOptions& o);

}  // namespace ws
