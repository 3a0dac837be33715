#pragma once
// Reading and writing scenes as JSON. Parsing is strict: an unknown key, a
// wrong type or a value out of range throws SceneError naming the key, the
// value and what is allowed.
#include <nlohmann/json.hpp>
#include <string>

#include "scene/scene.hpp"

namespace ws {

// Reads a JSON file; SceneError when it cannot be read or parsed.
nlohmann::json load_json_file(const std::string& path);

// The "model" key of a scene file ("wave3d" when absent).
std::string scene_model(const nlohmann::json& j);

// scene_dir: the folder relative mesh paths are resolved against.
WaveScene parse_wave_scene(const nlohmann::json& j, const std::string& scene_dir = ".");
WaveScene load_wave_scene(const std::string& path);
nlohmann::json to_json(const WaveScene& s);

}  // namespace ws
