#include "gui/wave_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "gui/gui_context.hpp"
#include "gui/views.hpp"

namespace ws::gui {

std::string variant_key(WaveModel& m);  // panel_kernels.cpp

WaveView::WaveView(const std::string& path, BackendChoice backend, const DecompOptions& decomp)
    : session_(std::make_unique<Session>(path, backend, decomp)) {
  const WaveModel& m = session_->model();
  obstacles_ = render::scene_obstacles(m.scene());
  if (!obstacles_.triangles.empty()) mesh_ = std::make_unique<render::ObstacleMesh>(obstacles_.triangles);
  solid_nodes_ = (long long)std::count_if(m.solids().material.begin(), m.solids().material.end(),
                                          [](uint8_t v) { return v != 0; });
}

std::string WaveView::time_text() const {
  char t[48];
  // The time of the field on screen, one frame behind the queued steps.
  snprintf(t, sizeof t, "t = %.2f ms", shown_step_ * session_->model().grid().dt_s * 1e3);
  return t;
}

ModelMetrics WaveView::metrics() const {
  const SolverMetrics s = session_->model().solver().metrics();
  ModelMetrics m;
  m.steps_per_s = s.steps_per_s;
  m.gpoints_per_s = s.gpoints_per_s;
  m.achieved_gbs = s.achieved_gbs;
  m.bytes_per_point = s.bytes_per_point;
  m.last_advance_s = s.last_advance_s;
  m.last_steps = s.last_steps;
  return m;
}

std::string WaveView::variant_key() { return gui::variant_key(session_->model()); }

void WaveView::refresh(GuiContext& ctx) {
  // After a solver fault the picture stays the last one drawn: the field on the device may
  // be gone with the CUDA context (a sticky error), and the run is paused until the user
  // continues on the CPU solver, which builds a new session.
  if (session_->model().faulted()) return;
  shown_step_ = session_->model().step();
  session_->update_slices(ctx.slice_pos);
  ctx.slice_pos = session_->slices().positions();
  ctx.scale.observe(session_->slices().max_abs_latest());  // never waits for the device
}

void WaveView::draw_3d(GuiContext& ctx, WindowViews& v, int fb_w, int fb_h) {
  v.view_3d.resize(fb_w, fb_h);
  render::ViewStyle style;
  style.obstacle_alpha = ctx.obstacle_alpha;
  v.renderer.draw_3d(v.view_3d, ctx.camera, session_->slices(), session_->room(), ctx.scale, style,
                     ctx.show_obstacles ? mesh_.get() : nullptr);
}

void WaveView::draw_side_window(GuiContext& ctx, WindowViews& v) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - 620, io.DisplaySize.y - 390), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(460, 380), ImGuiCond_FirstUseEver);
  const auto& room = session_->room();
  char title[96];
  const int plane = session_->slices().positions().index_for(ctx.view_2d);
  snprintf(title, sizeof title, "%s slice at %c = %.3f m###slice2d", render::slice_name(ctx.view_2d),
           "xyz"[render::normal_axis(ctx.view_2d)], room.node_m(plane, render::normal_axis(ctx.view_2d)));
  ImGui::Begin(title);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const int w = std::max(32, (int)avail.x), h = std::max(32, (int)avail.y);
  v.view_2d.resize(w, h);
  const render::PixelRect r = v.renderer.draw_2d(v.view_2d, ctx.view_2d, session_->slices(), room, ctx.scale);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // GL's texture origin is bottom-left; ImGui's images are top-left: flip v.
  ImGui::Image((ImTextureID)(intptr_t)v.view_2d.colour_texture(), ImVec2((float)w, (float)h), ImVec2(0, 1),
               ImVec2(1, 0));
  if (ImGui::IsItemHovered()) {
    const float fx = (io.MousePos.x - origin.x - r.x) / r.w;
    const float fy = (io.MousePos.y - origin.y - r.y) / r.h;
    auto hit = render::pick_slice_2d(ctx.view_2d, fx, fy, room, session_->slices().positions());
    if (hit) {
      ctx.hover.hit = hit;
      ctx.hover.where = "2-D view";
      ctx.hover.value = session_->slices().value_at(hit->axis, hit->u, hit->v);
      ImGui::SetTooltip("(%.3f, %.3f, %.3f) m\nu = %.4g", hit->position_m.x, hit->position_m.y, hit->position_m.z,
                        ctx.hover.value);
    }
  }
  ImGui::End();
}

void WaveView::hover_3d(GuiContext& ctx, const render::Ray& ray) {
  auto hit = render::pick_slice(ray, session_->room(), session_->slices().positions());
  if (hit) {
    ctx.hover.hit = hit;
    ctx.hover.where = "3-D view";
    ctx.hover.value = session_->slices().value_at(hit->axis, hit->u, hit->v);
  }
}

}  // namespace ws::gui
