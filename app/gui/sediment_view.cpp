#include "gui/sediment_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gui/gui_context.hpp"
#include "gui/views.hpp"

namespace ws::gui {

SedimentView::SedimentView(const std::string& path, const SedimentScene& scene, BackendChoice backend)
    : path_(path), model_(std::make_unique<SedimentModel>(scene, backend)) {
  const SedimentFieldView h = model_->view_h();
  surface_ = std::make_unique<render::HeightSurface>(h.nx, h.ny, h.on_device);
  renderer_ = std::make_unique<render::HeightRenderer>();
  section_index = h.ny / 2;
  // The figures need the whole state read back: often for small basins, on demand (the panel's button) for large.
  const long long cells = (long long)h.nx * h.ny;
  stats_every_frames = cells <= (1 << 18) ? 10 : cells <= (1 << 21) ? 30 : 0;
  stats_ = model_->stats();
  exaggeration = auto_exaggeration();
  refresh_stats();
}

float SedimentView::auto_exaggeration() const {
  const SedimentScene& s = model_->scene();
  // A flat start gets the relief of a metre, so deposits grow into view.
  const double relief = std::max(stats_.h_max_m - stats_.h_min_m, 1.0);
  return render::auto_exaggeration(s.length_x_m(), s.length_y_m(), relief);
}

void SedimentView::refresh_stats() {
  stats_ = model_->stats();
  const SedimentScene& s = model_->scene();
  frame_ = render::make_height_frame(s.length_x_m(), s.length_y_m(), stats_.h_min_m, stats_.h_max_m, exaggeration);
}

std::string SedimentView::time_text() const {
  const double t = model_->time_s();
  char out[48];
  const double year = 365.25 * 86400.0;
  if (t >= 2 * year) snprintf(out, sizeof out, "t = %.2f years", t / year);
  else if (t >= 2 * 86400.0) snprintf(out, sizeof out, "t = %.2f days", t / 86400.0);
  else snprintf(out, sizeof out, "t = %.0f s", t);
  return out;
}

void SedimentView::reset() {
  model_->reset();
  refresh_stats();
}

ModelMetrics SedimentView::metrics() const {
  const SedimentMetrics s = model_->metrics();
  ModelMetrics m;
  m.steps_per_s = s.steps_per_s;
  m.gpoints_per_s = s.gpoints_per_s;
  m.achieved_gbs = s.achieved_gbs;
  m.bytes_per_point = s.bytes_per_point;
  m.gflops = s.gflops_paper;
  m.last_advance_s = s.last_advance_s;
  m.last_steps = s.last_steps;
  return m;
}

std::string SedimentView::variant_key() {
  std::string key;
  if (CudaSedimentSolver* c = model_->cuda()) {
    const BlockShape hb = c->h_block(), sb = c->s_block();
    key = c->h_kernel().id + " " + std::to_string(hb.x) + "x" + std::to_string(hb.y) + " + " + c->s_kernel().id +
          " " + std::to_string(sb.x) + "x" + std::to_string(sb.y);
  } else {
    key = "sediment cpu";
  }
  return key + " / " + to_string(model_->precision());
}

void SedimentView::refresh(GuiContext& ctx) {
  (void)ctx;
  ++frames_;
  if (stats_every_frames > 0 && frames_ % stats_every_frames == 0) refresh_stats();
  const SedimentFieldView h = model_->view_h(), s = model_->view_s();
  surface_->update(h, s, exaggeration, model_->stream());
  section_index = std::clamp(section_index, 0, (section_axis == SectionAxis::Row ? h.ny : h.nx) - 1);
  section_ = extract_cross_section(h, s, section_axis, section_index, model_->stream());
}

void SedimentView::draw_3d(GuiContext& ctx, WindowViews& v, int fb_w, int fb_h) {
  v.view_3d.resize(fb_w, fb_h);
  render::HeightStyle style;
  if (show_section_line && !section_.h_m.empty()) {
    // The section drawn on the surface, lifted a little so it is not buried in it.
    const SedimentScene& sc = model_->scene();
    const bool row = section_.axis == SectionAxis::Row;
    const float across = row ? (float)((section_.index + 0.5) * sc.dy_m) : (float)((section_.index + 0.5) * sc.dx_m);
    const float lift = 0.004f * frame_.extent_m.z;
    const size_t n = section_.h_m.size(), step = std::max<size_t>(1, n / 2048);
    for (size_t q = 0; q < n; q += step) {
      const float along = (float)section_.position_m[q];
      const float z = (float)(exaggeration * section_.h_m[q]) + frame_.z_offset_m + lift;
      style.section_line.push_back(row ? glm::vec3(along, across, z) : glm::vec3(across, along, z));
    }
  }
  renderer_->draw(v.view_3d, ctx.camera, *surface_, frame_, style);
}

void SedimentView::draw_side_window(GuiContext& ctx, WindowViews& v) {
  (void)ctx, (void)v;
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x - 620, io.DisplaySize.y - 330), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(460, 320), ImGuiCond_FirstUseEver);
  ImGui::Begin("Cross-section###slice2d");
  const SedimentFieldView h = model_->view_h();
  int axis = section_axis == SectionAxis::Row ? 0 : 1;
  ImGui::RadioButton("row (along x)", &axis, 0);
  ImGui::SameLine();
  ImGui::RadioButton("column (along y)", &axis, 1);
  section_axis = axis == 0 ? SectionAxis::Row : SectionAxis::Column;
  const SedimentScene& sc = model_->scene();
  const int count = section_axis == SectionAxis::Row ? h.ny : h.nx;
  const double d = section_axis == SectionAxis::Row ? sc.dy_m : sc.dx_m;
  section_index = std::clamp(section_index, 0, count - 1);
  char fmt[64];
  snprintf(fmt, sizeof fmt, "%%d (%s = %.0f m)", section_axis == SectionAxis::Row ? "y" : "x",
           (section_index + 0.5) * d);
  ImGui::SliderInt(section_axis == SectionAxis::Row ? "row j" : "column i", &section_index, 0, count - 1, fmt);
  ImGui::Checkbox("show on the surface", &show_section_line);
  if (section_.h_m.empty() || section_.axis != section_axis || section_.index != section_index) {
    ImGui::TextDisabled("(updates next frame)");
  } else {
    std::vector<float> hv(section_.h_m.begin(), section_.h_m.end()), sv(section_.s.begin(), section_.s.end());
    const auto [lo, hi] = std::minmax_element(hv.begin(), hv.end());
    const float pad = std::max(1e-3f, 0.05f * (*hi - *lo));
    char overlay[96];
    snprintf(overlay, sizeof overlay, "h: %.3f .. %.3f m over %.1f km", *lo, *hi,
             (section_.position_m.back() - section_.position_m.front()) * 1e-3);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float plot_w = std::max(100.0f, avail.x), plot_h = std::max(60.0f, 0.5f * (avail.y - 8));
    ImGui::PlotLines("##h", hv.data(), (int)hv.size(), 0, overlay, *lo - pad, *hi + pad, ImVec2(plot_w, plot_h));
    const auto [slo, shi] = std::minmax_element(sv.begin(), sv.end());
    snprintf(overlay, sizeof overlay, "s (sand fraction): %.3f .. %.3f, axis 0..1", *slo, *shi);
    ImGui::PlotLines("##s", sv.data(), (int)sv.size(), 0, overlay, 0.0f, 1.0f, ImVec2(plot_w, plot_h));
  }
  ImGui::End();
}

void SedimentView::draw_scene_info(GuiContext& ctx) {
  (void)ctx;
  const SedimentScene& s = model_->scene();
  const SedimentGrid& g = model_->grid();
  ImGui::Text("'%s' (%s)", s.name.c_str(), path_.c_str());
  ImGui::Text("basin %d x %d cells of %.0f x %.0f m (%.1f x %.1f km)", s.nx, s.ny, s.dx_m, s.dy_m,
              s.length_x_m() * 1e-3, s.length_y_m() * 1e-3);
  ImGui::Text("dt = %.4g s (limit %.4g s: diffusion %.4g, layer %.4g)", g.dt_s, g.dt_limit_s, g.dt_diffusion_limit_s,
              g.dt_layer_limit_s);
  ImGui::Text("D_max = %.4g m^2/s, C_s %.2f, C_m %.2f, A %.2f m", g.d_max_m2_s, s.compaction_sand, s.compaction_mud,
              s.top_layer_m);
  ImGui::Text("precision %s, backend %s, solver memory %.1f MiB", to_string(model_->precision()),
              model_->solver().backend().c_str(), model_->solver().memory_bytes() / 1048576.0);
  ImGui::Text("h %.3f .. %.3f m, s %.3f .. %.3f", stats_.h_min_m, stats_.h_max_m, stats_.s_min, stats_.s_max);
  ImGui::Text("sediment volume %.6g m^3", stats_.volume_m3);
  ImGui::TextWrapped("surface: %d x %d vertices (stride %d), %s%s%s", surface_->dims().mx, surface_->dims().my,
                     surface_->stride(), render::to_string(surface_->mode()),
                     surface_->interop_note().empty() ? "" : " - ", surface_->interop_note().c_str());
}

}  // namespace ws::gui
