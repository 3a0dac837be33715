#pragma once
// `wavescope bench sediment`: the h- and s-kernels of Su et al. in their four
// versions, timed one kernel at a time at 4096^2 in double as in the paper
// (Table 2, Tesla K20), plus one whole step with the paper's best pair.
//
// Reported per kernel: median time per launch (CUDA events after warm-up),
// Gpoints/s, GFLOP/s with the paper's 55 (h) and 34 (s) flops per point and
// with our own counts (49, 53), and the fraction of the copy-bandwidth roofline.
// Bytes per point are the compulsory traffic: each kernel reads four arrays and
// writes one (h: alpha, beta, s, h -> h'; s: alpha, beta, s, h' -> s'), 5 x 8 =
// 40 B in double, 20 B in float; the whole step 80 B (or 40 B) plus the
// perimeter-only ghost kernel.
#include <functional>
#include <string>
#include <vector>

#include "bench/roofline.hpp"
#include "core/precision.hpp"

namespace ws::bench {

struct SedimentBenchOptions {
  int size = 4096;                 // nx = ny
  Precision precision = Precision::Double;
  int launches = 20;               // kernel launches per timed sample
  int reps = 11;                   // timed samples (median reported)
  int warmup = 3;                  // untimed samples first
  std::vector<std::string> kernels;  // empty: all registered
  // Asked between kernels (may be empty); true ends the run with the records
  // measured so far (SIGINT/SIGTERM in the CLI).
  std::function<bool()> stop_requested;
  bool stopped() const { return stop_requested && stop_requested(); }
};

// The paper's K20 and GTX 590 figures (Tables 2 and 3), for printing beside ours.
struct PaperFigure {
  const char* id;
  const char* block;
  double k20_gflops;
  double gtx590_gflops;
};
const std::vector<PaperFigure>& paper_figures();
const PaperFigure* paper_figure(const std::string& id);
constexpr double kPaperK20BestStepGflops = 165.0;  // OPT-3 h + OPT-1 s, section 4
constexpr double kPaperK20TestedBandwidthGbs = 160.88;  // Table 1

// Runs the benchmark (needs a usable CUDA device; CudaError otherwise). One
// record per kernel plus "step:h-opt3+s-opt1" (ghosts + both kernels).
std::vector<BenchRecord> run_sediment_bench(const SedimentBenchOptions& options);

}  // namespace ws::bench
