// `wavescope bench webb`: Webb's standard simulation (256 x 296 x 212 points
// with the fixed boundary, double, 44,100 steps) for every 7-point kernel
// variant, printed in the layout of Webb's Table 3 plus Gpoints/s and the
// fraction of the copy-bandwidth roofline. The work is in sim/bench/webb_bench.*.
#include <iostream>

#include "bench/webb_bench.hpp"
#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/interrupt.hpp"
#include "cuda/device_info.hpp"

namespace ws::cli {

namespace {

struct WebbOptions {
  std::string size = "256,296,212";
  std::string precision = "double";
  long long steps = bench::kWebbSteps;
  std::string variants;
  std::string cache = "on";
  int segments = 5;
  std::string block;
  std::string walls = "fixed";
  std::string json;
};

// Exit status: 0 ok, 1 no GPU or a runtime failure, 2 bad options.
int run_webb(const WebbOptions& o) {
  bench::WebbConfig cfg;
  try {
    cfg.size_with_boundary = bench::parse_size_with_boundary(o.size);
    cfg.precisions.clear();
    if (o.precision == "float" || o.precision == "both") cfg.precisions.push_back(Precision::Float);
    if (o.precision == "double" || o.precision == "both") cfg.precisions.push_back(Precision::Double);
    cfg.readonly_modes.clear();
    if (o.cache == "on" || o.cache == "both") cfg.readonly_modes.push_back(true);
    if (o.cache == "off" || o.cache == "both") cfg.readonly_modes.push_back(false);
    cfg.steps = o.steps;
    cfg.segments = o.segments;
    cfg.walls = o.walls;
    if (!o.variants.empty()) cfg.variants = bench::parse_id_list(o.variants);
    if (!o.block.empty()) {
      cfg.block = bench::parse_block(o.block);
      cfg.override_block = true;
    }
    bench::validate_webb_config(cfg);
  } catch (const std::exception& e) {
    std::cerr << "wavescope bench webb: " << e.what() << "\n";
    return 2;
  }
  const CudaDeviceInfo dev = query_cuda_device();
  if (!dev.usable) {
    std::cerr << "wavescope bench webb: no usable CUDA device (" << dev.reason
              << "); this benchmark times GPU kernels and has no CPU fallback\n";
    return 1;
  }
  InterruptScope interrupt_scope;  // SIGINT/SIGTERM: stop after the variant, report and write what was timed
  cfg.stop_requested = interrupted;
  try {
    const auto result = bench::run_webb_bench(cfg, std::cerr);
    bench::print_webb_table(result, std::cout);
    if (!o.json.empty()) {
      bench::write_json_records(o.json, bench::webb_records(result));
      std::cerr << "wrote " << o.json << " (" << result.rows.size() << " records)\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "wavescope bench webb: " << e.what() << "\n";
    return 1;
  }
  if (interrupted()) {
    std::cerr << "wavescope bench webb: " << interrupt_name() << "; the variants timed so far are reported\n";
    return interrupted_exit_code();
  }
  return 0;
}

}  // namespace

void add_bench_webb(CLI::App& bench) {
  auto o = std::make_shared<WebbOptions>();
  CLI::App* c = bench.add_subcommand(
      "webb", "Webb's standard simulation (256x296x212 points incl. boundary, 44,100 steps) for every 7-point kernel");
  c->add_option("--size", o->size,
                "NX,NY,NZ grid points including the one-point fixed boundary on each side (Webb's convention; "
                "the interior is two less per axis)")
      ->capture_default_str();
  c->add_option("--precision", o->precision, "float, double or both")
      ->check(CLI::IsMember({"float", "double", "both"}))
      ->capture_default_str();
  c->add_option("--steps", o->steps,
                "timed steps: 44100 for the full run, or at least 2000, extrapolated to 44,100")
      ->capture_default_str();
  c->add_option("--variants", o->variants, "comma-separated kernel ids (default: every 7-point variant)");
  c->add_option("--cache", o->cache, "read-only data cache: on, off or both")
      ->check(CLI::IsMember({"on", "off", "both"}))
      ->capture_default_str();
  c->add_option("--segments", o->segments, "timed segments per variant (the median is reported)")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  c->add_option("--block", o->block,
                "BX,BY[,BZ]: run every selected variant with this block instead of its default "
                "(halo_threads: the block includes its rim)");
  c->add_option("--walls", o->walls,
                "fixed (Webb's) or absorbing (all six walls locally reacting: measures the cost of the boundary nodes)")
      ->check(CLI::IsMember({"fixed", "absorbing"}))
      ->capture_default_str();
  c->add_option("--json", o->json, "also write one JSON record per variant to this file")
      ->check(writable_output("JSON file"));
  c->callback([o] { exit_code() = run_webb(*o); });
}

}  // namespace ws::cli
