#pragma once
// Triangle meshes read from OBJ and STL files, and what we can say about them
// (edge-use counts, enclosed volume) before voxelising.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "geometry/vec3.hpp"
#include "scene/scene.hpp"

namespace ws::geo {

// A mesh file that cannot be used: the message names the file, the line or
// byte offset where it applies, the value and what is allowed. A SceneError,
// so that whoever loads a scene catches bad meshes with bad scenes.
class MeshError : public SceneError {
 public:
  using SceneError::SceneError;
};

// Refuse files we could not hold in memory before reading a byte of them.
struct MeshLimits {
  std::uint64_t max_file_bytes = 512ull << 20;  // 512 MiB
  std::uint64_t max_triangles = 20'000'000;      // ~1.4 GB of welded double-precision data
};

// The names a face carries in its file, for per-surface materials: OBJ
// "usemtl", "g" (several names allowed) and "o"; an STL's "solid <name>".
struct FaceTag {
  std::string usemtl;
  std::vector<std::string> groups;
  std::string object;
};

struct Mesh {
  std::string path;                          // for messages
  std::vector<Vec3> vertices;                // file units
  std::vector<std::array<int, 3>> triangles; // indices into vertices
  std::vector<int> triangle_tag;             // per triangle, index into tags
  std::vector<FaceTag> tags;
};

// Reads .obj or .stl (ASCII or binary; by content, not by extension) after
// checking the file size against the limits. Throws MeshError.
Mesh read_mesh_file(const std::string& path, const MeshLimits& limits = {});

// Readers on an in-memory file (path only names it in messages).
Mesh parse_obj(const std::string& text, const std::string& path, const MeshLimits& limits = {});
Mesh parse_stl(const std::string& bytes, const std::string& path, const MeshLimits& limits = {});

// Edge-use counts after welding vertices at identical coordinates. A closed
// 2-manifold has every edge used by exactly two triangles.
struct MeshReport {
  std::size_t vertices = 0;           // after welding
  std::size_t triangles = 0;
  std::size_t degenerate_triangles = 0;  // zero area (ignored by the inside test)
  std::size_t boundary_edges = 0;     // used by one triangle: holes, gaps
  std::size_t manifold_edges = 0;     // used by two
  std::size_t nonmanifold_edges = 0;  // used by three or more
  double signed_volume = 0.0;         // about the bounding-box centre; > 0 when outward-oriented
  Aabb bounds;
  bool watertight() const { return boundary_edges == 0 && nonmanifold_edges == 0; }
  std::string summary() const;        // one line, for logs and warnings
};

MeshReport analyse_mesh(const Mesh& m);

// Welds duplicate vertices (exactly equal coordinates, as in STL files) in place.
void weld_vertices(Mesh& m);

// Makes the mesh outward-oriented (flips every triangle when its signed
// volume is negative) and refuses a mesh that encloses no volume at all (a
// single triangle, a flat sheet): |V| <= 1e-6 * diagonal^3. Returns the report
// of the final mesh.
MeshReport orient_and_check(Mesh& m);

}  // namespace ws::geo
