#include "gui/views.hpp"

#include <imgui.h>

#include <cstdint>
#include <cstdio>

namespace ws::gui {

void draw_3d_view(GuiContext& ctx, WindowViews& v, int fb_w, int fb_h) {
  v.view_3d.resize(fb_w, fb_h);
  v.renderer.draw_3d(v.view_3d, ctx.camera, ctx.session->slices(), ctx.session->room(), ctx.scale);
}

void present_3d_view(const WindowViews& v, int fb_w, int fb_h) { v.view_3d.blit_to_default(0, 0, fb_w, fb_h); }

void draw_2d_window(GuiContext& ctx, WindowViews& v) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - 620, io.DisplaySize.y - 390), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(460, 380), ImGuiCond_FirstUseEver);
  const auto& room = ctx.session->room();
  char title[96];
  const int plane = ctx.session->slices().positions().index_for(ctx.view_2d);
  snprintf(title, sizeof title, "%s slice at %c = %.3f m###slice2d", render::slice_name(ctx.view_2d),
           "xyz"[render::normal_axis(ctx.view_2d)], room.node_m(plane));
  ImGui::Begin(title);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const int w = std::max(32, (int)avail.x), h = std::max(32, (int)avail.y);
  v.view_2d.resize(w, h);
  const render::PixelRect r = v.renderer.draw_2d(v.view_2d, ctx.view_2d, ctx.session->slices(), room, ctx.scale);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // GL's texture origin is bottom-left; ImGui's images are top-left: flip v.
  ImGui::Image((ImTextureID)(intptr_t)v.view_2d.colour_texture(), ImVec2((float)w, (float)h), ImVec2(0, 1),
               ImVec2(1, 0));
  if (ImGui::IsItemHovered()) {
    const float fx = (io.MousePos.x - origin.x - r.x) / r.w;
    const float fy = (io.MousePos.y - origin.y - r.y) / r.h;
    auto hit = render::pick_slice_2d(ctx.view_2d, fx, fy, room, ctx.session->slices().positions());
    if (hit) {
      ctx.hover.hit = hit;
      ctx.hover.where = "2-D view";
      ctx.hover.value = ctx.session->slices().value_at(hit->axis, hit->u, hit->v);
      ImGui::SetTooltip("(%.3f, %.3f, %.3f) m\nu = %.4g", hit->position_m.x, hit->position_m.y, hit->position_m.z,
                        ctx.hover.value);
    }
  }
  ImGui::End();
}

}  // namespace ws::gui
