#pragma once
// `wavescope --scene F --gpus N|all`: the GUI's wave model over z-slabs (sim/decomp/),
// checked before the window opens so that bad values end with exit status 2.
#include <string>

#include "cli/decomp_setup.hpp"

namespace ws::gui {

// The slabs the GUI's wave scenes run on: with the cpu backend --gpus N means N CPU
// slabs (as in `bench scaling`), else N GPUs of this machine (decomp_setup.hpp), with
// --slabs-per-gpu K slabs on each. Empty options when neither is given. Throws
// std::invalid_argument naming the value and what is allowed: started by mpirun (the
// GUI draws in one process), more GPUs than present, 'all' with the cpu backend, more
// slabs than the scene's grid has room for (each slab holds at least the stencil's
// radius in planes), a sediment2d scene (one device only).
DecompOptions gui_decomp_options(const cli::DecompArgs& args, BackendChoice backend, const std::string& scene_path);

}  // namespace ws::gui
