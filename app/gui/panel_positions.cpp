// Source and receiver positions in metres. Edits become requests applied at
// the frame boundary (WaveModel::set_source_position etc.); a position outside
// the room is refused with the model's message.
#include <imgui.h>

#include <string>

#include "gui/panel.hpp"

namespace ws::gui {

namespace {

// Returns true when the user finished editing (so the move is applied once, not per keystroke).
bool position_input(const char* label, std::array<double, 3>& p_m, const std::array<double, 3>& room_m) {
  float f[3] = {(float)p_m[0], (float)p_m[1], (float)p_m[2]};
  ImGui::DragFloat3(label, f, 0.01f, 0.0f, (float)std::max({room_m[0], room_m[1], room_m[2]}), "%.3f m");
  const bool done = ImGui::IsItemDeactivatedAfterEdit();
  for (int a = 0; a < 3; ++a) p_m[a] = f[a];
  return done;
}

}  // namespace

void draw_positions_section(GuiContext& ctx) {
  const WaveScene& s = ctx.model().scene();
  ImGui::Text("room %.2f x %.2f x %.2f m", s.room_m[0], s.room_m[1], s.room_m[2]);
  // Widgets edit copies held across frames so a drag in progress is not reset by the model.
  static std::vector<std::array<double, 3>> src_edit, rec_edit;
  if (src_edit.size() != s.sources.size() || !ImGui::IsAnyItemActive()) {
    src_edit.clear();
    for (const auto& q : s.sources) src_edit.push_back(q.position_m);
  }
  if (rec_edit.size() != s.receivers.size() || !ImGui::IsAnyItemActive()) {
    rec_edit.clear();
    for (const auto& q : s.receivers) rec_edit.push_back(q.position_m);
  }
  for (size_t q = 0; q < src_edit.size(); ++q) {
    const std::string label = "source " + std::to_string(q);
    if (position_input(label.c_str(), src_edit[q], s.room_m)) ctx.pending.source_moves.push_back({q, src_edit[q]});
  }
  for (size_t q = 0; q < rec_edit.size(); ++q) {
    const std::string label = "receiver " + s.receivers[q].name;
    if (position_input(label.c_str(), rec_edit[q], s.room_m))
      ctx.pending.receiver_moves.push_back({q, rec_edit[q]});
  }
}

}  // namespace ws::gui
