#pragma once
// `wavescope bench stencils`: the CTPN sweep of Hamilton, Webb, Gray & Bilbao
// (Fig. 7) on the current GPU. For the first members of each stencil family, in
// float and double, on a medium and a large grid sized to the device's free
// memory, it times the registered kernels that run the stencil and reports the
// best one's compute time per node (CTPN, ns), Gpoints/s and fraction of the
// copy-bandwidth roofline measured in the same run (12 bytes per point in float,
// 24 in double: read u^n, read u^{n-1}, write u^{n+1}).
#include <functional>
#include <string>
#include <vector>

#include "bench/roofline.hpp"
#include "core/precision.hpp"

namespace ws::bench {

struct StencilBenchOptions {
  std::vector<std::string> families{"leggy", "compact", "box"};  // also "named27"
  std::vector<Precision> precisions{Precision::Float, Precision::Double};
  std::vector<std::string> sizes{"medium", "large"};
  int per_family = 20;       // the paper's first twenty of each family
  int steps = 3;             // steps per timed repetition
  int reps = 5;              // timed repetitions (median reported)
  bool all_kernels = false;  // time every supporting kernel on every grid, not only the best
  bool quick = false;        // small fixed grid, fewer repetitions: a smoke run of the whole sweep
  double max_gpoints = 1.0;  // cap on the large grid's interior points (1e9): bounds the sweep's time
  std::vector<std::string> stencils;  // explicit stencil names (instead of the families' first per_family)
  std::vector<std::string> kernels;   // only these kernel ids (empty: every supporting kernel)
  int block_x = 0, block_y = 0, block_z = 0;  // block override for every kernel (0: its default block)
  std::function<void(const std::string&)> log;  // progress lines (may be empty)
  // Asked between measurements (may be empty); true ends the sweep with the
  // rows measured so far (SIGINT/SIGTERM in the CLI).
  std::function<bool()> stop_requested;
  bool stopped() const { return stop_requested && stop_requested(); }
};

struct StencilBenchRow {
  std::string family, stencil, kernel, precision, size;
  int points = 0, radius = 0;
  long long nx = 0, ny = 0, nz = 0;
  int steps = 0;
  double seconds_per_step = 0.0;
  double ctpn_ns = 0.0;
  double gpoints_per_s = 0.0;
  double roofline_fraction = 0.0;
  bool best = false;  // fastest kernel for this stencil, precision and grid
};

struct StencilBenchResult {
  std::string device;
  double copy_gbs = 0.0;
  double l2_gbs = 0.0;  // the L2 roofline, same run
  std::vector<StencilBenchRow> rows;
  std::vector<std::string> notes;    // stencils or kernels skipped, and why
  std::vector<std::string> targets;  // the performance targets, met or missed, with the numbers
};

// The names of the first `count` members of `family` ("leggy", "compact", "box",
// "named27") as the stencil family code lists them. Throws std::invalid_argument
// for an unknown family, naming the allowed ones.
std::vector<std::string> bench_stencil_names(const std::string& family, int count);

// Interior dimensions for a size label ("medium", "large") and precision: the
// large grid's two arrays (with the largest halo, 8) take at most half of
// `free_bytes` and at most max_gpoints * 1e9 points; the medium grid has about
// 0.46 of its points (the paper's ratio). quick: fixed small grids.
struct GridDims {
  int nx = 0, ny = 0, nz = 0;
};
GridDims stencil_bench_grid(const std::string& size, Precision p, size_t free_bytes, double max_gpoints, bool quick);

// Runs the sweep (needs a GPU; CUDA errors throw ws::CudaError).
StencilBenchResult run_stencil_bench(const StencilBenchOptions& options);

void write_stencil_bench_csv(const std::string& path, const StencilBenchResult& r);
void write_stencil_bench_json(const std::string& path, const StencilBenchResult& r);

}  // namespace ws::bench
