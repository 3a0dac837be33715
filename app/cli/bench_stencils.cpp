// Owned by the stencils benchmark work; replaced by the real benchmark.
#include "cli/commands.hpp"
namespace ws::cli {
void add_bench_stencils(CLI::App& bench) { (void)bench; }
}  // namespace ws::cli
