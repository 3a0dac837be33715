#pragma once
// The GUI's state, owned by the frame loop and handed to every panel section.
// Panels never change the model in the middle of a frame: they write requests
// into `pending`, and the loop applies them at the frame boundary
// (frame_step.cpp), so a kernel or precision switch lands between two advances.
#include <array>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "color_scale.hpp"
#include "cuda/kernel_registry.hpp"
#include "gui/model_view.hpp"
#include "gui/session.hpp"
#include "orbit_camera.hpp"
#include "picking.hpp"

namespace ws::audio {
class AudioSession;
}

namespace ws::gui {

struct GuiContext;

struct RunControls {
  bool running = true;
  bool auto_steps = false;       // choose steps per frame to fill the frame budget
  int steps_per_frame = 4;       // fixed mode, and the current choice in auto mode
  float sim_budget_ms = 12.0f;   // auto mode: simulation time wanted per frame
  int max_steps_per_frame = 4096;
};

// Requests from the panels, applied at the next frame boundary.
struct PendingChanges {
  bool step_once = false;
  bool reset = false;
  std::optional<std::string> load_scene;
  std::optional<Precision> precision;
  std::optional<std::pair<std::string, LaunchOptions>> kernel;
  std::optional<std::string> stencil;  // WaveModel::set_stencil
  std::vector<std::pair<size_t, std::array<double, 3>>> source_moves, receiver_moves;
  // Other model-specific changes (the sediment kernels, ...); each looks the
  // model up through the context when it runs, and a throw lands in action_error.
  std::vector<std::function<void(GuiContext&)>> actions;
};

// A ring of recent values for the history plots, plus an exponential moving
// average that steadies the numbers printed beside them.
struct History {
  std::vector<float> values;
  size_t capacity = 240;
  float ema = 0.0f;
  float ema_weight = 0.05f;  // about the last 20 frames
  void push(float v) {
    ema = values.empty() ? v : ema + ema_weight * (v - ema);
    values.push_back(v);
    if (values.size() > capacity) values.erase(values.begin());
  }
};

struct Timing {
  History frame_ms, steps_per_s, gpoints_per_s, achieved_gbs, gflops;
  double last_frame_s = 0.0;
};

struct HoverInfo {
  std::optional<render::SliceHit> hit;
  float value = 0.0f;
  const char* where = "";
};

struct GuiContext {
  // The running model. `session` points into it while the wave model runs
  // (the wave panels use it and model()), and is null for the sediment model.
  std::unique_ptr<ModelView> view;
  Session* session = nullptr;
  std::shared_ptr<audio::AudioSession> audio;  // never null in the GUI; a missing device shows in its status
  BackendChoice backend = BackendChoice::Auto;
  DecompOptions decomp;  // --gpus: every wave scene loaded runs over these slabs (the sediment model on one device)
  std::string gl_renderer;  // the window's GL_RENDERER (who draws the views: --gl gpu or cpu)
  bool gl_software = false; // GL_RENDERER is a software rasteriser (render::is_software_renderer)
  std::string scene_path_input;  // the loader's text box
  std::string scene_error;       // the last load error (the previous scene keeps running)
  std::string action_error;      // the last rejected change (bad position, bad block size, ...)
  std::string stencil_error;     // the last refused stencil switch (shown under the selector)
  std::string blowup;            // set when the run blew up and paused

  RunControls run;
  bool advance_queued = false;  // advance_frame queued steps that finish_frame has not waited for
  bool advance_paced = false;   // ... and the audio clock chose their number
  PendingChanges pending;
  render::SlicePositions slice_pos;
  render::SliceAxis view_2d = render::SliceAxis::XY;
  render::ColorScale scale;
  render::OrbitCamera camera;
  bool show_obstacles = true;
  float obstacle_alpha = 0.45f;
  Timing timing;
  HoverInfo hover;
  // Last measured Gpoints/s of every kernel variant run this session, keyed
  // "id / precision / cache / block".
  std::map<std::string, double> variant_gpoints;
  bool quit = false;

  // The wave model; only for wave-model code (its sections are drawn only while it runs).
  WaveModel& model() { return session->model(); }
};

}  // namespace ws::gui
