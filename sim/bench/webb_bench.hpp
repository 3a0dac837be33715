#pragma once
// Webb's standard simulation as a benchmark (Webb 2013, section 5, Tables 2-4):
// a 3.4 x 4.0 x 2.8 m room at 44.1 kHz, 256 x 296 x 212 grid points counted
// with the one-point fixed boundary on each side (so 254 x 294 x 210 interior
// points are updated), double precision, a raised-cosine soft source, fixed
// boundaries, 44,100 steps. Every registered 7-point kernel variant is timed on
// it with CUDA events; the table gives Webb's Table 3 columns (time for the full
// run, ratio to 3D tiling) plus throughput against the copy-bandwidth roofline.
#include <array>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "bench/roofline.hpp"
#include "core/precision.hpp"
#include "cuda/kernel_registry.hpp"

namespace ws::bench {

constexpr long long kWebbSteps = 44100;   // one second of output at 44.1 kHz
constexpr long long kWebbMinSteps = 2000;  // fewer timed steps are too noisy to extrapolate

struct WebbConfig {
  // Grid points per axis including the fixed boundary layer on each side
  // (Webb's convention); the interior is two less per axis.
  std::array<int, 3> size_with_boundary{256, 296, 212};
  std::vector<Precision> precisions{Precision::Double};
  long long steps = kWebbSteps;        // timed steps; fewer than 44,100 are extrapolated
  std::vector<std::string> variants;   // empty: every registered variant that runs the 7-point stencil
  std::vector<bool> readonly_modes{true};
  int segments = 5;                    // timed segments; the median segment gives the rate
  // "fixed" (Webb's), or "absorbing": every wall locally reacting (admittance 0.2), so the
  // boundary-node kernels run around the interior kernel; Gpoints/s counts interior points either way.
  std::string walls = "fixed";
  bool override_block = false;         // run every variant with `block` instead of its default
  BlockShape block;
  // Asked between variants (may be empty); true ends the run with the rows
  // measured so far (SIGINT/SIGTERM in the CLI).
  std::function<bool()> stop_requested;
  bool stopped() const { return stop_requested && stop_requested(); }

  std::array<int, 3> interior() const {
    return {size_with_boundary[0] - 2, size_with_boundary[1] - 2, size_with_boundary[2] - 2};
  }
  bool is_webb_standard() const { return size_with_boundary == std::array<int, 3>{256, 296, 212}; }
};

struct WebbRow {
  std::string id, name;
  Precision precision = Precision::Double;
  bool readonly_cache = true;
  BlockShape block;
  long long steps_timed = 0;
  double step_s = 0.0, step_min_s = 0.0, step_max_s = 0.0;  // per step: median, fastest, slowest segment
  double seconds_full = 0.0;       // step_s * 44,100: the time of Webb's full run
  double gpoints_per_s = 0.0;
  double roofline_fraction = 0.0;  // gpoints_per_s / (copy GB/s / bytes per point)
  double ratio_to_tiling3d = -1.0; // seconds / seconds of tiling3d at the same precision and cache mode; < 0: not run
  double k20_s = -1.0;             // Webb's Table 3 (K20, double, standard size); < 0: none
};

struct WebbResult {
  WebbConfig config;
  std::string device;
  double copy_gbs = 0.0;
  double l2_gbs = 0.0;  // the L2 roofline (measure_l2_bandwidth_gbs), same run
  std::vector<WebbRow> rows;
};

// "NX,NY,NZ" with each value >= 3 (at least one interior point); throws
// std::invalid_argument naming the value and what is allowed.
std::array<int, 3> parse_size_with_boundary(const std::string& text);
// "BX,BY" or "BX,BY,BZ": each side >= 1, at most 1024 threads; throws
// std::invalid_argument naming the value and what is allowed.
BlockShape parse_block(const std::string& text);
// "a,b,c": non-empty ids, duplicates removed in order; throws on an empty item.
std::vector<std::string> parse_id_list(const std::string& text);
// Throws std::invalid_argument for a configuration that cannot run (unknown or
// non-7-point variant, too few steps, bad size).
void validate_webb_config(const WebbConfig& config);
// The variants a configuration times, in registry order.
std::vector<const KernelVariant*> webb_variants(const WebbConfig& config);

// Webb's K20 seconds (Table 3) for one of his six designs, < 0 for others.
double webb_k20_seconds(const std::string& id);

// Runs the benchmark on the current CUDA device; progress lines go to `log`.
WebbResult run_webb_bench(const WebbConfig& config, std::ostream& log);

void print_webb_table(const WebbResult& result, std::ostream& out);
std::vector<BenchRecord> webb_records(const WebbResult& result);

}  // namespace ws::bench
