// Replaced by the stencil-families work (`wavescope stencil list|info`).
#include "cli/commands.hpp"
namespace ws::cli {
void add_stencil_command(CLI::App& app) { (void)app; }
}  // namespace ws::cli
