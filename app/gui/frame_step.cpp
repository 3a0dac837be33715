#include "gui/frame_step.hpp"

#include <algorithm>
#include <cmath>

#include "playback/audio_session.hpp"

namespace ws::gui {

bool load_scene(GuiContext& ctx, const std::string& path) {
  try {
    auto fresh = load_model_view(path, ctx.backend, ctx.decomp);
    // The old model (and its GL objects) go only now; `session` follows the view at once.
    ctx.session = nullptr;
    ctx.view = std::move(fresh);
    ctx.session = ctx.view->wave_session();
    if (ctx.session) {
      const auto& g = ctx.model().grid();
      ctx.slice_pos = {g.nx / 2, g.ny / 2, g.nz / 2};
    }
    ctx.view->frame_camera(ctx.camera);
    ctx.scale.auto_max = 0.0f;
    // The throughput plots start afresh: another scene (or model) runs at other speeds.
    ctx.timing.steps_per_s = ctx.timing.gpoints_per_s = ctx.timing.achieved_gbs = ctx.timing.gflops = History();
    ctx.scene_path_input = path;
    ctx.scene_error.clear();
    ctx.action_error.clear();
    ctx.stencil_error.clear();
    ctx.blowup.clear();
    return true;
  } catch (const std::exception& e) {
    ctx.scene_error = "could not load '" + path + "': " + e.what() + " (the previous scene keeps running)";
    return false;
  }
}

namespace {

// The wave model's requests: precision, kernel, stencil, positions.
void apply_wave_changes(GuiContext& ctx, PendingChanges& p) {
  WaveModel& m = ctx.model();
  if (p.stencil) {
    try {
      m.set_stencil(*p.stencil);
      ctx.stencil_error.clear();
    } catch (const std::exception& e) {
      ctx.stencil_error = "stencil '" + *p.stencil + "' refused: " + e.what() + " (the run goes on with " +
                          m.grid().stencil.name + ")";
    }
  }
  try {
    if (p.precision) m.set_precision(*p.precision);
    if (p.kernel) m.set_kernel(p.kernel->first, p.kernel->second);
    for (const auto& [q, pos] : p.source_moves) m.set_source_position(q, pos);
    for (const auto& [q, pos] : p.receiver_moves) m.set_receiver_position(q, pos);
    if (!p.source_moves.empty() || !p.receiver_moves.empty()) ctx.session->refresh_room();
    if (p.precision || p.kernel || !p.source_moves.empty() || !p.receiver_moves.empty()) ctx.action_error.clear();
  } catch (const std::exception& e) {
    ctx.action_error = e.what();
  }
}

}  // namespace

void apply_pending(GuiContext& ctx) {
  PendingChanges p = std::move(ctx.pending);
  ctx.pending = PendingChanges();
  if (p.load_scene && load_scene(ctx, *p.load_scene)) return;  // the other requests were for the old model
  if (ctx.session) apply_wave_changes(ctx, p);
  for (auto& action : p.actions) {
    try {
      action(ctx);
      ctx.action_error.clear();
    } catch (const std::exception& e) {
      ctx.action_error = e.what();
    }
  }
  if (p.reset) {
    ctx.view->reset();
    ctx.blowup.clear();
    ctx.scale.auto_max = 0.0f;
  }
  if (p.step_once) {
    ctx.run.running = false;
    try {
      ctx.view->advance(1);
    } catch (const BlowUpError& e) {
      ctx.blowup = e.what();
    }
  }
}

namespace {

// Steps for this frame: the audio clock's choice when real-time pacing is on
// and a stream plays (0: the ring is full enough, skip this frame's advance),
// else the fixed or budgeted steps per frame.
//
// The pacer's request is capped at what the solver does in a fixed 1/30 s
// (from its measured steps/s; before the first measurement, the fixed steps
// per frame). The cap must not grow with the frame interval: a slow frame
// would allow a longer advance, which makes the next frame slower still. A
// solver slower than real time cannot catch up anyway (the audio panel's gaps
// or slow motion handle that), and the picture stays responsive.
int steps_this_frame(GuiContext& ctx, bool& paced) {
  RunControls& r = ctx.run;
  paced = false;
  if (ctx.session && ctx.audio && ctx.audio->is_open() && ctx.audio->realtime()) {
    paced = true;
    const double frame_s = ctx.timing.last_frame_s > 0 ? ctx.timing.last_frame_s : 1.0 / 60.0;
    const double rate = ctx.view->metrics().steps_per_s;
    const long cap = rate > 0 ? std::clamp((long)(rate / 30.0), 1L, (long)r.max_steps_per_frame)
                              : std::clamp(r.steps_per_frame, 1, r.max_steps_per_frame);
    return (int)std::clamp<long>(ctx.audio->steps_for_frame(frame_s, cap), 0, cap);
  }
  return std::clamp(r.steps_per_frame, 1, r.max_steps_per_frame);
}

}  // namespace

void finish_frame(GuiContext& ctx, const std::vector<PanelSection>& sections) {
  RunControls& r = ctx.run;
  if (ctx.advance_queued) {
    ctx.advance_queued = false;
    try {
      ctx.view->finish_advance();
    } catch (const BlowUpError& e) {
      ctx.blowup = e.what();
      r.running = false;
    }
    const ModelMetrics met = ctx.view->metrics();
    ctx.timing.steps_per_s.push((float)met.steps_per_s);
    ctx.timing.gpoints_per_s.push((float)met.gpoints_per_s);
    ctx.timing.achieved_gbs.push((float)met.achieved_gbs);
    if (met.gflops >= 0) ctx.timing.gflops.push((float)met.gflops);
    if (met.gpoints_per_s > 0) ctx.variant_gpoints[ctx.view->variant_key()] = met.gpoints_per_s;
    // Budgeted mode: aim the next frame's simulation time at the budget, moving
    // half-way there each frame (steps/s fluctuates; this keeps the choice steady).
    if (!ctx.advance_paced && r.auto_steps && met.steps_per_s > 0) {
      const double want = met.steps_per_s * r.sim_budget_ms * 1e-3;
      const double next = 0.5 * r.steps_per_frame + 0.5 * want;
      r.steps_per_frame = std::clamp((int)std::lround(next), 1, r.max_steps_per_frame);
    }
  }
  for (const auto& s : sections)
    if (s.after_advance && s.applies_to(ctx)) s.after_advance(ctx);
}

void advance_frame(GuiContext& ctx) {
  // The views take the field the last finished steps left, queued on the solver's
  // stream ahead of this frame's steps; the frame then draws them while those run.
  RunControls& r = ctx.run;
  try {
    ctx.view->refresh(ctx);
  } catch (const std::exception& e) {  // a device error while reading the field: pause, keep the window
    ctx.blowup = std::string("the picture could not be updated: ") + e.what() + " (the run is paused)";
    r.running = false;
    return;
  }
  if (!r.running) return;
  bool paced = false;
  const int steps = steps_this_frame(ctx, paced);
  if (steps <= 0) return;
  ctx.advance_paced = paced;
  ctx.advance_queued = true;
  try {
    ctx.view->advance_async(steps);
  } catch (const BlowUpError& e) {  // the models that advance at once
    ctx.blowup = e.what();
    r.running = false;
  }
}

}  // namespace ws::gui
