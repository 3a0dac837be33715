// Owned by the webb benchmark work; replaced by the real benchmark.
#include "cli/commands.hpp"
namespace ws::cli {
void add_bench_webb(CLI::App& bench) { (void)bench; }
}  // namespace ws::cli
