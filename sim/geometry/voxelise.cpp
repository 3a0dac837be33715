// Obstacles onto the grid: primitives analytically, meshes by winding number.
#include <sstream>

#include "geometry/geometry.hpp"
#include "geometry/node_range.hpp"
#include "geometry/primitives.hpp"

namespace ws::geo {

namespace {

Aabb obstacle_bounds(const Obstacle& o) {
  switch (o.kind) {
    case ObstacleKind::Box: return bounds(o.box);
    case ObstacleKind::Sphere: return bounds(o.sphere);
    case ObstacleKind::Cylinder: return bounds(o.cylinder);
    case ObstacleKind::Mesh: return o.mesh->bvh.bounds();
  }
  return {};
}

double obstacle_volume(const Obstacle& o) {
  switch (o.kind) {
    case ObstacleKind::Box: return volume_m3(o.box);
    case ObstacleKind::Sphere: return volume_m3(o.sphere);
    case ObstacleKind::Cylinder: return volume_m3(o.cylinder);
    case ObstacleKind::Mesh: return o.mesh->report.signed_volume;
  }
  return 0;
}

template <class Inside>
long long fill_primitive(SolidMask& m, const NodeRange& r, std::uint8_t material, Inside inside) {
  long long count = 0;
#pragma omp parallel for collapse(2) schedule(static) reduction(+ : count)
  for (int k = r.lo[2]; k <= r.hi[2]; ++k)
    for (int j = r.lo[1]; j <= r.hi[1]; ++j)
      for (int i = r.lo[0]; i <= r.hi[0]; ++i)
        if (inside(m.node_position(i, j, k))) {
          m.material[m.index(i, j, k)] = material;
          ++count;
        }
  return count;
}

long long fill_mesh(SolidMask& m, const NodeRange& r, const Obstacle& o) {
  const MeshSolid& s = *o.mesh;
  const std::vector<std::uint8_t> in = mesh_inside(s.bvh, r, m.spacing_m, m.first_node_m);
  const bool single = s.single_material();
  const std::uint8_t only = (std::uint8_t)s.triangle_material.front();
  const int R0 = r.size(0), R1 = r.size(1);
  long long count = 0;
  // With per-surface materials, a solid node takes the material of the
  // nearest triangle: the boundary code looks at the solid nodes next to the
  // air, and those lie within a cell of the surface they belong to.
#pragma omp parallel for collapse(2) schedule(dynamic) reduction(+ : count)
  for (int k = r.lo[2]; k <= r.hi[2]; ++k)
    for (int j = r.lo[1]; j <= r.hi[1]; ++j)
      for (int i = r.lo[0]; i <= r.hi[0]; ++i) {
        if (!in[(i - r.lo[0]) + (size_t)R0 * ((j - r.lo[1]) + (size_t)R1 * (k - r.lo[2]))]) continue;
        const std::uint8_t mat =
            single ? only : (std::uint8_t)s.triangle_material[s.bvh.nearest(m.node_position(i, j, k))];
        m.material[m.index(i, j, k)] = mat;
        ++count;
      }
  return count;
}

}  // namespace

SolidMask voxelise(const SceneGeometry& g, int nx, int ny, int nz, double spacing_m) {
  return voxelise(g, nx, ny, nz, spacing_m, {spacing_m, spacing_m, spacing_m});
}

SolidMask voxelise(const SceneGeometry& g, int nx, int ny, int nz, double spacing_m,
                   const std::array<double, 3>& first_node_m) {
  if (nx <= 0 || ny <= 0 || nz <= 0 || !(spacing_m > 0))
    throw SceneError("voxelise: grid " + std::to_string(nx) + " x " + std::to_string(ny) + " x " + std::to_string(nz) +
                     " at spacing " + std::to_string(spacing_m) + " m is not allowed: sizes and spacing must be > 0");
  SolidMask m;
  m.nx = nx, m.ny = ny, m.nz = nz;
  m.spacing_m = spacing_m;
  m.first_node_m = first_node_m;
  m.materials = g.materials;
  m.material.assign((size_t)nx * ny * nz, 0);
  const int n[3] = {nx, ny, nz};
  for (const Obstacle& o : g.obstacles) {
    const NodeRange r = node_range(obstacle_bounds(o), n, spacing_m, first_node_m);
    ObstacleVoxels st{o.label, 0, obstacle_volume(o)};
    const auto mat = (std::uint8_t)o.material;
    if (!r.empty()) {
      switch (o.kind) {
        case ObstacleKind::Box: st.nodes = fill_primitive(m, r, mat, [&](Vec3 p) { return inside(o.box, p); }); break;
        case ObstacleKind::Sphere: st.nodes = fill_primitive(m, r, mat, [&](Vec3 p) { return inside(o.sphere, p); }); break;
        case ObstacleKind::Cylinder:
          st.nodes = fill_primitive(m, r, mat, [&](Vec3 p) { return inside(o.cylinder, p); });
          break;
        case ObstacleKind::Mesh: st.nodes = fill_mesh(m, r, o); break;
      }
    }
    if (st.nodes == 0) {
      std::ostringstream os;
      os << o.label << " occupies no grid node at spacing " << spacing_m
         << " m: it lies outside the room or is thinner than the spacing";
      m.warnings.push_back(os.str());
    }
    m.obstacles.push_back(st);
  }
  long long solid = 0;
#pragma omp parallel for reduction(+ : solid)
  for (long long q = 0; q < (long long)m.material.size(); ++q) solid += m.material[q] != 0;
  m.solid_nodes = solid;
  return m;
}

SolidMask voxelise(const SceneGeometry& g, const DerivedGrid& grid) {
  return voxelise(g, grid.nx, grid.ny, grid.nz, grid.spacing_m, grid.first_node_m);
}

void require_air(const SolidMask& mask, const GridIndex& node, const std::string& what) {
  if (mask.material.empty() || !mask.solid(node.i, node.j, node.k)) return;
  std::ostringstream os;
  os.precision(4);
  const Vec3 at = mask.node_position(node.i, node.j, node.k);
  os << what << ": node (" << node.i << ", " << node.j << ", " << node.k << ") at (" << at.x << ", " << at.y << ", "
     << at.z << ") m lies inside an obstacle of material '"
     << mask.materials[mask.at(node.i, node.j, node.k) - 1].name << "'; move it into the air";
  throw SceneError(os.str());
}

std::vector<Triangle> geometry_triangles(const SceneGeometry& g) {
  std::vector<Triangle> out;
  auto add = [&](const std::vector<Tri>& tris, int material) {
    for (const Tri& t : tris) out.push_back({t, material});
  };
  for (const Obstacle& o : g.obstacles) {
    switch (o.kind) {
      case ObstacleKind::Box: add(tessellate(o.box), o.material); break;
      case ObstacleKind::Sphere: add(tessellate(o.sphere), o.material); break;
      case ObstacleKind::Cylinder: add(tessellate(o.cylinder), o.material); break;
      case ObstacleKind::Mesh: {
        const Mesh& mesh = o.mesh->mesh;
        for (size_t q = 0; q < mesh.triangles.size(); ++q) {
          const auto& t = mesh.triangles[q];
          out.push_back({{mesh.vertices[t[0]], mesh.vertices[t[1]], mesh.vertices[t[2]]}, o.mesh->triangle_material[q]});
        }
        break;
      }
    }
  }
  return out;
}

}  // namespace ws::geo
