// Run controls, the same for both models: run/pause, single step, reset, and
// how many steps each frame advances (fixed, budgeted, or paced by the audio).
#include <imgui.h>

#include "gui/panel.hpp"
#include "playback/audio_session.hpp"

namespace ws::gui {

void draw_run_section(GuiContext& ctx) {
  RunControls& r = ctx.run;
  if (ImGui::Button(r.running ? "Pause" : "Run", ImVec2(70, 0))) {
    r.running = !r.running;
    if (r.running) ctx.blowup.clear();
  }
  ImGui::SameLine();
  if (ImGui::Button("Step")) ctx.pending.step_once = true;
  ImGui::SameLine();
  if (ImGui::Button("Reset")) ctx.pending.reset = true;
  ImGui::SameLine();
  ImGui::Text("step %lld, %s", ctx.view->step(), ctx.view->time_text().c_str());

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
