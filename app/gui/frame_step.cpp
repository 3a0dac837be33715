#include "gui/frame_step.hpp"

#include <algorithm>
#include <cmath>

namespace ws::gui {

namespace {

void load_scene(GuiContext& ctx, const std::string& path) {
  try {
    auto fresh = std::make_unique<Session>(path, ctx.backend);
    ctx.session = std::move(fresh);  // the old session (and its GL objects) go only now
    const auto& g = ctx.model().grid();
    ctx.slice_pos = {g.nx / 2, g.ny / 2, g.nz / 2};
    ctx.camera.reset(ctx.session->room().extent_m);
    ctx.scale.auto_max = 0.0f;
    ctx.scene_error.clear();
    ctx.blowup.clear();
  } catch (const std::exception& e) {
    ctx.scene_error = "could not load '" + path + "': " + e.what() + " (the previous scene keeps running)";
  }
}

}  // namespace

void apply_pending(GuiContext& ctx) {
  PendingChanges p = std::move(ctx.pending);
  ctx.pending = PendingChanges();
  if (p.load_scene) load_scene(ctx, *p.load_scene);
  WaveModel& m = ctx.model();
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
  if (p.reset) {
    m.reset();
    ctx.blowup.clear();
    ctx.scale.auto_max = 0.0f;
  }
  if (p.step_once) {
    ctx.run.running = false;
    try {
      m.advance(1);
    } catch (const BlowUpError& e) {
      ctx.blowup = e.what();
    }
  }
}

void advance_frame(GuiContext& ctx, const std::vector<PanelSection>& sections) {
  WaveModel& m = ctx.model();
  RunControls& r = ctx.run;
  if (r.running) {
    const int steps = std::clamp(r.steps_per_frame, 1, r.max_steps_per_frame);
    try {
      m.advance(steps);
    } catch (const BlowUpError& e) {
      ctx.blowup = e.what();
      r.running = false;
    }
    const SolverMetrics met = m.solver().metrics();
    ctx.timing.steps_per_s.push((float)met.steps_per_s);
    ctx.timing.gpoints_per_s.push((float)met.gpoints_per_s);
    ctx.timing.achieved_gbs.push((float)met.achieved_gbs);
    if (met.gpoints_per_s > 0) ctx.variant_gpoints[variant_key(m)] = met.gpoints_per_s;
    // Budgeted mode: aim the next frame's simulation time at the budget, moving
    // half-way there each frame (steps/s fluctuates; this keeps the choice steady).
    if (r.auto_steps && met.steps_per_s > 0) {
      const double want = met.steps_per_s * r.sim_budget_ms * 1e-3;
      const double next = 0.5 * r.steps_per_frame + 0.5 * want;
      r.steps_per_frame = std::clamp((int)std::lround(next), 1, r.max_steps_per_frame);
    }
  }
  for (const auto& s : sections)
    if (s.after_advance) s.after_advance(ctx);
  ctx.session->update_slices(ctx.slice_pos);
  ctx.slice_pos = ctx.session->slices().positions();
  ctx.scale.observe(ctx.session->slices().max_abs());
}

}  // namespace ws::gui
