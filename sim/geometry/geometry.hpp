#pragma once
// Obstacles in a scene and their voxelisation onto the wave grid.
//
// A scene's "materials" and "obstacles" keys become a SceneGeometry
// (parse_geometry); voxelise() turns it into a SolidMask over the interior
// nodes of the grid, node (i, j, k) at ((i+1) X, (j+1) X, (k+1) X) metres;
// geometry_triangles() gives the surfaces for the 3-D view.
#include <array>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "geometry/mesh.hpp"
#include "geometry/triangle_bvh.hpp"
#include "geometry/vec3.hpp"
#include "scene/scene.hpp"

namespace ws::geo {

// A surface material: its normal-incidence specific admittance beta
// (admittance times rho c; 0 = rigid, 1 = matched to air).
struct Material {
  std::string name;
  double admittance = 0.0;
};

// A triangle in metres with its material, 1-based as in SolidMask
// (materials[material - 1]); outward-facing (counter-clockwise seen from outside).
struct Triangle {
  std::array<Vec3, 3> v_m;
  int material = 1;
};

enum class ObstacleKind { Box, Sphere, Cylinder, Mesh };
const char* to_string(ObstacleKind k);

struct BoxShape {
  Vec3 min_m, max_m;
};
struct SphereShape {
  Vec3 centre_m;
  double radius_m = 0;
};
struct CylinderShape {
  Vec3 base_m, top_m;  // centres of the two caps
  double radius_m = 0;
};

// A mesh obstacle ready to voxelise: vertices in metres (scale and offset
// applied), welded, outward-oriented, with a material per triangle and a BVH.
struct MeshSolid {
  std::string path;
  Mesh mesh;
  std::vector<int> triangle_material;  // 1-based, per triangle
  MeshReport report;
  TriangleBvh bvh;
  bool single_material() const;
};

struct Obstacle {
  ObstacleKind kind = ObstacleKind::Box;
  std::string label;  // "obstacles[3] (mesh chair.obj)", for messages
  int material = 1;   // 1-based; for meshes, the default of triangles without a group material
  BoxShape box;
  SphereShape sphere;
  CylinderShape cylinder;
  std::shared_ptr<const MeshSolid> mesh;  // shared: copies of a SceneGeometry are cheap
};

struct SceneGeometry {
  std::vector<Material> materials;  // materials[0] is "rigid" (beta 0)
  std::vector<Obstacle> obstacles;  // voxelised in order: a later obstacle overwrites an earlier one
  std::vector<std::string> warnings;  // e.g. meshes that are not watertight
  // 1-based index of a material, or SceneError naming the valid ones.
  int material_index(const std::string& name, const std::string& where) const;
};

struct GeometryOptions {
  MeshLimits mesh_limits;
};

// Reads the scene object's "materials" and "obstacles" keys (other keys are
// the scene parser's business and are ignored here). Mesh files are relative
// to scene_dir unless absolute. Strict: SceneError (MeshError for mesh files)
// naming the key path, the value and what is allowed.
SceneGeometry parse_geometry(const nlohmann::json& scene, const std::string& scene_dir,
                             const GeometryOptions& options = {});

// Per-obstacle outcome of a voxelisation.
struct ObstacleVoxels {
  std::string label;
  long long nodes = 0;        // nodes inside this obstacle (before later obstacles overwrite)
  double exact_volume_m3 = 0; // analytic (primitives) or mesh volume, clipped to nothing: the full solid
};

struct SolidMask {
  int nx = 0, ny = 0, nz = 0;
  double spacing_m = 0;
  std::array<double, 3> first_node_m{};  // position of node 0 per axis (DerivedGrid::first_node_m)
  // Per interior node, index i + nx * (j + ny * k): 0 = air, m = materials[m - 1].
  std::vector<std::uint8_t> material;
  std::vector<Material> materials;
  std::vector<ObstacleVoxels> obstacles;
  long long solid_nodes = 0;
  // Obstacles that occupy no node (outside the room, or thinner than X).
  std::vector<std::string> warnings;

  std::size_t index(int i, int j, int k) const { return (std::size_t)i + (std::size_t)nx * ((std::size_t)j + (std::size_t)ny * k); }
  std::uint8_t at(int i, int j, int k) const { return material[index(i, j, k)]; }
  bool solid(int i, int j, int k) const { return at(i, j, k) != 0; }
  Vec3 node_position(int i, int j, int k) const {
    return Vec3{first_node_m[0] + i * spacing_m, first_node_m[1] + j * spacing_m, first_node_m[2] + k * spacing_m};
  }
  // Each node stands for an X^3 cell.
  double solid_volume_m3() const { return (double)solid_nodes * spacing_m * spacing_m * spacing_m; }
  // Admittance of mask value m at [m - 1].
  std::vector<double> admittances() const {
    std::vector<double> a;
    for (const auto& m : materials) a.push_back(m.admittance);
    return a;
  }
};

// Node (i, j, k) sits at first_node_m + (i, j, k) X; the overload without it puts
// node 0 at X (fixed walls on every side).
SolidMask voxelise(const SceneGeometry& g, int nx, int ny, int nz, double spacing_m,
                   const std::array<double, 3>& first_node_m);
SolidMask voxelise(const SceneGeometry& g, int nx, int ny, int nz, double spacing_m);
SolidMask voxelise(const SceneGeometry& g, const DerivedGrid& grid);

// SceneError when a source or receiver node lies inside an obstacle, naming
// `what`, the node and the material.
void require_air(const SolidMask& mask, const GridIndex& node, const std::string& what);

// Every obstacle's surface in metres (primitives tessellated), for drawing.
std::vector<Triangle> geometry_triangles(const SceneGeometry& g);

}  // namespace ws::geo
