// `wavescope bench <name>`: the benchmarks, one file each (bench_*.cpp).
#include "cli/commands.hpp"

namespace ws::cli {

void add_bench_webb(CLI::App& bench);
void add_bench_stencils(CLI::App& bench);
void add_bench_sediment(CLI::App& bench);
void add_bench_realtime(CLI::App& bench);
void add_bench_scaling(CLI::App& bench);

void add_bench_command(CLI::App& app) {
  CLI::App* bench = app.add_subcommand("bench", "GPU benchmarks (CUDA events, medians, copy-bandwidth roofline)");
  bench->require_subcommand(1);
  add_bench_webb(*bench);
  add_bench_stencils(*bench);
  add_bench_sediment(*bench);
  add_bench_realtime(*bench);
  add_bench_scaling(*bench);
}

}  // namespace ws::cli
