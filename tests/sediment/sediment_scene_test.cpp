// Sediment scenes: strict parsing, the computed stability limit and its enforcement.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <cmath>
#include <functional>
#include <sstream>

#include "scene/scene_json.hpp"
#include "sediment/sediment_scene.hpp"
#include "sediment/sediment_setup.hpp"

namespace ws {
namespace {

using nlohmann::json;

json base_scene() {
  return json::parse(R"({
    "model": "sediment2d", "name": "flat test",
    "grid": {"nx": 40, "ny": 30, "dx_m": 10, "dy_m": 10},
    "compaction_sand": 0.5, "compaction_mud": 0.5, "top_layer_m": 1.0,
    "alpha_m2_s": 1.0, "beta_m2_s": 0.5,
    "initial_h": {"type": "flat", "height_m": 3.0}, "initial_s": 0.5
  })");
}

std::string error_of(const json& j) {
  try {
    parse_sediment_scene(j);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SedimentScene, StabilityLimitFollowsTheFormula) {
  // D_max = max(alpha/C_s, beta/C_m) = 2 m^2/s; limit = 1 / (2 * 2 * (1/100 + 1/100)) = 12.5 s.
  // A flat, closed basin has no top-layer limit.
  const SedimentScene s = parse_sediment_scene(base_scene());
  const SedimentGrid g = derive_sediment_grid(s);
  EXPECT_DOUBLE_EQ(g.d_max_m2_s, 2.0);
  EXPECT_DOUBLE_EQ(g.dt_diffusion_limit_s, 12.5);
  EXPECT_TRUE(std::isinf(g.dt_layer_limit_s));
  EXPECT_DOUBLE_EQ(g.dt_limit_s, 12.5);
  EXPECT_DOUBLE_EQ(g.dt_s, 0.5 * 12.5);  // default dt_fraction 0.5
}

TEST(SedimentScene, TimeStepAboveTheLimitIsRefusedWithTheLimit) {
  json j = base_scene();
  j["dt_s"] = 13.0;
  const std::string msg = error_of(j);
  EXPECT_NE(msg.find("dt_s = 13"), std::string::npos) << msg;
  EXPECT_NE(msg.find("stability limit is 12.5 s"), std::string::npos) << msg;
  EXPECT_NE(msg.find("allowed: 0 < dt_s <= 12.5"), std::string::npos) << msg;
  j["dt_s"] = 12.5;  // exactly at the limit: allowed
  EXPECT_DOUBLE_EQ(derive_sediment_grid(parse_sediment_scene(j)).dt_s, 12.5);
}

TEST(SedimentScene, UnequalSpacingAndMudDominatedLimit) {
  json j = base_scene();
  j["grid"]["dy_m"] = 20.0;
  j["beta_m2_s"] = 3.0;  // beta/C_m = 6 > alpha/C_s = 2
  const SedimentGrid g = derive_sediment_grid(parse_sediment_scene(j));
  EXPECT_DOUBLE_EQ(g.d_max_m2_s, 6.0);
  EXPECT_NEAR(g.dt_diffusion_limit_s, 1.0 / (2 * 6.0 * (1 / 100.0 + 1 / 400.0)), 1e-12);
}

TEST(SedimentScene, TopLayerLimitAppliesToSteepInflow) {
  // A strong inflow into a thin top layer: the layer limit is finite and enforced.
  json j = base_scene();
  j["top_layer_m"] = 0.01;
  j["boundary_flux"] = {{"west", {{"flux_m2_s", 5.0}, {"sand_fraction", 1.0}}}};
  const SedimentGrid g = derive_sediment_grid(parse_sediment_scene(j));
  EXPECT_LT(g.dt_layer_limit_s, g.dt_diffusion_limit_s);
  EXPECT_DOUBLE_EQ(g.dt_limit_s, g.dt_layer_limit_s);
  j["dt_s"] = 1.01 * g.dt_layer_limit_s;
  EXPECT_NE(error_of(j).find("top-layer limit"), std::string::npos);
}

TEST(SedimentScene, ParseErrorsNameKeyValueAndAllowed) {
  struct Case {
    std::function<void(json&)> edit;
    std::vector<std::string> expect;
  };
  const std::vector<Case> cases = {
      {[](json& j) { j["colour"] = 1; }, {"unknown key 'colour'", "allowed keys here"}},
      {[](json& j) { j["grid"]["nx"] = 2.5; }, {"grid.nx = 2.5", "whole number", "3 .. 32768"}},
      {[](json& j) { j["grid"]["dx_m"] = -1; }, {"grid.dx_m = -1", "> 0"}},
      {[](json& j) { j["grid"].erase("ny"); }, {"grid.ny is required"}},
      {[](json& j) { j["alpha_m2_s"] = {{"type", "delta"}}; }, {"alpha_m2_s.type = \"delta\"", "constant, river_mouth"}},
      {[](json& j) { j["beta_m2_s"] = 0.0; }, {"beta_m2_s = 0", "> 0"}},
      {[](json& j) { j["alpha_m2_s"] = {{"type", "river_mouth"}, {"background_m2_s", 0.1}}; },
       {"alpha_m2_s.peak_m2_s is required"}},
      {[](json& j) {
         j["alpha_m2_s"] = {{"type", "river_mouth"}, {"background_m2_s", 0.1}, {"peak_m2_s", 1}, {"side", "up"},
                            {"centre_m", 1}, {"width_m", 1}, {"decay_m", 1}};
       },
       {"alpha_m2_s.side = \"up\"", "west, east, south, north"}},
      {[](json& j) { j["initial_s"] = 1.5; }, {"initial_s = 1.5", "0 .. 1"}},
      {[](json& j) { j["initial_h"] = {{"type", "cliff"}}; }, {"initial_h.type = \"cliff\"", "flat, slope, bump"}},
      {[](json& j) { j["boundary_flux"] = {{"up", {{"flux_m2_s", 1}}}}; }, {"boundary_flux.up", "west"}},
      {[](json& j) { j["boundary_flux"] = {{"west", {{"flux_m2_s", 1}, {"to_m", 1000}}}}; },
       {"boundary_flux.west segment", "side length 300"}},
      {[](json& j) { j["boundary_flux"] = {{"west", {{"sand_fraction", 2}}}}; },
       {"boundary_flux.west.sand_fraction = 2", "0 .. 1"}},
      {[](json& j) { j["dt_fraction"] = 1.5; }, {"dt_fraction = 1.5", "0 < dt_fraction <= 1"}},
      {[](json& j) {
         j["dt_fraction"] = 0.5;
         j["dt_s"] = 1;
       },
       {"dt_s and dt_fraction are both given"}},
      {[](json& j) { j["precision"] = "half"; }, {"precision = \"half\"", "float, double"}},
      {[](json& j) { j["model"] = "wave3d"; }, {"allowed: sediment2d"}},
  };
  for (size_t c = 0; c < cases.size(); ++c) {
    json j = base_scene();
    cases[c].edit(j);
    const std::string msg = error_of(j);
    for (const auto& e : cases[c].expect) EXPECT_NE(msg.find(e), std::string::npos) << "case " << c << ": " << msg;
  }
}

TEST(SedimentScene, JsonRoundTrip) {
  json j = base_scene();
  j["alpha_m2_s"] = {{"type", "river_mouth"}, {"background_m2_s", 0.1}, {"peak_m2_s", 1.5}, {"side", "south"},
                     {"centre_m", 200}, {"width_m", 50}, {"decay_m", 80}};
  j["initial_h"] = {{"type", "slope"}, {"base_m", 2}, {"gradient_x", 0.01}, {"gradient_y", -0.02}};
  j["boundary_flux"] = {{"south", {{"flux_m2_s", 0.01}, {"sand_fraction", 0.9}, {"from_m", 100}, {"to_m", 300}}}};
  const SedimentScene a = parse_sediment_scene(j);
  const SedimentScene b = parse_sediment_scene(to_json(a));
  EXPECT_EQ(to_json(a).dump(), to_json(b).dump());
  EXPECT_DOUBLE_EQ(derive_sediment_grid(a).dt_s, derive_sediment_grid(b).dt_s);
}

TEST(SedimentScene, ShippedScenesLoad) {
  for (const char* f : {"sediment_river_delta.json", "sediment_closed_basin.json"}) {
    const std::string path = std::string(WS_SOURCE_DIR) + "/assets/scenes/" + f;
    EXPECT_EQ(scene_model(load_json_file(path)), "sediment2d") << path;
    EXPECT_NO_THROW(load_sediment_scene(path)) << path;
  }
}

}  // namespace
}  // namespace ws
