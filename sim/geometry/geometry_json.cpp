// The scene's "materials" and "obstacles" keys.
#include <filesystem>
#include <set>

#include "geometry/geometry.hpp"
#include "geometry/materials.hpp"
#include "scene/json_checks.hpp"

namespace ws::geo {

using nlohmann::json;
using namespace json_checks;
namespace fs = std::filesystem;

const char* to_string(ObstacleKind k) {
  switch (k) {
    case ObstacleKind::Box: return "box";
    case ObstacleKind::Sphere: return "sphere";
    case ObstacleKind::Cylinder: return "cylinder";
    case ObstacleKind::Mesh: return "mesh";
  }
  return "?";
}

bool MeshSolid::single_material() const {
  for (int m : triangle_material)
    if (m != triangle_material.front()) return false;
  return true;
}

int SceneGeometry::material_index(const std::string& name, const std::string& where) const {
  for (size_t q = 0; q < materials.size(); ++q)
    if (materials[q].name == name) return (int)q + 1;
  std::string list;
  for (const auto& m : materials) list += (list.empty() ? "" : ", ") + m.name;
  throw SceneError(where + " = \"" + name + "\" is not a known material; allowed: " + list +
                   " (define more under \"materials\")");
}

namespace {

void require(const json& o, const std::string& where, const std::string& key, const std::string& what) {
  if (!o.contains(key)) throw SceneError(where + "." + key + " is required (" + what + ")");
}

double positive_radius(const json& o, const std::string& where) {
  require(o, where, "radius_m", "a number > 0, metres");
  return positive(o.at("radius_m"), where + ".radius_m");
}

std::shared_ptr<MeshSolid> load_mesh(const json& o, const std::string& where, const std::string& scene_dir,
                                     const SceneGeometry& g, int default_material, const GeometryOptions& opt,
                                     std::vector<std::string>& warnings) {
  require(o, where, "file", "an .obj or .stl path, relative to the scene file or absolute");
  const std::string file = string(o.at("file"), where + ".file");
  if (file.empty()) throw SceneError(where + ".file = \"\" is not allowed: expected an .obj or .stl path");
  const std::string path = fs::path(file).is_absolute() ? file : (fs::path(scene_dir) / file).string();
  const double scale = o.contains("scale") ? positive(o.at("scale"), where + ".scale") : 1.0;
  const Vec3 offset = [&] {
    if (!o.contains("offset_m")) return Vec3{};
    const auto a = vec3(o.at("offset_m"), where + ".offset_m");
    return Vec3{a[0], a[1], a[2]};
  }();
  auto solid = std::make_shared<MeshSolid>();
  solid->path = path;
  try {
    solid->mesh = read_mesh_file(path, opt.mesh_limits);
    weld_vertices(solid->mesh);
    for (Vec3& v : solid->mesh.vertices) v = scale * v + offset;
    solid->report = orient_and_check(solid->mesh);
  } catch (const MeshError& e) {
    throw MeshError(where + ".file: " + e.what());
  }
  // Per-surface materials: a face's "usemtl" name first, then its "g" names,
  // then its "o" name (an STL solid's name); else the obstacle's material.
  std::vector<std::pair<std::string, int>> map;
  if (o.contains("group_materials")) {
    const json& gm = object_at(o.at("group_materials"), where + ".group_materials");
    std::set<std::string> present;
    for (const auto& t : solid->mesh.tags) {
      if (!t.usemtl.empty()) present.insert(t.usemtl);
      for (const auto& n : t.groups) present.insert(n);
      if (!t.object.empty()) present.insert(t.object);
    }
    for (auto it = gm.begin(); it != gm.end(); ++it) {
      const std::string w = where + ".group_materials." + it.key();
      if (!present.count(it.key())) {
        std::string list;
        for (const auto& n : present) list += (list.empty() ? "" : ", ") + n;
        throw SceneError("unknown key '" + w + "': the mesh has no group, object or usemtl named \"" + it.key() +
                         "\"; names in the file: " + (list.empty() ? "(none)" : list));
      }
      map.push_back({it.key(), g.material_index(string(it.value(), w), w)});
    }
  }
  auto lookup = [&](const std::string& name) {
    for (const auto& [n, m] : map)
      if (n == name) return m;
    return 0;
  };
  std::vector<int> tag_material(solid->mesh.tags.size(), default_material);
  for (size_t q = 0; q < solid->mesh.tags.size(); ++q) {
    const FaceTag& t = solid->mesh.tags[q];
    int m = t.usemtl.empty() ? 0 : lookup(t.usemtl);
    for (size_t n = 0; !m && n < t.groups.size(); ++n) m = lookup(t.groups[n]);
    if (!m && !t.object.empty()) m = lookup(t.object);
    if (m) tag_material[q] = m;
  }
  solid->triangle_material.resize(solid->mesh.triangles.size());
  std::vector<Tri> tris(solid->mesh.triangles.size());
  for (size_t q = 0; q < tris.size(); ++q) {
    solid->triangle_material[q] = tag_material[solid->mesh.triangle_tag[q]];
    for (int c = 0; c < 3; ++c) tris[q][c] = solid->mesh.vertices[solid->mesh.triangles[q][c]];
  }
  solid->bvh = TriangleBvh(tris);
  if (!solid->report.watertight()) warnings.push_back(where + " ('" + file + "'): " + solid->report.summary());
  return solid;
}

Obstacle parse_obstacle(const json& o, const std::string& where, const std::string& scene_dir,
                        const SceneGeometry& g, const GeometryOptions& opt, std::vector<std::string>& warnings) {
  object_at(o, where);
  require(o, where, "type", "one of box, sphere, cylinder, mesh");
  const std::string type = string(o.at("type"), where + ".type");
  Obstacle ob;
  std::string detail;
  if (type == "box") {
    only_keys(o, where + ".", {"type", "name", "material", "min_m", "max_m"});
    require(o, where, "min_m", "[x, y, z] in metres");
    require(o, where, "max_m", "[x, y, z] in metres");
    const auto lo = vec3(o.at("min_m"), where + ".min_m"), hi = vec3(o.at("max_m"), where + ".max_m");
    for (int d = 0; d < 3; ++d)
      if (!(lo[d] < hi[d]))
        throw SceneError(where + ".max_m = " + show(o.at("max_m")) + " is not allowed: each component must exceed min_m's (" +
                         show(o.at("min_m")) + ")");
    ob.kind = ObstacleKind::Box;
    ob.box = {{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}};
  } else if (type == "sphere") {
    only_keys(o, where + ".", {"type", "name", "material", "centre_m", "radius_m"});
    require(o, where, "centre_m", "[x, y, z] in metres");
    const auto c = vec3(o.at("centre_m"), where + ".centre_m");
    ob.kind = ObstacleKind::Sphere;
    ob.sphere = {{c[0], c[1], c[2]}, positive_radius(o, where)};
  } else if (type == "cylinder") {
    only_keys(o, where + ".", {"type", "name", "material", "base_m", "top_m", "radius_m"});
    require(o, where, "base_m", "centre of one cap, [x, y, z] in metres");
    require(o, where, "top_m", "centre of the other cap, [x, y, z] in metres");
    const auto b = vec3(o.at("base_m"), where + ".base_m"), t = vec3(o.at("top_m"), where + ".top_m");
    if (b == t)
      throw SceneError(where + ".top_m = " + show(o.at("top_m")) + " is not allowed: it must differ from base_m");
    ob.kind = ObstacleKind::Cylinder;
    ob.cylinder = {{b[0], b[1], b[2]}, {t[0], t[1], t[2]}, positive_radius(o, where)};
  } else if (type == "mesh") {
    only_keys(o, where + ".", {"type", "name", "material", "file", "scale", "offset_m", "group_materials"});
    ob.kind = ObstacleKind::Mesh;
  } else {
    throw SceneError(where + ".type = \"" + type + "\" is not allowed; allowed: box, sphere, cylinder, mesh");
  }
  ob.material = o.contains("material") ? g.material_index(string(o.at("material"), where + ".material"), where + ".material")
                                       : 1;
  if (ob.kind == ObstacleKind::Mesh) {
    ob.mesh = load_mesh(o, where, scene_dir, g, ob.material, opt, warnings);
    detail = fs::path(ob.mesh->path).filename().string();
  }
  const std::string name = o.contains("name") ? string(o.at("name"), where + ".name") : "";
  ob.label = where + " (" + type + (detail.empty() ? "" : " " + detail) + (name.empty() ? "" : " \"" + name + "\"") + ")";
  return ob;
}

}  // namespace

SceneGeometry parse_geometry(const json& scene, const std::string& scene_dir, const GeometryOptions& options) {
  if (!scene.is_object()) throw SceneError("a scene must be a JSON object, got " + show(scene));
  SceneGeometry g;
  g.materials = parse_materials(scene);
  if (!scene.contains("obstacles")) return g;
  const json& a = scene.at("obstacles");
  if (!a.is_array()) throw SceneError("obstacles = " + show(a) + " is not allowed: expected an array of obstacles");
  for (size_t q = 0; q < a.size(); ++q)
    g.obstacles.push_back(parse_obstacle(a[q], "obstacles[" + std::to_string(q) + "]", scene_dir, g, options, g.warnings));
  return g;
}

}  // namespace ws::geo
