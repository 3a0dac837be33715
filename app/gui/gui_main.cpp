// Replaced by the GUI work.
#include <iostream>
#include "cli/commands.hpp"
namespace ws::cli {
int run_gui(const std::string&, const std::string&) { std::cerr << "GUI not built yet\n"; return 1; }
}  // namespace ws::cli
