#pragma once
// `wavescope render`'s options, shared by the wave path (render_command.cpp)
// and the sediment path (render_sediment.cpp): the scene file's "model" key
// picks the path.
#include <string>
#include <vector>

#include "cli/decomp_setup.hpp"
#include "egl_context.hpp"

namespace ws::cli {

struct RenderOptions {
  std::string scene;
  long long steps = -1;
  double seconds = -1.0;
  std::string png;
  int frames = 0;
  long long every = 10;
  std::string out_dir = "frames";
  std::string view = "3d";
  std::string slice = "xy";
  std::vector<int> size{960, 720};
  std::vector<double> slice_m;  // x, y, z of the slice planes in metres
  double range = 0.0;           // fixed colour range; 0: automatic
  bool db = false;
  double db_span = 60.0;
  std::string backend = "auto";
  std::string kernel;
  std::string precision;
  bool no_interop = false;
  std::string gl = "gpu";       // who draws: gpu (the CUDA device's GL) or cpu (Mesa's llvmpipe)
  bool hide_obstacles = false;  // wave: leave the obstacles out of the 3-D view
  double exaggeration = 0.0;    // sediment: vertical exaggeration; 0: automatic
  DecompArgs decomp;            // wave: --gpus, --slabs-per-gpu (one process)
};

// The checks both models share (one picture or frames, the size); an empty
// string when the options are fine, else the message (exit status 2).
std::string check_output_options(const RenderOptions& o);
inline render::GlDevice render_gl_device(const RenderOptions& o) {
  return o.gl == "cpu" ? render::GlDevice::Software : render::GlDevice::Gpu;
}
// frames mode: DIR/frame_NNNN.png
std::string render_frame_path(const RenderOptions& o, int frame);

// The sediment model's height view to PNG (render_sediment.cpp); the exit status.
int run_sediment_render(const RenderOptions& o);

}  // namespace ws::cli
