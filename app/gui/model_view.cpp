#include "gui/model_view.hpp"

#include <filesystem>

#include "gui/sediment_view.hpp"
#include "gui/wave_view.hpp"
#include "scene/scene_json.hpp"
#include "sediment/sediment_scene.hpp"

namespace ws::gui {

const char* to_string(ModelKind k) { return k == ModelKind::Wave ? "wave3d" : "sediment2d"; }

std::unique_ptr<ModelView> load_model_view(const std::string& path, BackendChoice backend, const DecompOptions& decomp) {
  const nlohmann::json j = load_json_file(path);
  const std::string model = scene_model(j);
  if (model == "sediment2d") return std::make_unique<SedimentView>(path, load_sediment_scene(path), backend);
  if (model == "wave3d") return std::make_unique<WaveView>(path, backend, decomp);
  throw SceneError("scene '" + path + "': \"model\" = \"" + model + "\" is not supported; allowed: wave3d, sediment2d");
}

std::string default_scene_path(ModelKind kind) {
  // WS_DEFAULT_SCENE is the shoebox in the source tree's assets/scenes/ (app/CMakeLists.txt).
  const std::filesystem::path dir = std::filesystem::path(WS_DEFAULT_SCENE).parent_path();
  return (dir / (kind == ModelKind::Wave ? "shoebox.json" : "sediment_river_delta.json")).string();
}

}  // namespace ws::gui
