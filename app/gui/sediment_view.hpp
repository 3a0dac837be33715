#pragma once
// The sediment model in the GUI: the basin as a lit height surface coloured
// by the sand fraction (render::HeightSurface, written by CUDA through
// interop when it can), a cross-section window (h and s along one row or
// column), and the figures the panel shows. Its panel sections are in
// panel_sediment.cpp and panel_sediment_kernels.cpp.
#include <memory>

#include "gui/model_view.hpp"
#include "height_surface.hpp"
#include "sediment/cross_section.hpp"
#include "sediment/sediment_model.hpp"

namespace ws::gui {

class SedimentView : public ModelView {
 public:
  // A GL context must be current.
  SedimentView(const std::string& path, const SedimentScene& scene, BackendChoice backend);

  ModelKind kind() const override { return ModelKind::Sediment; }
  const std::string& path() const override { return path_; }
  std::string scene_name() const override { return model_->scene().name; }
  std::string backend_note() const override { return model_->backend_note(); }
  long long step() const override { return model_->step(); }
  std::string time_text() const override;
  void advance(int steps) override { model_->advance(steps); }
  void reset() override;
  ModelMetrics metrics() const override;
  std::string variant_key() override;
  glm::vec3 view_extent_m() const override { return frame_.extent_m; }
  // A little further out than the box's bounding sphere: the wide, flat basin sits beside the panel.
  void frame_camera(render::OrbitCamera& camera) const override {
    camera.reset(frame_.extent_m);
    camera.zoom(-2.5f);
  }
  void refresh(GuiContext& ctx) override;
  void draw_3d(GuiContext& ctx, WindowViews& views, int fb_width, int fb_height) override;
  void draw_side_window(GuiContext& ctx, WindowViews& views) override;
  void draw_scene_info(GuiContext& ctx) override;
  SedimentView* sediment() override { return this; }

  SedimentModel& model() { return *model_; }
  const render::HeightSurface& surface() const { return *surface_; }
  const SedimentStats& stats() const { return stats_; }
  // Reads the state back for the h/s ranges and the volume, and re-frames the box.
  void refresh_stats();
  // The exaggeration that shows the current relief at a sensible height.
  float auto_exaggeration() const;

  float exaggeration = 1.0f;  // z = exaggeration * h
  SectionAxis section_axis = SectionAxis::Row;
  int section_index = 0;  // j for a row, i for a column
  bool show_section_line = true;
  int stats_every_frames = 30;  // 0: only on demand (large basins)

 private:
  std::string path_;
  std::unique_ptr<SedimentModel> model_;
  std::unique_ptr<render::HeightSurface> surface_;
  std::unique_ptr<render::HeightRenderer> renderer_;
  SedimentStats stats_;
  render::HeightFrame frame_;
  CrossSection section_;
  long long frames_ = 0;
};

}  // namespace ws::gui
