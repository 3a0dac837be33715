// `wavescope render`: the GUI's views drawn offscreen through EGL's device
// platform (no window, no X server), with CUDA-GL interop when the solver runs
// on CUDA and the EGL device is the same GPU, written as PNG frames. Wave
// scenes draw the slices (and the obstacles); sediment scenes ("model":
// "sediment2d") draw the height surface (render_sediment.cpp).
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "cli/commands.hpp"
#include "cli/interrupt.hpp"
#include "cli/option_checks.hpp"
#include "cli/render_options.hpp"
#include "core/grid_too_large.hpp"
#include "color_scale.hpp"
#include "egl_context.hpp"
#include "obstacle_mesh.hpp"
#include "png_writer.hpp"
#include "room_geometry.hpp"
#include "scene/scene_json.hpp"
#include "source/sampled_sources.hpp"
#include "slice_textures.hpp"
#include "view_renderer.hpp"
#include "wave/wave_model.hpp"

namespace ws::cli {

namespace {

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
                                const render::RoomGeometry& room, const render::ColorScale& scale,
                                const render::ObstacleMesh* obstacles, int& width) {
  const render::SliceAxis axis = parse_axis(o.slice);
  if (o.view == "3d") {
    v.renderer.draw_3d(v.left, v.camera, slices, room, scale, {}, obstacles);
    width = v.left.width();
    return v.left.read_rgba();
  }
  if (o.view == "2d") {
    v.renderer.draw_2d(v.left, axis, slices, room, scale);
    width = v.left.width();
    return v.left.read_rgba();
  }
  v.renderer.draw_3d(v.left, v.camera, slices, room, scale, {}, obstacles);
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

int run(const RenderOptions& o) {
  // Input first, so bad input is refused before any GL or CUDA work.
  std::string model_name;
  try {
    model_name = scene_model(load_json_file(o.scene));
  } catch (const std::exception& e) {
    std::cerr << "wavescope render: " << e.what() << "\n";
    return 2;
  }
  if (model_name == "sediment2d") return run_sediment_render(o);
  WaveScene scene;
  try {
    scene = load_wave_scene(o.scene);
    audio::load_scene_signals(scene);  // WAV files and dry signals (a bad file: status 2)
    if (!o.precision.empty()) scene.precision = parse_precision(o.precision);
    parse_axis(o.slice);
  } catch (const std::exception& e) {
    std::cerr << "wavescope render: " << e.what() << "\n";
    return 2;
  }
  if (const std::string bad = check_output_options(o); !bad.empty()) {
    std::cerr << "wavescope render: " << bad << "\n";
    return 2;
  }
  if (!o.slice_m.empty() && o.slice_m.size() != 3) {
    std::cerr << "wavescope render: --slice-m takes x,y,z in metres (3 values), got " << o.slice_m.size() << "\n";
    return 2;
  }
  // Several GPUs in this process: the slices are gathered from the slabs each frame
  // (through the host). mpirun is for run and bench scaling: one process draws.
  DecompSetup decomp;
  try {
    decomp = make_decomp_setup(o.decomp, parse_backend(o.backend));
    if (decomp.ranks() > 1)
      throw std::invalid_argument("render draws in one process (got " + std::to_string(decomp.ranks()) +
                                  " MPI ranks); use --gpus N for several GPUs");
  } catch (const std::invalid_argument& e) {
    std::cerr << "wavescope render: " << e.what() << "\n";
    return 2;
  }
  if (const std::string why = kernel_id_error(o.kernel); !why.empty()) {  // on every backend
    std::cerr << "wavescope render: " << why << "\n";
    return 2;
  }
  std::unique_ptr<WaveModel> model;
  try {
    model = std::make_unique<WaveModel>(scene, parse_backend(o.backend), o.kernel.empty() ? "auto" : o.kernel,
                                        decomp.options);
  } catch (const SceneError& e) {  // e.g. a source inside an obstacle
    std::cerr << "wavescope render: " << e.what() << "\n";
    return 2;
  } catch (const GridTooLargeError& e) {  // host or GPU memory, checked before allocating
    std::cerr << "wavescope render: " << e.what() << "\n";
    return 2;
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

  render::EglContext egl(render_gl_device(o));
  std::cout << "GL_RENDERER: " << egl.renderer() << "\n"
            << "GL_VERSION: " << egl.version() << "\n"
            << "EGL device: " << egl.device().index << " of " << egl.device().count
            << (egl.device().software ? " (software)" : "") << (egl.device().matches_cuda ? " (CUDA device)" : "")
            << "\n"
            << "EGL device extensions: " << egl.device().extensions << "\n"
            << "solver: " << model->backend_note() << "\n";
  auto slices = std::make_unique<render::SliceTextures>(display_field(model->solver()), !o.no_interop);
  const bool interop = slices->mode() == render::SliceUploadMode::Interop;
  std::cout << "interop: " << (interop ? "yes" : "no") << (interop ? "" : " (" + slices->interop_note() + ")")
            << "\nslice upload: " << render::to_string(slices->mode()) << std::endl;

  // The obstacles as the GUI draws them: see-through, a colour per material.
  const render::SceneObstacles obstacles = render::scene_obstacles(model->scene());
  std::unique_ptr<render::ObstacleMesh> obstacle_mesh;
  if (!obstacles.triangles.empty() && !o.hide_obstacles) obstacle_mesh = std::make_unique<render::ObstacleMesh>(obstacles.triangles);
  std::cout << "obstacles: " << obstacles.obstacle_count << " (" << obstacles.triangles.size() << " triangles)\n";
  for (const auto& w : obstacles.warnings) std::cout << "geometry warning: " << w << "\n";

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
  InterruptScope interrupt_scope;  // SIGINT/SIGTERM: the frame in progress is written at the step reached
  try {
    for (int f = 0; f < count && !interrupted(); ++f) {
      const long long n = f == 0 ? first_steps : o.every;
      advance_until_interrupted(*model, n);
      slices->update(model->solver().slice_field(pos.i, pos.j, pos.k), pos, stream);
      scale.observe(slices->max_abs());
      int width = 0;
      const auto rgba = draw_frame(views, o, *slices, room, scale, obstacle_mesh.get(), width);
      const std::string path = o.frames > 0 ? render_frame_path(o, f) : o.png;
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
  if (interrupted()) {
    std::cerr << "wavescope render: " << interrupt_name() << " at step " << model->step()
              << "; the frames written so far are kept\n";
    return interrupted_exit_code();
  }
  return 0;
}

}  // namespace

std::string check_output_options(const RenderOptions& o) {
  if (o.png.empty() && o.frames <= 0) return "give --png FILE for one frame or --frames K [--every S] --out-dir DIR";
  if (!o.png.empty() && o.frames > 0) return "--png and --frames exclude each other";
  if (o.size.size() != 2 || o.size[0] < 16 || o.size[1] < 16 || o.size[0] > 8192 || o.size[1] > 8192)
    return "--size must be W,H with each in [16, 8192]";
  return "";
}

std::string render_frame_path(const RenderOptions& o, int f) {
  std::ostringstream os;
  os << o.out_dir << "/frame_" << std::setw(4) << std::setfill('0') << f << ".png";
  return os.str();
}

void add_render_command(CLI::App& app) {
  auto o = std::make_shared<RenderOptions>();
  CLI::App* c = app.add_subcommand(
      "render",
      "draw the views offscreen through EGL (no X server needed) and write PNG frames: the slices (and "
      "obstacles) of a wave scene, the height surface of a sediment scene");
  c->add_option("--scene", o->scene, "scene file (JSON)")->required();
  c->add_option("--steps", o->steps, "time steps before the (first) frame")->check(non_negative());
  c->add_option("--seconds", o->seconds, "simulated time before the (first) frame")->check(non_negative());
  c->add_option("--png", o->png, "write one frame to this PNG file")->check(writable_output("PNG file"));
  c->add_option("--frames", o->frames, "write this many frames into --out-dir")->check(positive());
  c->add_option("--every", o->every, "time steps between frames")->check(positive())->capture_default_str();
  c->add_option("--out-dir", o->out_dir, "folder for frame_NNNN.png")->capture_default_str();
  c->add_option("--view", o->view, "3d, 2d or split (both side by side)")
      ->check(CLI::IsMember({"3d", "2d", "split"}))
      ->capture_default_str();
  c->add_option("--slice", o->slice, "the 2-D view's slice: xy, xz or yz")->capture_default_str();
  c->add_option("--slice-m", o->slice_m, "slice planes x,y,z in metres (default: the room's centre)")
      ->delimiter(',');
  c->add_option("--size", o->size, "image size W,H in pixels (per view)")->delimiter(',')->capture_default_str();
  c->add_option("--range", o->range, "fixed colour range +-R (default: automatic from max |u|)")
      ->check(non_negative());
  c->add_flag("--db", o->db, "colour by level in decibels below the range");
  c->add_option("--db-span", o->db_span, "decibels shown below the range")->check(positive());
  c->add_option("--backend", o->backend, "auto, cpu or cuda")->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  c->add_option("--kernel", o->kernel,
                "CUDA kernel variant id (see `wavescope kernels`) or auto (the default for wave scenes: the fastest "
                "on the scene's grid, measured once and cached); sediment scenes: h- and/or s-kernel ids, comma "
                "separated (e.g. h-opt2,s-opt3)");
  c->add_option("--precision", o->precision, "override the scene: float or double")
      ->check(CLI::IsMember({"float", "double"}));
  c->add_option("--gl", o->gl,
                 "who draws: gpu (the CUDA device's GL) or cpu (Mesa's llvmpipe; the slices are copied through the "
                 "host, and the GPU never switches from the solver to a GL context)")
      ->check(CLI::IsMember({"gpu", "cpu"}))
      ->capture_default_str();
  c->add_flag("--no-interop", o->no_interop, "copy slices (or the height surface) through the host even when interop works");
  c->add_flag("--hide-obstacles", o->hide_obstacles, "wave scenes: leave the obstacles out of the 3-D view");
  c->add_option("--exaggeration", o->exaggeration, "sediment scenes: vertical exaggeration of h (default: automatic)")
      ->check(non_negative());
  add_decomp_options(*c, o->decomp);
  c->callback([o] {
    try {
      if (o->frames > 0) {  // the frames' folder made and checked before any step
        std::error_code ec;
        std::filesystem::create_directories(o->out_dir, ec);
        std::string why = ec ? "cannot make the frames' folder '" + o->out_dir + "': " + ec.message() : "";
        if (why.empty()) why = util::output_path_error(render_frame_path(*o, 0), "PNG file");
        if (!why.empty()) {
          std::cerr << "wavescope render: " << why << "\n";
          exit_code() = 2;
          return;
        }
      }
      exit_code() = run(*o);
    } catch (const std::exception& e) {
      std::cerr << "wavescope render: " << e.what() << "\n";
      exit_code() = 1;
    }
  });
}

}  // namespace ws::cli
