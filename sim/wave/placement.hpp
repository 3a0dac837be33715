#pragma once
// What a user should know about where the grid put things: the modelled room
// when it differs from room_m (walls sit on whole or half cells), the node a
// nearest-node source or receiver snapped to, and the unit the receivers record.
#include <string>
#include <vector>

#include "scene/scene.hpp"

namespace ws {

std::vector<std::string> placement_report(const WaveScene& scene, const DerivedGrid& grid);

// "Pa" when every source is a volume velocity, else "scheme units".
std::string receiver_unit(const WaveScene& scene);

}  // namespace ws
