#pragma once
// The seam between the GUI and the two models it can show: the 3-D wave model
// (slices, obstacles, receivers, audio) and the 2-D sediment model (a lit
// height surface and a cross-section). The frame loop, the run controls, the
// timing panel and the scene loader talk to a ModelView; everything
// model-specific lives in its implementation (wave_view.*, sediment_view.*)
// and in the panel sections registered for that model (panel.hpp).
#include <glm/glm.hpp>

#include <memory>
#include <string>

#include "orbit_camera.hpp"
#include "wave/wave_model.hpp"  // BackendChoice

namespace ws::gui {

struct GuiContext;
struct WindowViews;
class Session;
class SedimentView;

enum class ModelKind { Wave, Sediment };
const char* to_string(ModelKind k);  // "wave3d", "sediment2d" (the scene files' "model" values)

// The throughput figures the timing panel shows, whatever the model.
struct ModelMetrics {
  double steps_per_s = 0.0;
  double gpoints_per_s = 0.0;
  double achieved_gbs = 0.0;
  double bytes_per_point = 0.0;
  double gflops = -1.0;  // < 0: the model does not count flops
  double last_advance_s = 0.0;
  long long last_steps = 0;
};

class ModelView {
 public:
  virtual ~ModelView() = default;
  virtual ModelKind kind() const = 0;
  virtual const std::string& path() const = 0;  // the scene file
  virtual std::string scene_name() const = 0;
  virtual std::string backend_note() const = 0;  // which solver runs, or why the CPU one does

  virtual long long step() const = 0;
  // The step of the field the views show (refresh() took it before the frame's steps were queued).
  virtual long long shown_step() const { return step(); }
  virtual std::string time_text() const = 0;  // simulated time in the model's natural unit
  virtual void advance(int steps) = 0;        // BlowUpError: the loop pauses and shows it
  // The frame loop's advance: queued and finished at the next frame where the model can
  // (WaveModel::advance_async), else at once. finish_advance throws as advance does.
  virtual void advance_async(int steps) { advance(steps); }
  virtual void finish_advance() {}
  virtual void reset() = 0;
  virtual ModelMetrics metrics() const = 0;
  // Key under which the current kernel configuration's throughput is remembered.
  virtual std::string variant_key() = 0;

  // The box [0, extent] the camera frames on reset.
  virtual glm::vec3 view_extent_m() const = 0;
  // Puts the camera where a fresh view of this model starts (load, 'C', the reset button).
  virtual void frame_camera(render::OrbitCamera& camera) const { camera.reset(view_extent_m()); }
  // Once per frame after the advance: refresh what the views draw (slices, surface).
  virtual void refresh(GuiContext& ctx) = 0;
  // The 3-D view behind the panels, and the model's side window (2-D slice, cross-section).
  virtual void draw_3d(GuiContext& ctx, WindowViews& views, int fb_width, int fb_height) = 0;
  virtual void draw_side_window(GuiContext& ctx, WindowViews& views) = 0;
  // The scene section's description of what the scene became.
  virtual void draw_scene_info(GuiContext& ctx) = 0;
  // The mouse ray over the 3-D view (not over a panel): fill ctx.hover.
  virtual void hover_3d(GuiContext& ctx, const render::Ray& ray) { (void)ctx, (void)ray; }

  virtual Session* wave_session() { return nullptr; }
  virtual SedimentView* sediment() { return nullptr; }
};

// Reads the scene file and builds the model its "model" key names (ws::scene_model).
// Throws (SceneError, MeshError, std::runtime_error) with the reason; a GL context must be current.
std::unique_ptr<ModelView> load_model_view(const std::string& path, BackendChoice backend,
                                           const DecompOptions& decomp = {});

// The scene the model selector loads for each model (assets/scenes/).
std::string default_scene_path(ModelKind kind);

}  // namespace ws::gui
