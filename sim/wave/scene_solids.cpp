#include "wave/scene_solids.hpp"

#include "geometry/geometry.hpp"

namespace ws {

SolidNodes voxelise_scene(const WaveScene& scene, const DerivedGrid& grid) {
  SolidNodes s;
  if (!scene.geometry.contains("obstacles") || scene.geometry.at("obstacles").empty()) return s;
  const geo::SceneGeometry g = geo::parse_geometry(scene.geometry, scene.scene_dir);
  geo::SolidMask m = geo::voxelise(g, grid);
  for (size_t q = 0; q < grid.source_nodes.size(); ++q)
    geo::require_air(m, grid.source_nodes[q], "sources[" + std::to_string(q) + "].position_m");
  for (size_t q = 0; q < grid.receiver_nodes.size(); ++q)
    geo::require_air(m, grid.receiver_nodes[q], "receivers[" + std::to_string(q) + "].position_m");
  s.admittance = m.admittances();
  s.material = std::move(m.material);
  return s;
}

}  // namespace ws
