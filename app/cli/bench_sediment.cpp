// `wavescope bench sediment`: the h- and s-kernels of Su et al. (2013) in the
// paper's four versions, GFLOP/s with the paper's 55 and 34 flops per point,
// Gpoints/s and the fraction of the copy-bandwidth roofline, with the paper's
// K20 figures (Table 2) printed beside. Exit 1 without a usable GPU.
#include <iomanip>
#include <iostream>
#include <memory>
#include <sstream>

#include "bench/sediment_bench.hpp"
#include "bench/text_table.hpp"
#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/interrupt.hpp"
#include "cuda/device_info.hpp"
#include "sediment/sediment_kernels.hpp"

namespace ws::cli {

namespace {

struct SedimentBenchArgs {
  int size = 4096;
  std::string precision = "double";
  int steps = 20;
  int reps = 11;
  int warmup = 3;
  std::vector<std::string> kernels;
  std::string json_path;
};

std::string fixed(double v, int digits) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << v;
  return os.str();
}

void print_table(const std::vector<bench::BenchRecord>& recs) {
  if (recs.empty()) return;
  const auto& r0 = recs.front();
  std::cout << "sediment transport kernels (Su et al. 2013), " << r0.nx << "x" << r0.ny << " cells, " << r0.precision
            << ", " << r0.device << "\n"
            << "copy bandwidth (roofline): " << std::fixed << std::setprecision(1) << r0.copy_gbs << " GB/s"
            << "  [K20 in the paper: " << bench::kPaperK20TestedBandwidthGbs << " GB/s tested]\n"
            << "bytes/point: each kernel reads 4 arrays and writes 1 (" << r0.bytes_per_point
            << " B); GFLOP/s with the paper's 55 (h) / 34 (s) flops per point, ours counted 49 / 53\n\n";
  using A = bench::TextTable::Align;
  bench::TextTable t({{"kernel", A::Left}, {"version", A::Left}, {"block", A::Left}, {"ms/launch", A::Right},
                      {"Gpts/s", A::Right}, {"GFLOP/s", A::Right}, {"GFLOP/s*", A::Right}, {"roofline", A::Right},
                      {"K20 paper", A::Right}, {"K20 roof", A::Right}});
  for (const auto& r : recs) {
    const auto& e = r.extra;
    std::vector<std::string> row{r.variant,
                                 e.value("version", ""),
                                 e.value("block", ""),
                                 fixed(e.value("seconds_per_launch", 0.0) * 1e3, 3),
                                 fixed(r.gpoints_per_s, 2),
                                 fixed(e.value("gflops_paper_count", 0.0), 1),
                                 fixed(e.value("gflops_counted", 0.0), 1),
                                 fixed(100.0 * r.roofline_fraction, 1) + "%"};
    if (e.contains("paper_k20_gflops")) {
      row.push_back(fixed(e["paper_k20_gflops"].get<double>(), 1));
      row.push_back(fixed(100.0 * e.value("paper_k20_roofline_fraction", 0.0), 1) + "%");
    }
    t.add_row(row);
  }
  t.print(std::cout);
  std::cout << "\nGFLOP/s: paper's flop counts; GFLOP/s*: flops counted in our point formulas. K20 paper: Table 2\n"
               "(step: the paper's overall 165 GFLOPs for OPT-3 h + OPT-1 s); K20 roof: those GFLOPs as a fraction of\n"
               "the K20's tested 160.88 GB/s with our byte counts (double). Medians of CUDA-event timings after "
               "warm-up.\n";
}

}  // namespace

void add_bench_sediment(CLI::App& bench) {
  auto a = std::make_shared<SedimentBenchArgs>();
  CLI::App* c = bench.add_subcommand("sediment", "Su et al. sediment kernels: 4 versions of the h- and s-kernels");
  c->add_option("--size", a->size, "cells per side (nx = ny); the paper: 4096")->check(CLI::Range(3, 32768));
  c->add_option("--precision", a->precision, "float or double (the paper: double)")
      ->check(CLI::IsMember({"float", "double"}));
  c->add_option("--steps", a->steps, "kernel launches per timed sample")->check(CLI::Range(1, 100000));
  c->add_option("--reps", a->reps, "timed samples (median reported)")->check(CLI::Range(1, 1000));
  c->add_option("--warmup", a->warmup, "untimed samples before timing")->check(CLI::Range(0, 1000));
  c->add_option("--kernels", a->kernels, "kernel ids to run (default: all; see the table)");
  c->add_option("--json", a->json_path, "also write the records as JSON to FILE")->check(writable_output("JSON file"));
  c->callback([a] {
    const CudaDeviceInfo dev = query_cuda_device();
    if (!dev.usable) {
      std::cerr << "bench sediment needs a CUDA GPU: " << dev.reason << "\n";
      exit_code() = 1;
      return;
    }
    bench::SedimentBenchOptions o;
    o.size = a->size;
    o.precision = parse_precision(a->precision);
    o.launches = a->steps;
    o.reps = a->reps;
    o.warmup = a->warmup;
    o.kernels = a->kernels;
    InterruptScope interrupt_scope;  // SIGINT/SIGTERM: stop after the kernel, report and write what was timed
    o.stop_requested = interrupted;
    try {
      const auto recs = bench::run_sediment_bench(o);
      print_table(recs);
      if (!a->json_path.empty()) {
        bench::write_json_records(a->json_path, recs);
        std::cout << "wrote " << recs.size() << " records to " << a->json_path << "\n";
      }
    } catch (const std::invalid_argument& e) {
      std::cerr << "bench sediment: " << e.what() << "\n";
      exit_code() = 2;
    } catch (const std::exception& e) {
      std::cerr << "bench sediment failed: " << e.what() << "\n";
      exit_code() = 1;
    }
    if (interrupted() && exit_code() == 0) {
      std::cerr << "bench sediment: " << interrupt_name() << "; the kernels timed so far are reported\n";
      exit_code() = interrupted_exit_code();
    }
  });
}

}  // namespace ws::cli
