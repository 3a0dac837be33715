// `wavescope bench realtime`: a user's scene end to end (walls, obstacles,
// sources, receivers, the GUI's frame loop of rate/60 steps per frame) beside
// the same kernel on the bare grid, with the step graph off and on, and with
// the GUI's views drawn offscreen through EGL every frame (display on) or not.
// The measurement is sim/bench/realtime_bench.*; this file adds the options and
// the display (the slices written through CUDA-GL interop on the solver's
// stream, the 3-D and 2-D views drawn as the GUI draws them, then presented with
// one frame in flight, the offscreen stand-in for a buffer swap).
// --gpus N|all runs the scene over z-slabs on N GPUs (the kernel-only comparison on
// the same slabs; the slices gathered through the host as in `render --gpus`).
#include <glad/gl.h>

#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>

#include "bench/realtime_bench.hpp"
#include "bench/webb_bench.hpp"
#include "cuda/kernel_registry.hpp"
#include "cli/commands.hpp"
#include "cli/decomp_setup.hpp"
#include "cli/interrupt.hpp"
#include "cli/option_checks.hpp"
#include "color_scale.hpp"
#include "cuda/device_info.hpp"
#include "decomp/slab_plan.hpp"
#include "egl_context.hpp"
#include "obstacle_mesh.hpp"
#include "orbit_camera.hpp"
#include "render_target.hpp"
#include "room_geometry.hpp"
#include "scene/scene_json.hpp"
#include "slice_textures.hpp"
#include "source/sampled_sources.hpp"
#include "view_renderer.hpp"
#include "wave/wave_model.hpp"

namespace ws::cli {

namespace {

struct RealtimeOptions {
  std::string scene;
  long long steps = 0;
  int steps_per_frame = 0;  // 0: rate / 60
  double frame_budget_ms = 0.0;  // > 0: the GUI's automatic steps per frame
  std::string kernel = "auto";
  std::string block;  // BX,BY: instead of the kernel's default (or auto's choice)
  int z_waves = 0;    // the whole-step kernels' z chunks (0: the kernel's rule or auto's choice)
  std::string display = "off";
  std::string display_gl = "gpu";  // who draws the views: the CUDA device's GL or the CPU's (Mesa)
  std::string graph = "both";
  std::string overlap = "on";
  std::string precision;
  double rate_hz = 0.0;
  int reps = 5;
  std::string json;
  DecompArgs decomp;  // --gpus N|all, --slabs-per-gpu: the scene over z-slabs
};

// The GUI's views for one model, built at its first frame (the model is made by the
// benchmark): three slice textures, the 3-D view with the obstacles and the 2-D view,
// at the GUI's default window sizes.
struct Display {
  render::ViewRenderer renderer;
  render::RenderTarget view_3d{1280, 720}, view_2d{460, 380};
  render::OrbitCamera camera;
  render::ColorScale scale;
  std::unique_ptr<render::SliceTextures> slices;
  std::unique_ptr<render::ObstacleMesh> obstacles;
  render::RoomGeometry room;
  render::SlicePositions pos;

  // Host time spent in capture() and draw() (and how many), over the whole benchmark:
  // where a frame's display cost lands on the host.
  double capture_s = 0.0, draw_s = 0.0;
  long long captures = 0, draws = 0;
  struct HostTimer {
    double& total;
    long long& count;
    std::chrono::steady_clock::time_point t0 = std::chrono::steady_clock::now();
    ~HostTimer() {
      total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      ++count;
    }
  };

  void capture(WaveModel& m) {
    HostTimer timer{capture_s, captures};
    if (!slices) {
      room = render::make_room_geometry(m.scene(), m.grid());
      camera.reset(room.extent_m);
      slices = std::make_unique<render::SliceTextures>(display_field(m.solver()));
      pos = slices->positions();
      const render::SceneObstacles o = render::scene_obstacles(m.scene());
      if (!o.triangles.empty()) obstacles = std::make_unique<render::ObstacleMesh>(o.triangles);
    }
    // On slabs the field is gathered through the host (as `render --gpus`).
    slices->update(m.solver().slice_field(pos.i, pos.j, pos.k), pos, m.cuda() ? m.cuda()->stream() : nullptr);
    scale.observe(slices->max_abs_latest());  // as the GUI: no wait for the device
  }

  void draw() {
    HostTimer timer{draw_s, draws};
    renderer.draw_3d(view_3d, camera, *slices, room, scale, {}, obstacles.get());
    renderer.draw_2d(view_2d, render::SliceAxis::XY, *slices, room, scale);
    present();
  }

  // A swap chain's pacing offscreen: this frame is submitted, and the host waits only
  // for the frame before it (one frame in flight), so the next frame's steps are queued
  // while this one draws, as behind a GUI's buffer swap.
  void present() {
    glFlush();
    if (in_flight) {
      glClientWaitSync(in_flight, GL_SYNC_FLUSH_COMMANDS_BIT, GLuint64(10) * 1000000000u);
      glDeleteSync(in_flight);
    }
    in_flight = glFenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  }
  void finish() {
    glFinish();
    if (in_flight) glDeleteSync(in_flight);
    in_flight = nullptr;
  }
  ~Display() {
    if (in_flight) glDeleteSync(in_flight);
  }
  GLsync in_flight = nullptr;
};

std::vector<bool> modes(const std::string& s) {
  if (s == "on") return {true};
  if (s == "off") return {false};
  return {false, true};
}

// Exit status: 0 ok, 1 no GPU or a runtime failure, 2 bad options or scene.
int run_realtime(const RealtimeOptions& o) {
  // Declared before cfg, whose closures share the display: destroyed after them, the
  // GL objects before their context.
  std::unique_ptr<render::EglContext> egl;
  std::shared_ptr<Display> display;
  bench::RealtimeConfig cfg;
  try {
    cfg.scene = load_wave_scene(o.scene);
    if (!o.precision.empty()) cfg.scene.precision = parse_precision(o.precision);
    if (o.rate_hz > 0) cfg.scene.sample_rate_hz = o.rate_hz;
    audio::load_scene_signals(cfg.scene);  // WAV files and dry signals, at the rate that runs
    (void)derive_grid(cfg.scene);  // a rate the scene cannot run is bad input, reported here
    cfg.scene_label = std::filesystem::path(o.scene).filename().string();
    cfg.kernel = o.kernel;
    if (o.kernel != "auto") (void)KernelRegistry::instance().at(o.kernel);  // lists the ids when unknown
    if (!o.block.empty()) cfg.block = bench::parse_block(o.block);
    cfg.z_waves = o.z_waves;
    cfg.steps = o.steps;
    cfg.steps_per_frame = o.steps_per_frame;
    cfg.frame_budget_ms = o.frame_budget_ms;
    cfg.reps = o.reps;
    cfg.graph_modes = modes(o.graph);
    cfg.display_modes = modes(o.display);
    cfg.overlap = o.overlap == "on";
    if (o.display != "off") {  // replaced below, once GL is up
      cfg.capture_frame = [](WaveModel&) {};
      cfg.draw_frame = [] {};
    }
    bench::validate_realtime_config(cfg);
  } catch (const std::exception& e) {
    std::cerr << "wavescope bench realtime: " << e.what() << "\n";
    return 2;
  }
  // --gpus before the device check: more GPUs than present (none here) is bad input.
  try {
    if (launched_by_mpi())
      throw std::invalid_argument("bench realtime runs in one process (started by mpirun); use --gpus N for "
                                  "several GPUs, or `mpirun ... wavescope bench scaling`");
    cfg.decomp = make_decomp_setup(o.decomp, BackendChoice::Cuda).options;
    const DerivedGrid g = derive_grid(cfg.scene);
    const int slabs = (int)cfg.decomp.devices.size();
    if (slabs > 1) (void)make_slab_plan(g.nz, slabs, halo_for(g.stencil), "slabs");  // names nz and the limit
    if (o.display_gl != "gpu" && o.display == "off")
      throw std::invalid_argument("--display-gl " + o.display_gl + " needs the display: --display on or both");
    if (slabs > 0 && cfg.block.x > 0)
      throw std::invalid_argument("--block '" + o.block + "' applies to one GPU; the slabs run their kernel's default");
    if (slabs > 0) (void)slab_kernel(g.stencil, cfg.scene.precision, o.kernel == "auto" ? "" : o.kernel);
  } catch (const std::invalid_argument& e) {
    std::cerr << "wavescope bench realtime: " << e.what() << "\n";
    return 2;
  }
  const CudaDeviceInfo dev = query_cuda_device();
  if (!dev.usable) {
    std::cerr << "wavescope bench realtime: no usable CUDA device (" << dev.reason
              << "); this benchmark times the GPU solver and has no CPU fallback\n";
    return 1;
  }
  InterruptScope interrupt_scope;  // SIGINT/SIGTERM: report the modes measured so far
  cfg.stop_requested = interrupted;
  try {
    if (o.display != "off") {
      egl = std::make_unique<render::EglContext>(o.display_gl == "cpu" ? render::GlDevice::Software
                                                                         : render::GlDevice::Gpu);
      display = std::make_shared<Display>();
      cfg.capture_frame = [display](WaveModel& m) { display->capture(m); };
      cfg.draw_frame = [display] { display->draw(); };
      cfg.finish_display = [display] { display->finish(); };
      cfg.display_note = "EGL " + egl->renderer() +
                         (egl->device().matches_cuda ? " (the CUDA device)"
                          : egl->device().software   ? " (the CPU)"
                                                     : "") +
                         "; 3-D view 1280x720 and 2-D view 460x380 per frame, slices through " +
                         (render::interop_unavailable_reason().empty() ? "CUDA-GL interop" : "a staged upload");
    }
    const auto result = bench::run_realtime_bench(cfg, std::cerr);
    bench::print_realtime_table(result, std::cout);
    if (display && display->captures > 0 && display->draws > 0)
      std::cout << "  display host time per frame (all modes): capture " << std::fixed << std::setprecision(3)
                << display->capture_s / display->captures * 1e3 << " ms, draw and present "
                << display->draw_s / display->draws * 1e3 << " ms\n" << std::defaultfloat;
    if (display && display->slices && display->slices->mode() != render::SliceUploadMode::Interop)
      std::cout << "  display: slices " << render::to_string(display->slices->mode()) << " ("
                << display->slices->interop_note() << ")\n";
    if (!o.json.empty()) {
      bench::write_json_records(o.json, bench::realtime_records(result));
      std::cerr << "wrote " << o.json << " (" << result.rows.size() << " records)\n";
    }
  } catch (const BlowUpError& e) {
    std::cerr << "wavescope bench realtime: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "wavescope bench realtime: " << e.what() << "\n";
    return 1;
  }
  if (interrupted()) {
    std::cerr << "wavescope bench realtime: " << interrupt_name() << "; the modes measured so far are reported\n";
    return interrupted_exit_code();
  }
  return 0;
}

}  // namespace

void add_bench_realtime(CLI::App& bench) {
  auto o = std::make_shared<RealtimeOptions>();
  CLI::App* c = bench.add_subcommand(
      "realtime", "a scene end to end in the GUI's frame loop: steps/s, real-time factor, kernel-only throughput, "
                  "launches per step, graph and display on/off");
  c->add_option("--scene", o->scene, "scene file (JSON)")->required();
  c->add_option("--steps", o->steps, "timed steps per repetition (default: 30 frames of rate/60 steps)")
      ->check(CLI::PositiveNumber);
  c->add_option("--steps-per-frame", o->steps_per_frame,
                 "steps the frame loop queues per frame (default: rate/60, real time at 60 frames a second; "
                 "the GUI's automatic mode runs more when the room is faster than real time)")
      ->check(CLI::Range(1, 1 << 20));
  c->add_option("--frame-budget-ms", o->frame_budget_ms,
                "steps per frame as the GUI's automatic mode chooses them: as many as the scene runs headless in "
                "this many ms (the GUI's default budget is 12), found before the timed modes; instead of "
                "--steps-per-frame")
      ->check(CLI::Range(0.01, 10000.0));
  c->add_option("--kernel", o->kernel, "kernel id (see `wavescope kernels`) or auto (the autotuned choice)")
      ->capture_default_str();
  c->add_option("--block", o->block, "BX,BY: the kernel's block instead of its default or auto's (tuning)");
  c->add_option("--z-waves", o->z_waves,
                "the whole-step kernels' z chunks sized for this many waves of resident blocks instead of the "
                "kernel's rule or auto's choice (tuning)")
      ->check(CLI::Range(1, kMaxZWaves));
  c->add_option("--display", o->display, "the GUI's views drawn offscreen every frame: on, off or both")
      ->check(CLI::IsMember({"on", "off", "both"}))
      ->capture_default_str();
  c->add_option("--display-gl", o->display_gl,
                 "who draws the views: gpu (the CUDA device's GL, slices through CUDA-GL interop) or cpu (Mesa's "
                 "llvmpipe, slices copied to the host on the solver's stream; the GPU then never switches to GL)")
      ->check(CLI::IsMember({"gpu", "cpu"}))
      ->capture_default_str();
  c->add_option("--graph", o->graph, "the step graph (one launch per run of steps): on, off or both")
      ->check(CLI::IsMember({"on", "off", "both"}))
      ->capture_default_str();
  c->add_option("--overlap", o->overlap,
                "on: the GUI's frame loop (a frame's steps queued before it draws); off: each frame drawn after "
                "its steps finished (for comparison)")
      ->check(CLI::IsMember({"on", "off"}))
      ->capture_default_str();
  c->add_option("--rate-hz", o->rate_hz, "override the scene's sample_rate_hz (the grid follows)")
      ->check(CLI::Range(100.0, 1e7));
  c->add_option("--precision", o->precision, "override the scene: float or double")
      ->check(CLI::IsMember({"float", "double"}));
  c->add_option("--reps", o->reps, "timed repetitions (the median is reported)")
      ->check(CLI::Range(1, 100))
      ->capture_default_str();
  c->add_option("--json", o->json, "also write one JSON record per mode to this file")->check(writable_output("JSON file"));
  add_decomp_options(*c, o->decomp);
  c->callback([o] { exit_code() = run_realtime(*o); });
}

}  // namespace ws::cli
