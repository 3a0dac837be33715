// The sediment model's height view: vertical exaggeration (the basin is tens
// of kilometres wide and metres deep), the camera, and the state figures that
// need a read-back (h and s ranges, sediment volume).
#include <imgui.h>

#include "gui/panel.hpp"
#include "gui/sediment_view.hpp"

namespace ws::gui {

void draw_height_view_section(GuiContext& ctx) {
  SedimentView* v = ctx.view->sediment();
  if (!v) return;
  ImGui::SliderFloat("vertical exaggeration", &v->exaggeration, 1.0f, 1e5f, "x %.0f", ImGuiSliderFlags_Logarithmic);
  if (ImGui::IsItemDeactivatedAfterEdit()) v->refresh_stats();  // re-frame the box for the new height
  ImGui::SameLine();
  if (ImGui::SmallButton("auto")) {
    v->refresh_stats();
    v->exaggeration = v->auto_exaggeration();
    v->refresh_stats();
  }
  if (ImGui::Button("Reset camera")) v->frame_camera(ctx.camera);
  ImGui::SameLine();
  if (ImGui::Button("Refresh figures")) v->refresh_stats();
  ImGui::SameLine();
  ImGui::TextDisabled(v->stats_every_frames > 0 ? "(every %d frames)" : "(on demand: large basin)",
                      v->stats_every_frames);
  const SedimentStats& s = v->stats();
  ImGui::Text("h %.3f .. %.3f m, s %.3f .. %.3f", s.h_min_m, s.h_max_m, s.s_min, s.s_max);
  ImGui::TextDisabled("colour: sand fraction s, mud (dark) to sand (pale)");
}

}  // namespace ws::gui
