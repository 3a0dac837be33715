// The scene keys "materials" and "obstacles": strict parsing with messages
// that name the key, the value and what is allowed; and the shipped scenes
// with furniture (furnished_room.json, l_hall.json) parse and voxelise.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>

#include "geometry/geometry.hpp"
#include "geometry/materials.hpp"
#include "scene/scene_json.hpp"
#include "test_meshes.hpp"

namespace ws::testing {
namespace {

using nlohmann::json;

std::string error_of(const json& scene, const std::string& dir = ".") {
  try {
    geo::parse_geometry(scene, dir);
  } catch (const SceneError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no SceneError for " << scene.dump();
  return "";
}

json one(const json& obstacle, const json& materials = json::object()) {
  return json{{"materials", materials}, {"obstacles", json::array({obstacle})}};
}

TEST(Materials, AbsorptionToAdmittance) {
  EXPECT_DOUBLE_EQ(geo::absorption_to_admittance(0.0), 0.0);
  EXPECT_DOUBLE_EQ(geo::absorption_to_admittance(1.0), 1.0);
  EXPECT_NEAR(geo::absorption_to_admittance(0.36), 1.0 / 9.0, 1e-15);  // R = 0.8
  for (double a : {0.01, 0.2, 0.5, 0.9}) EXPECT_NEAR(geo::admittance_to_absorption(geo::absorption_to_admittance(a)), a, 1e-14);
  const auto m = geo::parse_materials(json{{"materials", {{"foam", {{"absorption", 0.36}}}, {"glass", {{"admittance", 0.02}}}}}});
  ASSERT_EQ(m.size(), 3u);
  EXPECT_EQ(m[0].name, "rigid");
  EXPECT_EQ(m[0].admittance, 0.0);
  EXPECT_EQ(m[1].name, "foam");
  EXPECT_NEAR(m[1].admittance, 1.0 / 9.0, 1e-15);
  EXPECT_EQ(m[2].admittance, 0.02);
  EXPECT_EQ(geo::parse_geometry(json::object(), ".").materials.size(), 1u);
}

TEST(SceneGeometryParse, ErrorsNameKeyValueAndWhatIsAllowed) {
  const json box = {{"type", "box"}, {"min_m", {0, 0, 0}}, {"max_m", {1, 1, 1}}};
  const std::vector<std::pair<json, std::string>> cases = {
      {{{"materials", {1, 2}}}, "materials = [1,2] is not allowed: expected a JSON object"},
      {{{"materials", {{"foam", {{"absorption", 1.5}}}}}}, "materials.foam.absorption = 1.5 is not allowed: expected a number in [0, 1]"},
      {{{"materials", {{"foam", {{"absorption", "high"}}}}}}, "materials.foam.absorption = \"high\" is not allowed: expected a number"},
      {{{"materials", {{"foam", {{"admittance", -0.1}}}}}}, "materials.foam.admittance = -0.1 is not allowed: expected a finite number >= 0"},
      {{{"materials", {{"foam", {{"absorption", 0.3}, {"admittance", 0.1}}}}}}, "give exactly one of \"absorption\" (0 .. 1) or \"admittance\" (>= 0)"},
      {{{"materials", {{"foam", json::object()}}}}, "materials.foam = {} is not allowed: give exactly one of"},
      {{{"materials", {{"foam", {{"alpha", 0.3}}}}}}, "unknown key 'materials.foam.alpha'; allowed keys here: absorption, admittance"},
      {{{"materials", {{"rigid", {{"admittance", 0.1}}}}}}, "materials.rigid is not allowed: 'rigid' is predefined"},
      {{{"obstacles", {{"type", "box"}}}}, "obstacles = {\"type\":\"box\"} is not allowed: expected an array of obstacles"},
      {{{"obstacles", {7}}}, "obstacles[0] = 7 is not allowed: expected a JSON object"},
      {one({{"min_m", {0, 0, 0}}}), "obstacles[0].type is required (one of box, sphere, cylinder, mesh)"},
      {one({{"type", "cone"}}), "obstacles[0].type = \"cone\" is not allowed; allowed: box, sphere, cylinder, mesh"},
      {one({{"type", "sphere"}, {"centre_m", {1, 1, 1}}, {"radius", 0.2}}),
       "unknown key 'obstacles[0].radius'; allowed keys here: centre_m, material, name, radius_m, type"},
      {one({{"type", "sphere"}, {"centre_m", {1, 1, 1}}, {"radius_m", "big"}}), "obstacles[0].radius_m = \"big\" is not allowed: expected a number"},
      {one({{"type", "sphere"}, {"centre_m", {1, 1, 1}}, {"radius_m", 0}}), "obstacles[0].radius_m = 0 is not allowed: expected a number > 0"},
      {one({{"type", "sphere"}, {"radius_m", 1}}), "obstacles[0].centre_m is required ([x, y, z] in metres)"},
      {one({{"type", "sphere"}, {"centre_m", {1, 1}}, {"radius_m", 1}}),
       "obstacles[0].centre_m = [1,1] is not allowed: expected an array of 3 numbers [x, y, z]"},
      {one({{"type", "box"}, {"min_m", {0, 0, 0}}, {"max_m", {1, 0, 1}}}),
       "obstacles[0].max_m = [1,0,1] is not allowed: each component must exceed min_m's ([0,0,0])"},
      {one({{"type", "cylinder"}, {"base_m", {1, 1, 0}}, {"top_m", {1, 1, 0}}, {"radius_m", 0.1}}),
       "obstacles[0].top_m = [1,1,0] is not allowed: it must differ from base_m"},
      {one({{"type", "box"}, {"min_m", {0, 0, 0}}, {"max_m", {1, 1, 1}}, {"material", "velvet"}}, {{"foam", {{"absorption", 0.5}}}}),
       "obstacles[0].material = \"velvet\" is not a known material; allowed: rigid, foam"},
      {one({{"type", "box"}, {"min_m", {0, 0, 0}}, {"max_m", {1, 1, 1}}, {"material", 3}}),
       "obstacles[0].material = 3 is not allowed: expected a string"},
      {one({{"type", "mesh"}}), "obstacles[0].file is required (an .obj or .stl path, relative to the scene file or absolute)"},
      {one({{"type", "mesh"}, {"file", "nothere.obj"}}), "obstacles[0].file: mesh file './nothere.obj' does not exist"},
      {one({{"type", "mesh"}, {"file", "a.obj"}, {"scale", -2}}), "obstacles[0].scale = -2 is not allowed: expected a number > 0"},
      {one({{"type", "mesh"}, {"file", "a.obj"}, {"offset", {0, 0, 0}}}),
       "unknown key 'obstacles[0].offset'; allowed keys here: file, group_materials, material, name, offset_m, scale, type"},
  };
  for (const auto& [scene, expect] : cases) {
    const std::string e = error_of(scene);
    EXPECT_NE(e.find(expect), std::string::npos) << "scene " << scene.dump() << "\n  message: " << e << "\n  expected: " << expect;
  }
  (void)box;
}

TEST(SceneGeometryParse, MeshFileErrorsCarryTheObstacleKey) {
  const std::string dir = temp_dir();
  write_text(dir + "/tri.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
  write_text(dir + "/bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 nan\nf 1 2 3\n");
  write_obj(dir + "/ball.obj", icosphere({1, 1, 1}, 0.5, 1));
  auto err = [&](const json& s) { return error_of(s, dir); };
  EXPECT_NE(err(one({{"type", "mesh"}, {"file", "tri.obj"}})).find("obstacles[0].file: mesh '" + dir + "/tri.obj' encloses no volume"),
            std::string::npos);
  EXPECT_NE(err(one({{"type", "mesh"}, {"file", "bad.obj"}})).find("obstacles[0].file: OBJ file '" + dir + "/bad.obj' line 3"),
            std::string::npos);
  EXPECT_NE(err(one({{"type", "mesh"}, {"file", "ball.obj"}, {"group_materials", {{"lid", "rigid"}}}}))
                .find("unknown key 'obstacles[0].group_materials.lid': the mesh has no group, object or usemtl named \"lid\"; "
                      "names in the file: test"),
            std::string::npos);
  EXPECT_NE(err(one({{"type", "mesh"}, {"file", "ball.obj"}, {"group_materials", {{"test", "felt"}}}}))
                .find("obstacles[0].group_materials.test = \"felt\" is not a known material; allowed: rigid"),
            std::string::npos);
  // An absolute path ignores the scene folder; scale and offset apply.
  const geo::SceneGeometry g = geo::parse_geometry(
      one({{"type", "mesh"}, {"file", dir + "/ball.obj"}, {"scale", 2.0}, {"offset_m", {0.5, 0, 0}}}), "/nonexistent");
  const geo::Aabb b = g.obstacles.at(0).mesh->bvh.bounds();
  EXPECT_NEAR(b.lo.x, 1.5, 1e-12);
  EXPECT_NEAR(b.hi.x, 3.5, 1e-12);
  EXPECT_NEAR(b.hi.z, 3.0, 1e-12);
}

// The boundary forms the lead's scene parser accepts (issue 6).
void expect_boundary_form(const json& b, const std::string& file) {
  auto one_wall = [&](const json& w) {
    if (w.is_string()) {
      const std::string s = w.get<std::string>();
      EXPECT_TRUE(s == "fixed" || s == "rigid" || s == "open") << file << ": " << s;
    } else {
      ASSERT_TRUE(w.is_object() && w.size() == 1) << file << ": " << w.dump();
      EXPECT_TRUE(w.contains("absorption") || w.contains("admittance")) << file << ": " << w.dump();
    }
  };
  if (b.is_object() && !b.contains("absorption") && !b.contains("admittance")) {
    for (auto it = b.begin(); it != b.end(); ++it) {
      const std::set<std::string> walls = {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"};
      EXPECT_TRUE(walls.count(it.key())) << file << ": boundary." << it.key();
      one_wall(it.value());
    }
  } else {
    one_wall(b);
  }
}

TEST(ShippedScenes, ParseAndVoxelise) {
  for (const std::string name : {std::string("furnished_room.json"), std::string("l_hall.json")}) {
    SCOPED_TRACE(name);
    const std::string dir = std::string(WS_SOURCE_DIR) + "/assets/scenes";
    const json j = load_json_file(dir + "/" + name);
    const geo::SceneGeometry g = geo::parse_geometry(j, dir);
    EXPECT_TRUE(g.warnings.empty()) << g.warnings.at(0);
    ASSERT_TRUE(j.contains("boundary"));
    expect_boundary_form(j.at("boundary"), name);
    // The rest of the scene through today's parser (which will accept these keys itself).
    json rest = j;
    rest.erase("materials");
    rest.erase("obstacles");
    rest["boundary"] = "fixed";
    const WaveScene s = parse_wave_scene(rest);
    const DerivedGrid grid = derive_grid(s);
    const geo::SolidMask m = geo::voxelise(g, grid);
    std::printf("  %s: grid %d x %d x %d at %.4f m, %zu materials, %zu obstacles, %lld solid nodes (%.2f m^3)\n",
                name.c_str(), grid.nx, grid.ny, grid.nz, grid.spacing_m, m.materials.size(), m.obstacles.size(),
                m.solid_nodes, m.solid_volume_m3());
    for (const auto& o : m.obstacles) {
      std::printf("    %-52s %7lld nodes, %.4f m^3 (exact %.4f)\n", o.label.c_str(), o.nodes,
                  o.nodes * grid.spacing_m * grid.spacing_m * grid.spacing_m, o.exact_volume_m3);
      EXPECT_GT(o.nodes, 0) << o.label << " vanishes at this resolution";
    }
    for (size_t q = 0; q < grid.source_nodes.size(); ++q)
      EXPECT_NO_THROW(geo::require_air(m, grid.source_nodes[q], "sources[" + std::to_string(q) + "]"));
    for (size_t q = 0; q < grid.receiver_nodes.size(); ++q)
      EXPECT_NO_THROW(geo::require_air(m, grid.receiver_nodes[q], "receivers[" + std::to_string(q) + "]"));
    EXPECT_FALSE(geo::geometry_triangles(g).empty());
    // Several materials in use, as the scenes are meant to show.
    std::set<int> used(m.material.begin(), m.material.end());
    EXPECT_GE(used.size(), 3u);  // air and at least two materials
  }
}

}  // namespace
}  // namespace ws::testing
