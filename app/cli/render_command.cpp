// Replaced by the render work (`wavescope render`).
#include "cli/commands.hpp"
namespace ws::cli {
void add_render_command(CLI::App& app) { (void)app; }
}  // namespace ws::cli
