// Run controls, the same for both models: run/pause, single step, reset, and
// how many steps each frame advances (fixed, budgeted, or paced by the audio).
#include <imgui.h>

#include <cstdlib>

#include "gui/panel.hpp"
#include "gui/session.hpp"
#include "playback/audio_session.hpp"

namespace ws::gui {

namespace {

// After a solver fault (the message is ctx.blowup, at the top of the panel): the model can
// go on with the CPU solver, from the field at the fault when it was read back.
// WS_GUI_CONTINUE_ON_CPU=1 presses the button as soon as it shows (scripted runs, tests).
void draw_solver_fault(GuiContext& ctx) {
  if (!ctx.session || !ctx.model().faulted()) return;
  static const bool scripted = std::getenv("WS_GUI_CONTINUE_ON_CPU") != nullptr;
  ImGui::TextWrapped("%s", ctx.model().fault_field_kept()
                               ? "The solver failed; the field and the receivers were kept."
                               : "The solver failed; the receivers were kept, the field was lost.");
  if (ImGui::Button("Continue on the CPU solver") || scripted) {
    ctx.pending.actions.push_back([](GuiContext& c) {
      c.session->continue_on_cpu();
      c.blowup.clear();
      c.run.running = true;
    });
  }
}

}  // namespace

void draw_run_section(GuiContext& ctx) {
  RunControls& r = ctx.run;
  draw_solver_fault(ctx);
  if (ImGui::Button(r.running ? "Pause" : "Run", ImVec2(70, 0))) {
    r.running = !r.running;
    if (r.running) ctx.blowup.clear();
  }
  ImGui::SameLine();
  if (ImGui::Button("Step")) ctx.pending.step_once = true;
  ImGui::SameLine();
  if (ImGui::Button("Reset")) ctx.pending.reset = true;
  ImGui::SameLine();
  // The step and time of the field on screen (the frame's own steps are still running).
  ImGui::Text("step %lld, %s", ctx.view->shown_step(), ctx.view->time_text().c_str());

  if (ctx.session && ctx.audio && ctx.audio->is_open() && ctx.audio->realtime()) {
    ImGui::TextWrapped("steps per frame: paced by the audio clock (real time; Audio section)");
    return;
  }
  ImGui::Checkbox("auto steps per frame", &r.auto_steps);
  if (r.auto_steps) {
    ImGui::SliderFloat("sim budget (ms/frame)", &r.sim_budget_ms, 1.0f, 100.0f, "%.0f");
    ImGui::Text("steps per frame: %d (chosen)", r.steps_per_frame);
  } else {
    ImGui::SliderInt("steps per frame", &r.steps_per_frame, 1, 512, "%d", ImGuiSliderFlags_Logarithmic);
  }
}

}  // namespace ws::gui
