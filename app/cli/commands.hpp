#pragma once
// Each subcommand of `wavescope` lives in its own file under app/cli/ and adds
// itself to the CLI11 app through one of these functions (called from main).
// A command's callback returns the process exit status through `exit_code`.
#include <CLI/CLI.hpp>

namespace ws::cli {

// Exit status of the CLI: 0 ok, 1 runtime failure, 2 bad input (scene, option).
inline int& exit_code() {
  static int code = 0;
  return code;
}

struct DecompArgs;  // cli/decomp_setup.hpp

void add_run_command(CLI::App& app);
void add_kernels_command(CLI::App& app);
void add_render_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_stencil_command(CLI::App& app);
// The GUI (no subcommand): returns the exit status.
// `decomp`: --gpus / --slabs-per-gpu of the GUI (gui/gui_decomp.hpp).
// gl: "gpu" (the default GL) or "cpu" (Mesa's llvmpipe draws the window; the GPU runs only CUDA).
int run_gui(const std::string& scene_path, const std::string& backend, const std::string& gl,
            const DecompArgs& decomp);

}  // namespace ws::cli
