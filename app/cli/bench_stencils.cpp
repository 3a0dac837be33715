// `wavescope bench stencils`: the CTPN sweep of Hamilton et al. (Fig. 7) on this
// GPU: the first stencils of each family, float and double, a medium and a large
// grid sized to the free device memory, the best registered kernel for each
// (or every kernel with --all-kernels). Prints a table, the performance
// targets met or missed, and writes CSV, JSON and a PNG plot on request.
// The work is in sim/bench/stencil_bench.*; the plot in cli/ctpn_plot.*.
#include <iomanip>
#include <iostream>
#include <sstream>

#include "bench/stencil_bench.hpp"
#include "bench/text_table.hpp"
#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/interrupt.hpp"
#include "cli/ctpn_plot.hpp"
#include "cuda/device_info.hpp"

namespace ws::cli {

namespace {

std::string fixed_text(double v, int digits) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << v;
  return os.str();
}

struct StencilBenchCli {
  std::string families = "leggy,compact,box";
  std::string precision = "both";
  std::string sizes = "medium,large";
  int per_family = 20;
  int steps = 3;
  int reps = 5;
  bool quick = false;
  bool all_kernels = false;
  double max_gpoints = 1.0;
  std::string csv, json, png;
  std::string stencils, kernels, block;
};

std::vector<std::string> split_list(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

// Exit status: 0 ok, 1 no GPU or a runtime failure, 2 bad options.
int run(const StencilBenchCli& o) {
  bench::StencilBenchOptions opt;
  try {
    opt.families = split_list(o.families);
    for (const auto& f : opt.families) bench::bench_stencil_names(f, 1);  // validates the name
    opt.precisions.clear();
    if (o.precision == "float" || o.precision == "both") opt.precisions.push_back(Precision::Float);
    if (o.precision == "double" || o.precision == "both") opt.precisions.push_back(Precision::Double);
    opt.sizes = split_list(o.sizes);
    for (const auto& s : opt.sizes)
      if (s != "medium" && s != "large")
        throw std::invalid_argument("--sizes: '" + s + "' is not known; allowed: medium, large");
    if (opt.families.empty() || opt.sizes.empty())
      throw std::invalid_argument("--families and --sizes need at least one entry");
    if (o.per_family < 1) throw std::invalid_argument("--per-family must be >= 1");
    if (o.steps < 1 || o.reps < 1) throw std::invalid_argument("--steps and --reps must be >= 1");
    if (!(o.max_gpoints > 0)) throw std::invalid_argument("--max-gpoints must be > 0");
    {  // ';' separates stencil names (box names contain commas)
      std::stringstream ss(o.stencils);
      std::string item;
      while (std::getline(ss, item, ';'))
        if (!item.empty()) opt.stencils.push_back(item);
    }
    opt.kernels = split_list(o.kernels);
    if (!o.block.empty()) {
      int v[3] = {0, 0, 1};
      char x1 = 0, x2 = 0;
      std::istringstream bs(o.block);
      bs >> v[0] >> x1 >> v[1];
      if (bs && !bs.eof() && bs.peek() == 'x') bs >> x2 >> v[2];
      if (!bs || x1 != 'x' || !bs.eof() || v[0] < 1 || v[1] < 1 || v[2] < 1)
        throw std::invalid_argument("--block: '" + o.block + "' is not XxY or XxYxZ with positive whole numbers");
      opt.block_x = v[0], opt.block_y = v[1], opt.block_z = v[2];
    }
  } catch (const std::exception& e) {
    std::cerr << "wavescope bench stencils: " << e.what() << "\n";
    return 2;
  }
  opt.per_family = o.per_family;
  opt.steps = o.quick ? std::min(o.steps, 2) : o.steps;
  opt.reps = o.quick ? std::min(o.reps, 3) : o.reps;
  opt.quick = o.quick;
  opt.all_kernels = o.all_kernels;
  opt.max_gpoints = o.max_gpoints;
  opt.log = [](const std::string& line) { std::cerr << line << "\n"; };

  const CudaDeviceInfo dev = query_cuda_device();
  if (!dev.usable) {
    std::cerr << "wavescope bench stencils: no usable CUDA device (" << dev.reason
              << "); this benchmark times GPU kernels and has no CPU fallback\n";
    return 1;
  }
  InterruptScope interrupt_scope;  // SIGINT/SIGTERM: stop after the measurement, report and write what was measured
  opt.stop_requested = interrupted;
  try {
    const bench::StencilBenchResult r = bench::run_stencil_bench(opt);
    std::cout << "device " << r.device << ", copy bandwidth " << std::fixed << std::setprecision(1) << r.copy_gbs
              << " GB/s (roofline: " << r.copy_gbs / 12 << " Gpts/s float, " << r.copy_gbs / 24
              << " double), L2 bandwidth " << r.l2_gbs << " GB/s (L2 roofline: " << r.l2_gbs / 12 << " Gpts/s float, "
              << r.l2_gbs / 24 << " double)\n";
    using A = bench::TextTable::Align;
    bench::TextTable t({{"family", A::Left}, {"stencil", A::Left}, {"K", A::Left}, {"prec", A::Left},
                        {"grid", A::Left}, {"kernel", A::Left}, {"CTPN ns", A::Right}, {"Gpts/s", A::Right},
                        {"roof %", A::Right}, {"L2 %", A::Right}});
    for (const auto& x : r.rows) {
      if (!x.best && !o.all_kernels) continue;
      t.add_row({x.family, x.stencil, std::to_string(x.points), x.precision, x.size,
                 x.kernel + (x.best && o.all_kernels ? "*" : ""), fixed_text(x.ctpn_ns, 4), fixed_text(x.gpoints_per_s, 2),
                 fixed_text(100 * x.roofline_fraction, 1),
                 r.l2_gbs > 0 ? fixed_text(100 * x.gpoints_per_s * (x.precision == "float" ? 12 : 24) / r.l2_gbs, 1)
                              : std::string("-")});
    }
    t.print(std::cout);
    for (const auto& t : r.targets) std::cout << "target " << t << "\n";
    for (const auto& n : r.notes) std::cout << "note: " << n << "\n";
    if (!o.csv.empty()) {
      bench::write_stencil_bench_csv(o.csv, r);
      std::cerr << "wrote " << o.csv << "\n";
    }
    if (!o.json.empty()) {
      bench::write_stencil_bench_json(o.json, r);
      std::cerr << "wrote " << o.json << "\n";
    }
    if (!o.png.empty()) {
      const std::string size = opt.sizes.back();  // the largest grid asked for
      write_ctpn_plot_png(o.png, r, size);
      std::cerr << "wrote " << o.png << " (" << size << " grid)\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "wavescope bench stencils: " << e.what() << "\n";
    return 1;
  }
  if (interrupted()) {
    std::cerr << "wavescope bench stencils: " << interrupt_name() << "; the measurements so far are reported\n";
    return interrupted_exit_code();
  }
  return 0;
}

}  // namespace

void add_bench_stencils(CLI::App& bench) {
  auto o = std::make_shared<StencilBenchCli>();
  CLI::App* c = bench.add_subcommand("stencils", "CTPN sweep over the stencil families (Hamilton et al. Fig. 7)");
  c->add_option("--families", o->families, "comma list of families: leggy, compact, box, named27")
      ->capture_default_str();
  c->add_option("--precision", o->precision, "float, double or both")
      ->check(CLI::IsMember({"float", "double", "both"}))
      ->capture_default_str();
  c->add_option("--sizes", o->sizes, "comma list of grids: medium, large (sized to free device memory)")
      ->capture_default_str();
  c->add_option("--per-family", o->per_family, "stencils per family (the paper: the first 20)")->capture_default_str();
  c->add_option("--steps", o->steps, "steps per timed repetition")->capture_default_str();
  c->add_option("--reps", o->reps, "timed repetitions (the median is reported)")->capture_default_str();
  c->add_option("--max-gpoints", o->max_gpoints, "cap on the large grid's interior points, in 1e9")
      ->capture_default_str();
  c->add_flag("--quick", o->quick, "small fixed grids (256x192x160, 320x256x224), <= 2 steps x 3 reps");
  c->add_flag("--all-kernels", o->all_kernels, "time every supporting kernel on every grid, not only the best");
  c->add_option("--stencils", o->stencils, "semicolon list of stencil names to time instead of the families' first ones, e.g. 'leggy:4;box:2,2,2'");
  c->add_option("--kernels", o->kernels, "comma list of kernel ids to time (default: every supporting kernel)");
  c->add_option("--block", o->block, "XxY or XxYxZ: the block of every kernel instead of its default (tuning)");
  c->add_option("--csv", o->csv, "write every measurement as CSV")->check(writable_output("CSV file"));
  c->add_option("--json", o->json, "write every measurement as JSON (BenchRecord list)")
      ->check(writable_output("JSON file"));
  c->add_option("--png", o->png, "write the CTPN-vs-points plot (the last grid of --sizes) as PNG")
      ->check(writable_output("PNG file"));
  c->callback([o] { exit_code() = run(*o); });
}

}  // namespace ws::cli
