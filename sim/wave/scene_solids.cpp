#include "wave/scene_solids.hpp"

namespace ws {

SolidNodes voxelise_scene(const WaveScene& scene, const DerivedGrid& grid) {
  SolidNodes s;
  if (!scene.geometry.contains("obstacles") || scene.geometry.at("obstacles").empty()) return s;
  throw SceneError("obstacles are not supported yet");
}

}  // namespace ws
