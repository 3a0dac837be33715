#pragma once
// The wave model in the GUI: the Session (model, slice textures, room) plus
// the scene's obstacles as a see-through mesh in the 3-D view, and the 2-D
// slice window beside it.
#include <memory>

#include "gui/model_view.hpp"
#include "gui/session.hpp"
#include "obstacle_mesh.hpp"

namespace ws::gui {

class WaveView : public ModelView {
 public:
  WaveView(const std::string& path, BackendChoice backend, const DecompOptions& decomp = {});

  ModelKind kind() const override { return ModelKind::Wave; }
  const std::string& path() const override { return session_->path(); }
  std::string scene_name() const override { return session_->model().scene().name; }
  std::string backend_note() const override { return session_->model().backend_note(); }
  long long step() const override { return session_->model().step(); }
  long long shown_step() const override { return shown_step_; }
  std::string time_text() const override;
  void advance(int steps) override { session_->model().advance(steps); }
  void advance_async(int steps) override { session_->model().advance_async(steps); }
  void finish_advance() override { session_->model().finish_advance(); }
  void reset() override { session_->model().reset(); }
  ModelMetrics metrics() const override;
  std::string variant_key() override;
  glm::vec3 view_extent_m() const override { return session_->room().extent_m; }
  void refresh(GuiContext& ctx) override;
  void draw_3d(GuiContext& ctx, WindowViews& views, int fb_width, int fb_height) override;
  void draw_side_window(GuiContext& ctx, WindowViews& views) override;
  void draw_scene_info(GuiContext& ctx) override;
  void hover_3d(GuiContext& ctx, const render::Ray& ray) override;
  Session* wave_session() override { return session_.get(); }

  const render::SceneObstacles& obstacles() const { return obstacles_; }
  const render::ObstacleMesh* obstacle_mesh() const { return mesh_.get(); }
  long long solid_nodes() const { return solid_nodes_; }

 private:
  std::unique_ptr<Session> session_;
  render::SceneObstacles obstacles_;
  std::unique_ptr<render::ObstacleMesh> mesh_;
  long long solid_nodes_ = 0;
  long long shown_step_ = 0;
};

}  // namespace ws::gui
