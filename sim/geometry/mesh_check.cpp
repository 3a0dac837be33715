// Welding, edge-use counts, orientation and the "encloses a volume" check.
#include <cmath>
#include <cstring>
#include <sstream>
#include <unordered_map>

#include "geometry/mesh.hpp"

namespace ws::geo {

namespace {

struct PosKey {
  std::uint64_t b[3];
  bool operator==(const PosKey& o) const { return b[0] == o.b[0] && b[1] == o.b[1] && b[2] == o.b[2]; }
};
struct PosHash {
  size_t operator()(const PosKey& k) const {
    std::uint64_t h = 1469598103934665603ull;
    for (auto x : k.b) h = (h ^ x) * 1099511628211ull ^ (h >> 29);
    return (size_t)h;
  }
};

PosKey key_of(Vec3 v) {
  PosKey k;
  for (int d = 0; d < 3; ++d) {
    const double x = v[d] + 0.0;  // -0.0 and 0.0 are the same point
    std::memcpy(&k.b[d], &x, 8);
  }
  return k;
}

bool degenerate(const Mesh& m, const std::array<int, 3>& t) {
  if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2]) return true;
  const Vec3 n = cross(m.vertices[t[1]] - m.vertices[t[0]], m.vertices[t[2]] - m.vertices[t[0]]);
  return dot(n, n) == 0.0;
}

}  // namespace

void weld_vertices(Mesh& m) {
  std::unordered_map<PosKey, int, PosHash> first;
  first.reserve(m.vertices.size());
  std::vector<int> remap(m.vertices.size());
  std::vector<Vec3> out;
  out.reserve(m.vertices.size());
  for (size_t v = 0; v < m.vertices.size(); ++v) {
    auto [it, fresh] = first.emplace(key_of(m.vertices[v]), (int)out.size());
    if (fresh) out.push_back(m.vertices[v]);
    remap[v] = it->second;
  }
  for (auto& t : m.triangles)
    for (int& i : t) i = remap[i];
  m.vertices.swap(out);
}

MeshReport analyse_mesh(const Mesh& m) {
  MeshReport r;
  r.vertices = m.vertices.size();
  r.triangles = m.triangles.size();
  for (const auto& v : m.vertices) r.bounds.add(v);
  const Vec3 c = r.bounds.centre();
  std::unordered_map<std::uint64_t, int> uses;
  uses.reserve(m.triangles.size() * 2);
  double six_v = 0.0;
  for (const auto& t : m.triangles) {
    if (degenerate(m, t)) {
      ++r.degenerate_triangles;
      continue;
    }
    const Vec3 a = m.vertices[t[0]] - c, b = m.vertices[t[1]] - c, e = m.vertices[t[2]] - c;
    six_v += dot(a, cross(b, e));
    for (int q = 0; q < 3; ++q) {
      std::uint64_t u = (std::uint32_t)t[q], w = (std::uint32_t)t[(q + 1) % 3];
      if (u > w) std::swap(u, w);
      ++uses[(u << 32) | w];
    }
  }
  r.signed_volume = six_v / 6.0;
  for (const auto& [edge, n] : uses) {
    (void)edge;
    if (n == 1) ++r.boundary_edges;
    else if (n == 2) ++r.manifold_edges;
    else ++r.nonmanifold_edges;
  }
  return r;
}

std::string MeshReport::summary() const {
  std::ostringstream os;
  os << vertices << " vertices, " << triangles << " triangles";
  if (degenerate_triangles) os << " (" << degenerate_triangles << " of zero area)";
  os << "; edge-use counts: " << boundary_edges << " edges used once, " << manifold_edges << " twice, "
     << nonmanifold_edges << " three or more times";
  os << (watertight() ? " (closed 2-manifold)" : " (not watertight: voxelised with the tolerant winding-number test)");
  return os.str();
}

MeshReport orient_and_check(Mesh& m) {
  MeshReport r = analyse_mesh(m);
  const double diag = norm(r.bounds.size());
  // A flat sheet (one triangle, a plane) has zero volume about any point;
  // anything thicker than a millionth of its size in one direction passes.
  if (!(std::fabs(r.signed_volume) > 1e-6 * diag * diag * diag)) {
    std::ostringstream os;
    os.precision(4);
    os << "mesh '" << m.path << "' encloses no volume (|signed volume| = " << std::fabs(r.signed_volume)
       << " for a bounding-box diagonal of " << diag << "; " << r.summary()
       << "); a single triangle or a flat sheet cannot be a solid obstacle";
    throw MeshError(os.str());
  }
  if (r.signed_volume < 0) {
    // Inward-facing triangles: the winding number would be -1 inside.
    for (auto& t : m.triangles) std::swap(t[1], t[2]);
    r.signed_volume = -r.signed_volume;
  }
  return r;
}

}  // namespace ws::geo
