// wavescope: watch, time and hear 3-D wave propagation computed on the GPU.
//   wavescope [--scene FILE] [--gpus N|all] [--gl gpu|cpu]   the GUI
//   wavescope run | render | kernels | bench | stencil ...
#include <iostream>

#include "cli/commands.hpp"
#include "cli/decomp_setup.hpp"

int main(int argc, char** argv) {
  CLI::App app{"wavescope: 3-D FDTD acoustics on the GPU, to watch, time and hear"};
  app.require_subcommand(0, 1);
  std::string scene = WS_DEFAULT_SCENE;
  std::string backend = "auto";
  app.add_option("--scene", scene, "scene file for the GUI (JSON)");
  app.add_option("--backend", backend, "solver backend for the GUI: auto, cpu, cuda")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  std::string gl = "gpu";
  app.add_option("--gl", gl,
                 "who draws the GUI's window: gpu (the default GL driver) or cpu (Mesa's llvmpipe, so that the GPU "
                 "runs only the solver; for datacenter GPUs, where each switch to GL costs the solver time)")
      ->check(CLI::IsMember({"gpu", "cpu"}))
      ->capture_default_str();
  ws::cli::DecompArgs decomp;  // the GUI's --gpus N|all (with --backend cpu: N CPU slabs) and --slabs-per-gpu
  ws::cli::add_decomp_options(app, decomp);
  ws::cli::add_run_command(app);
  ws::cli::add_render_command(app);
  ws::cli::add_kernels_command(app);
  ws::cli::add_bench_command(app);
  ws::cli::add_stencil_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;  // bad command-line input: status 2
  }
  if (app.get_subcommands().empty()) return ws::cli::run_gui(scene, backend, gl, decomp);
  return ws::cli::exit_code();
}
