// `wavescope render`: the GUI's views drawn offscreen through EGL's device
// platform (no window, no X server), with CUDA-GL interop when the solver runs
// on CUDA and the EGL device is the same GPU, written as PNG frames.
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli/commands.hpp"
#include "color_scale.hpp"
#include "egl_context.hpp"
#include "png_writer.hpp"
#include "room_geometry.hpp"
#include "scene/scene_json.hpp"
#include "slice_textures.hpp"
#include "view_renderer.hpp"
#include "wave/wave_model.hpp"

namespace ws::cli {

namespace {

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
};

struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

render::SliceAxis parse_axis(const std::string& s) {
  if (s == "xy") return render::SliceAxis::XY;
  if (s == "xz") return render::SliceAxis::XZ;
  if (s == "yz") return render::SliceAxis::YZ;
  throw BadInput("--slice '" + s + "' is not supported; allowed: xy, xz, yz");
}

// Everything one offscreen frame needs, built once.
struct OffscreenViews {
  render::ViewRenderer renderer;
  render::RenderTarget left, right;
  render::OrbitCamera camera;
  OffscreenViews(int w, int h) : left(w, h), right(w, h) {}
};

// Draws the requested view(s) and returns RGBA rows, top first (split: 3-D | 2-D side by side).
std::vector<uint8_t> draw_frame(OffscreenViews& v, const RenderOptions& o, const render::SliceTextures& slices,
                                const render::RoomGeometry& room, const render::ColorScale& scale, int& width) {
  const render::SliceAxis axis = parse_axis(o.slice);
  if (o.view == "3d") {
    v.renderer.draw_3d(v.left, v.camera, slices, room, scale);
    width = v.left.width();
    return v.left.read_rgba();
  }
  if (o.view == "2d") {
    v.renderer.draw_2d(v.left, axis, slices, room, scale);
    width = v.left.width();
    return v.left.read_rgba();
  }
  v.renderer.draw_3d(v.left, v.camera, slices, room, scale);
  v.renderer.draw_2d(v.right, axis, slices, room, scale);
  const auto a = v.left.read_rgba(), b = v.right.read_rgba();
  const int w = v.left.width(), h = v.left.height();
  std::vector<uint8_t> out((size_t)2 * w * h * 4);
  for (int y = 0; y < h; ++y) {
    std::memcpy(&out[(size_t)y * 2 * w * 4], &a[(size_t)y * w * 4], (size_t)w * 4);
    std::memcpy(&out[((size_t)y * 2 * w + w) * 4], &b[(size_t)y * w * 4], (size_t)w * 4);
  }
  width = 2 * w;
  return out;
}

std::string frame_path(const RenderOptions& o, int f) {
  std::ostringstream os;
  os << o.out_dir << "/frame_" << std::setw(4) << std::setfill('0') << f << ".png";
  return os.str();
}

int run(const RenderOptions& o) {
  // Input first, so bad input is refused before any GL or CUDA work.
  WaveScene scene;
  try {
    scene = load_wave_scene(o.scene);
    if (!o.precision.empty()) scene.precision = parse_precision(o.precision);
    parse_axis(o.slice);
  } catch (const std::exception& e) {
    std::cerr << "wavescope render: " << e.what() << "\n";
    return 2;
  }
  if (o.png.empty() && o.frames <= 0) {
    std::cerr << "wavescope render: give --png FILE for one frame or --frames K [--every S] --out-dir DIR\n";
    return 2;
  }
  if (!o.png.empty() && o.frames > 0) {
    std::cerr << "wavescope render: --png and --frames exclude each other\n";
    return 2;
  }
  if (o.size.size() != 2 || o.size[0] < 16 || o.size[1] < 16 || o.size[0] > 8192 || o.size[1] > 8192) {
    std::cerr << "wavescope render: --size must be W,H with each in [16, 8192]\n";
    return 2;
  }
  if (!o.slice_m.empty() && o.slice_m.size() != 3) {
    std::cerr << "wavescope render: --slice-m takes x,y,z in metres (3 values), got " << o.slice_m.size() << "\n";
    return 2;
  }
  std::unique_ptr<WaveModel> model;
  try {
    model = std::make_unique<WaveModel>(scene, parse_backend(o.backend), o.kernel);
  } catch (const std::invalid_argument& e) {
    std::cerr << "wavescope render: " << e.what() << "\n";
    return 2;
  }
  const DerivedGrid& g = model->grid();
  render::RoomGeometry room = render::make_room_geometry(model->scene(), g);
  render::SlicePositions pos{g.nx / 2, g.ny / 2, g.nz / 2};
  if (!o.slice_m.empty()) {
    for (int a = 0; a < 3; ++a) {
      const double lim = room.extent_m[a];
      if (!(o.slice_m[a] > 0.0 && o.slice_m[a] < lim)) {
        std::cerr << "wavescope render: --slice-m " << "xyz"[a] << " = " << o.slice_m[a]
                  << " m lies outside the room; allowed: (0, " << lim << ")\n";
        return 2;
      }
    }
    pos = {room.node_of((float)o.slice_m[0], 0), room.node_of((float)o.slice_m[1], 1),
           room.node_of((float)o.slice_m[2], 2)};
  }
  // By default: a single frame after 0.6 of the time sound takes to cross half the room.
  long long first_steps = o.steps;
  if (first_steps < 0 && o.seconds >= 0.0) first_steps = (long long)std::llround(o.seconds / g.dt_s);
  if (first_steps < 0) first_steps = o.frames > 0 ? 0 : (long long)(0.3 * room.extent_m.x / scene.sound_speed_m_s / g.dt_s);

  render::EglContext egl;
  std::cout << "GL_RENDERER: " << egl.renderer() << "\n"
            << "GL_VERSION: " << egl.version() << "\n"
            << "EGL device: " << egl.device().index << " of " << egl.device().count
            << (egl.device().software ? " (software)" : "") << (egl.device().matches_cuda ? " (CUDA device)" : "")
            << "\n"
            << "EGL device extensions: " << egl.device().extensions << "\n"
            << "solver: " << model->backend_note() << "\n";
  auto slices = std::make_unique<render::SliceTextures>(model->solver().current_field(), !o.no_interop);
  const bool interop = slices->mode() == render::SliceUploadMode::Interop;
  std::cout << "interop: " << (interop ? "yes" : "no") << (interop ? "" : " (" + slices->interop_note() + ")")
            << "\nslice upload: " << render::to_string(slices->mode()) << std::endl;

  OffscreenViews views(o.size[0], o.size[1]);
  views.camera.reset(room.extent_m);
  render::ColorScale scale;
  scale.automatic = o.range <= 0.0;
  scale.fixed_max = (float)o.range;
  scale.decibels = o.db;
  scale.db_span = (float)o.db_span;
  scale.auto_decay = 0.0f;  // one picture per frame: the range of that frame alone

  cudaStream_t stream = model->cuda() ? model->cuda()->stream() : nullptr;
  const int count = o.frames > 0 ? o.frames : 1;
  try {
    for (int f = 0; f < count; ++f) {
      const long long n = f == 0 ? first_steps : o.every;
      if (n > 0) model->advance((int)n);
      slices->update(model->solver().current_field(), pos, stream);
      scale.observe(slices->max_abs());
      int width = 0;
      const auto rgba = draw_frame(views, o, *slices, room, scale, width);
      const std::string path = o.frames > 0 ? frame_path(o, f) : o.png;
      std::ostringstream range, t;
      range << scale.range_max();
      t << model->time_s();
      render::write_png_rgba(path, width, (int)(rgba.size() / 4 / width), rgba,
                             {{"wavescope:step", std::to_string(model->step())},
                              {"wavescope:time_s", t.str()},
                              {"wavescope:colour_range", "+-" + range.str() + (o.db ? " dB scale" : " linear")}});
      std::cout << "wrote " << path << ": step " << model->step() << ", t = " << model->time_s()
                << " s, colour range +-" << scale.range_max() << (o.db ? " (dB, span " : "")
                << (o.db ? std::to_string((int)o.db_span) + " dB)" : "") << ", max|u| on slices "
                << slices->max_abs() << std::endl;
    }
  } catch (const BlowUpError& e) {
    std::cerr << "wavescope render: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

void add_render_command(CLI::App& app) {
  auto o = std::make_shared<RenderOptions>();
  CLI::App* c = app.add_subcommand(
      "render", "draw the slice views offscreen through EGL (no X server needed) and write PNG frames");
  c->add_option("--scene", o->scene, "scene file (JSON)")->required();
  c->add_option("--steps", o->steps, "time steps before the (first) frame")->check(CLI::NonNegativeNumber);
  c->add_option("--seconds", o->seconds, "simulated time before the (first) frame")->check(CLI::NonNegativeNumber);
  c->add_option("--png", o->png, "write one frame to this PNG file");
  c->add_option("--frames", o->frames, "write this many frames into --out-dir")->check(CLI::PositiveNumber);
  c->add_option("--every", o->every, "time steps between frames")->check(CLI::PositiveNumber)->capture_default_str();
  c->add_option("--out-dir", o->out_dir, "folder for frame_NNNN.png")->capture_default_str();
  c->add_option("--view", o->view, "3d, 2d or split (both side by side)")
      ->check(CLI::IsMember({"3d", "2d", "split"}))
      ->capture_default_str();
  c->add_option("--slice", o->slice, "the 2-D view's slice: xy, xz or yz")->capture_default_str();
  c->add_option("--slice-m", o->slice_m, "slice planes x,y,z in metres (default: the room's centre)")
      ->delimiter(',');
  c->add_option("--size", o->size, "image size W,H in pixels (per view)")->delimiter(',')->capture_default_str();
  c->add_option("--range", o->range, "fixed colour range +-R (default: automatic from max |u|)")
      ->check(CLI::NonNegativeNumber);
  c->add_flag("--db", o->db, "colour by level in decibels below the range");
  c->add_option("--db-span", o->db_span, "decibels shown below the range")->check(CLI::PositiveNumber);
  c->add_option("--backend", o->backend, "auto, cpu or cuda")->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  c->add_option("--kernel", o->kernel, "CUDA kernel variant id (see `wavescope kernels`)");
  c->add_option("--precision", o->precision, "override the scene: float or double")
      ->check(CLI::IsMember({"float", "double"}));
  c->add_flag("--no-interop", o->no_interop, "copy slices through the host even when interop works");
  c->callback([o] {
    try {
      if (o->frames > 0) std::filesystem::create_directories(o->out_dir);
      exit_code() = run(*o);
    } catch (const std::exception& e) {
      std::cerr << "wavescope render: " << e.what() << "\n";
      exit_code() = 1;
    }
  });
}

}  // namespace ws::cli
