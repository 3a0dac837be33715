#pragma once
// The obstacles of a scene on its grid, and checks that sources and receivers lie in air.
#include "boundary/boundary_plan.hpp"
#include "scene/scene.hpp"

namespace ws {

// Voxelises the scene's "obstacles" (sim/geometry); empty when there are none.
// Throws SceneError when a source or receiver node lies inside an obstacle.
SolidNodes voxelise_scene(const WaveScene& scene, const DerivedGrid& grid);

}  // namespace ws
