// Slice plane positions (in metres, snapped to grid nodes), which slice the
// 2-D view shows, and what lies under the mouse.
#include <imgui.h>

#include "gui/panel.hpp"

namespace ws::gui {

void draw_slices_section(GuiContext& ctx) {
  const render::RoomGeometry& room = ctx.session->room();
  const char* labels[3] = {"YZ plane at x", "XZ plane at y", "XY plane at z"};
  int* idx[3] = {&ctx.slice_pos.i, &ctx.slice_pos.j, &ctx.slice_pos.k};
  for (int a = 0; a < 3; ++a) {
    float m = room.node_m(*idx[a], a);
    if (ImGui::SliderFloat(labels[a], &m, room.node_m(0, a), room.node_m(room.dim(a) - 1, a), "%.3f m"))
      *idx[a] = room.node_of(m, a);
  }
  int axis = (int)ctx.view_2d;
  ImGui::Text("2-D view:");
  ImGui::SameLine();
  ImGui::RadioButton("XY", &axis, 0);
  ImGui::SameLine();
  ImGui::RadioButton("XZ", &axis, 1);
  ImGui::SameLine();
  ImGui::RadioButton("YZ", &axis, 2);
  ctx.view_2d = (render::SliceAxis)axis;

  ImGui::Checkbox("obstacles", &ctx.show_obstacles);
  if (ctx.show_obstacles) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(140);
    ImGui::SliderFloat("opacity", &ctx.obstacle_alpha, 0.1f, 1.0f, "%.2f");
  }

  if (ctx.hover.hit) {
    const auto& h = *ctx.hover.hit;
    ImGui::Text("%s, %s slice: (%.3f, %.3f, %.3f) m", ctx.hover.where, render::slice_name(h.axis), h.position_m.x,
                h.position_m.y, h.position_m.z);
    ImGui::Text("node (%d, %d, %d), u = %.4g", h.node.i, h.node.j, h.node.k, ctx.hover.value);
  } else {
    ImGui::TextDisabled("hover a slice to read position and value");
  }
}

}  // namespace ws::gui
