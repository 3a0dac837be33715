// Scene parsing: good scenes load; bad input names the key, the value and what is allowed.
#include <gtest/gtest.h>

#include "scene/scene_json.hpp"

namespace ws {
namespace {

using nlohmann::json;

json good() {
  return json::parse(R"({"room_m": [2, 2.5, 3], "sample_rate_hz": 8000, "precision": "double",
    "sources": [{"position_m": [1, 1, 1], "signal": {"type": "gaussian", "width_s": 0.001}}],
    "receivers": [{"name": "ear", "position_m": [1.5, 1.2, 2]}]})");
}

std::string error_of(const json& j) {
  try {
    parse_wave_scene(j);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

TEST(Scene, ShippedScenesLoad) {
  for (const char* f : {"shoebox.json", "webb_standard.json", "furnished_room.json", "l_hall.json"}) {
    const WaveScene s = load_wave_scene(std::string(WS_SOURCE_DIR) + "/assets/scenes/" + f);
    EXPECT_FALSE(s.sources.empty()) << f;
    EXPECT_NO_THROW(derive_grid(s));
  }
}

TEST(Scene, DerivesSpacingFromCourant) {
  const WaveScene s = parse_wave_scene(good());
  const DerivedGrid g = derive_grid(s);
  EXPECT_NEAR(g.courant, 1.0 / std::sqrt(3.0), 1e-12);                 // defaults to the limit
  EXPECT_NEAR(g.spacing_m, 343.0 / 8000.0 * std::sqrt(3.0), 1e-12);    // X = c T / lambda
  EXPECT_EQ(g.nx, (int)std::lround(2.0 / g.spacing_m) - 1);
  EXPECT_EQ(s.precision, Precision::Double);
}

TEST(Scene, CourantAboveLimitRefusedWithTheLimit) {
  json j = good();
  j["courant"] = 0.6;
  const std::string e = error_of(j);
  EXPECT_NE(e.find("courant = 0.6"), std::string::npos) << e;
  EXPECT_NE(e.find("0.57735"), std::string::npos) << e;
}

TEST(Scene, UnknownKeyNamed) {
  json j = good();
  j["roomsize"] = 3;
  const std::string e = error_of(j);
  EXPECT_NE(e.find("roomsize"), std::string::npos) << e;
  EXPECT_NE(e.find("room_m"), std::string::npos) << e;  // the allowed keys are listed
}

// A sediment scene where a wave scene is read (`wavescope run`, `bench realtime`): the
// model is named, not the first sediment key as an unknown one.
TEST(Scene, SedimentSceneRefusedByItsModel) {
  const std::string e = error_of(json::parse(R"({"model": "sediment2d", "grid": {"nx": 8, "ny": 8, "dx_m": 1},
    "alpha_m2_s": 0.1})"));
  EXPECT_NE(e.find("model = \"sediment2d\" is not allowed for a wave scene; allowed: wave3d"), std::string::npos) << e;
  EXPECT_EQ(e.find("unknown key"), std::string::npos) << e;
}

TEST(Scene, WrongTypeNamed) {
  json j = good();
  j["sample_rate_hz"] = "fast";
  const std::string e = error_of(j);
  EXPECT_NE(e.find("sample_rate_hz"), std::string::npos) << e;
  EXPECT_NE(e.find("\"fast\""), std::string::npos) << e;
  EXPECT_NE(e.find("number"), std::string::npos) << e;
}

TEST(Scene, PositionOutsideRoomNamed) {
  json j = good();
  j["receivers"][0]["position_m"] = {1.0, 7.0, 1.0};
  const std::string e = error_of(j);
  EXPECT_NE(e.find("receivers[0].position_m[y] = 7"), std::string::npos) << e;
  EXPECT_NE(e.find("lies outside the room; allowed: (0, 2.5"), std::string::npos) << e;
}

TEST(Scene, SourceQuantityDensityAndInterpolationRefusedWithTheAllowedValues) {
  json j = good();
  j["sources"][0]["quantity"] = "force";
  std::string e = error_of(j);
  EXPECT_NE(e.find("sources[0].quantity = \"force\""), std::string::npos) << e;
  EXPECT_NE(e.find("allowed: volume_velocity, scheme"), std::string::npos) << e;
  for (double bad : {0.0, -1.2}) {
    j = good();
    j["air_density_kg_m3"] = bad;
    e = error_of(j);
    EXPECT_NE(e.find("air_density_kg_m3 = "), std::string::npos) << e;
    EXPECT_NE(e.find("> 0"), std::string::npos) << e;
  }
  j = good();
  j["receivers"][0]["interpolation"] = "cubic";
  e = error_of(j);
  EXPECT_NE(e.find("receivers[0].interpolation = \"cubic\""), std::string::npos) << e;
  EXPECT_NE(e.find("allowed: nearest, trilinear"), std::string::npos) << e;
  j = good();
  j["sources"][0]["injection"] = "difference";  // only for scheme sources
  e = error_of(j);
  EXPECT_NE(e.find("sources[0].injection is only allowed"), std::string::npos) << e;
  j = good();
  j["sources"][0]["quantity"] = "scheme";
  j["sources"][0]["injection"] = "integral";
  e = error_of(j);
  EXPECT_NE(e.find("allowed: value, difference"), std::string::npos) << e;
}

TEST(Scene, SourceQuantitiesDefaultAndParse) {
  WaveScene s = parse_wave_scene(good());
  EXPECT_EQ(s.sources[0].quantity, SourceQuantity::VolumeVelocity);
  EXPECT_EQ(s.sources[0].interpolation, Interpolation::Nearest);
  EXPECT_DOUBLE_EQ(s.air_density_kg_m3, 1.2);
  json j = good();
  j["sources"][0]["quantity"] = "scheme";
  EXPECT_EQ(parse_wave_scene(j).sources[0].injection, Injection::Value);  // today's raw soft source
  j["sources"][0]["injection"] = "difference";
  j["sources"][0]["interpolation"] = "trilinear";
  j["air_density_kg_m3"] = 1.18;
  s = parse_wave_scene(j);
  EXPECT_EQ(s.sources[0].injection, Injection::Difference);
  EXPECT_EQ(s.sources[0].interpolation, Interpolation::Trilinear);
  EXPECT_DOUBLE_EQ(s.air_density_kg_m3, 1.18);
  EXPECT_EQ(to_json(parse_wave_scene(to_json(s))), to_json(s));
}

TEST(Scene, NonPositiveSizeRefused) {
  for (double bad : {0.0, -1.0}) {
    json j = good();
    j["room_m"][2] = bad;
    const std::string e = error_of(j);
    EXPECT_NE(e.find("room_m"), std::string::npos) << e;
    EXPECT_NE(e.find("> 0"), std::string::npos) << e;
  }
}

TEST(Scene, BadEnumsListTheAllowedValues) {
  json j = good();
  j["precision"] = "half";
  EXPECT_NE(error_of(j).find("allowed: float, double"), std::string::npos);
  j = good();
  j["sources"][0]["signal"]["type"] = "square";
  EXPECT_NE(error_of(j).find("raised_cosine, gaussian, gaussian_derivative, ricker, sine, impulse"), std::string::npos);
  j = good();
  j["stencil"] = "nine-point";
  EXPECT_NE(error_of(j).find("nine-point"), std::string::npos);
}

TEST(Scene, RoundTripsThroughJson) {
  const WaveScene a = parse_wave_scene(good());
  const WaveScene b = parse_wave_scene(to_json(a));
  EXPECT_EQ(to_json(a), to_json(b));
}

TEST(Scene, MissingFileAndBadJson) {
  EXPECT_THROW(load_wave_scene("/nonexistent/scene.json"), SceneError);
}

}  // namespace
}  // namespace ws
