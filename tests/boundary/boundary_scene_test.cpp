// The "boundary" key of a scene: forms, per-wall conditions and refusals.
#include <gtest/gtest.h>

#include "scene/scene_json.hpp"

namespace ws {
namespace {

using nlohmann::json;

json base() { return json::parse(R"({"room_m": [2, 2, 2], "sample_rate_hz": 8000})"); }

std::string error_of(const json& j) {
  try {
    parse_wave_scene(j);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

TEST(BoundaryScene, Forms) {
  json j = base();
  j["boundary"] = "rigid";
  EXPECT_EQ(parse_wave_scene(j).walls[3].kind, WallKind::Rigid);
  j["boundary"] = json{{"absorption", 0.75}};
  EXPECT_NEAR(parse_wave_scene(j).walls[0].admittance, (1 - 0.5) / (1 + 0.5), 1e-12);
  j["boundary"] = json{{"x_min", "open"}, {"z_max", json{{"admittance", 0.4}}}};
  const WaveScene s = parse_wave_scene(j);
  EXPECT_EQ(s.walls[0].kind, WallKind::Open);
  EXPECT_EQ(s.walls[1].kind, WallKind::Fixed);
  EXPECT_NEAR(s.walls[5].admittance, 0.4, 1e-15);
  EXPECT_EQ(to_json(parse_wave_scene(to_json(s))), to_json(s));
}

TEST(BoundaryScene, Refusals) {
  json j = base();
  j["boundary"] = "sticky";
  EXPECT_NE(error_of(j).find("\"rigid\""), std::string::npos);
  j["boundary"] = json{{"absorption", 1.5}};
  EXPECT_NE(error_of(j).find("absorption = 1.5"), std::string::npos);
  j["boundary"] = json{{"w_min", "rigid"}};
  EXPECT_NE(error_of(j).find("w_min"), std::string::npos);
  j["boundary"] = "rigid";
  j["stencil"] = "leggy:2";
  EXPECT_NE(error_of(j).find("7-point"), std::string::npos);
}

}  // namespace
}  // namespace ws
