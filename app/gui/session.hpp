#pragma once
// What one loaded scene brings to the GUI: the wave model (solver with CPU
// fallback), the slice textures fed from its field, and the room geometry the
// views draw. Loading a new scene builds a whole new Session, so a scene that
// fails to load leaves the running one untouched.
#include <memory>
#include <string>

#include "room_geometry.hpp"
#include "slice_textures.hpp"
#include "wave/wave_model.hpp"

namespace ws::gui {

class Session {
 public:
  // Throws SceneError / std::invalid_argument (bad scene) or std::runtime_error.
  // `decomp` (sim/decomp/): the model over z-slabs on several GPUs or CPU slabs; the slices
  // then show the whole field gathered through the host each frame.
  Session(const std::string& scene_path, BackendChoice backend, const DecompOptions& decomp = {});

  WaveModel& model() { return *model_; }
  const WaveModel& model() const { return *model_; }
  render::SliceTextures& slices() { return *slices_; }
  const render::RoomGeometry& room() const { return room_; }
  const std::string& path() const { return path_; }

  // Markers follow the model's source and receiver nodes (after a move).
  void refresh_room() { room_ = render::make_room_geometry(model_->scene(), model_->grid()); }
  // Pulls the current field into the slice textures (interop on CUDA).
  void update_slices(const render::SlicePositions& pos);
  // After a solver fault: the model goes on with the CPU solver (WaveModel::continue_on_cpu)
  // and the slice textures, fed from the host from now on, are made anew.
  void continue_on_cpu();

 private:
  std::string path_;
  std::unique_ptr<WaveModel> model_;
  std::unique_ptr<render::SliceTextures> slices_;
  render::RoomGeometry room_;
};

}  // namespace ws::gui
