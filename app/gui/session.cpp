#include "gui/session.hpp"

#include "scene/scene_json.hpp"
#include "source/sampled_sources.hpp"

namespace ws::gui {

Session::Session(const std::string& scene_path, BackendChoice backend, const DecompOptions& decomp)
    : path_(scene_path) {
  WaveScene scene = load_wave_scene(scene_path);
  audio::load_scene_signals(scene);
  // The autotuned kernel (sim/cuda/autotune.hpp); on slabs the slabs' default.
  model_ = std::make_unique<WaveModel>(scene, backend, "auto", decomp);
  slices_ = std::make_unique<render::SliceTextures>(display_field(model_->solver()));
  refresh_room();
}

void Session::continue_on_cpu() {
  model_->continue_on_cpu();
  slices_ = std::make_unique<render::SliceTextures>(display_field(model_->solver()));
}

void Session::update_slices(const render::SlicePositions& pos) {
  cudaStream_t stream = model_->cuda() ? model_->cuda()->stream() : nullptr;
  slices_->update(model_->solver().slice_field(pos.i, pos.j, pos.k), pos, stream);
}

}  // namespace ws::gui
