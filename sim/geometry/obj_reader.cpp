// Wavefront OBJ: "v x y z [w]", "f a b c ..." with a, a/t, a//n or a/t/n,
// negative (relative) indices, polygons fan-triangulated, and the "g", "o"
// and "usemtl" names each face carries for per-surface materials. Texture
// coordinates, normals, lines, smoothing groups and material libraries are
// read past: the voxeliser needs positions and faces only.
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "geometry/mesh.hpp"

namespace ws::geo {

namespace {

struct Cursor {
  const char* p;
  const char* end;
  void skip_space() {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
  }
  bool at_eol() {
    skip_space();
    return p >= end || *p == '\n' || *p == '#';
  }
  std::string token() {
    skip_space();
    const char* s = p;
    while (p < end && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') ++p;
    return std::string(s, p);
  }
  std::string rest_of_line() {
    skip_space();
    const char* s = p;
    while (p < end && *p != '\n' && *p != '#') ++p;
    const char* e = p;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r')) --e;
    return std::string(s, e);
  }
  void next_line() {
    while (p < end && *p != '\n') ++p;
    if (p < end) ++p;
  }
};

std::vector<std::string> split_names(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ' ' || c == '\t') {
      if (!cur.empty()) out.push_back(cur), cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

}  // namespace

Mesh parse_obj(const std::string& text, const std::string& path, const MeshLimits& limits) {
  Mesh m;
  m.path = path;
  if (text.empty()) throw MeshError("mesh file '" + path + "' is empty (0 bytes)");
  Cursor c{text.data(), text.data() + text.size()};
  auto fail = [&](long line, const std::string& what) -> MeshError {
    return MeshError("OBJ file '" + path + "' line " + std::to_string(line) + ": " + what);
  };
  FaceTag state;
  bool tag_dirty = true;
  long line = 0;
  // Positive indices may refer forward in some exporters' files; check them
  // against the final vertex count and report the first offending line.
  long max_index = 0, max_index_line = 0;
  std::vector<long> poly;
  while (c.p < c.end) {
    ++line;
    if (c.at_eol()) {
      c.next_line();
      continue;
    }
    const std::string kw = c.token();
    if (kw == "v") {
      Vec3 v;
      for (int d = 0; d < 3; ++d) {
        const std::string t = c.token();
        if (t.empty()) throw fail(line, "a vertex needs 3 coordinates, got " + std::to_string(d));
        char* e = nullptr;
        errno = 0;
        const double x = std::strtod(t.c_str(), &e);
        if (e == t.c_str() || *e != '\0') throw fail(line, "vertex coordinate '" + t + "' is not a number");
        if (!std::isfinite(x))
          throw fail(line, "vertex coordinate '" + t + "' is not finite (NaN or infinity); coordinates must be finite numbers");
        v[d] = x;
      }
      m.vertices.push_back(v);
    } else if (kw == "f") {
      poly.clear();
      while (!c.at_eol()) {
        const std::string t = c.token();
        char* e = nullptr;
        const long idx = std::strtol(t.c_str(), &e, 10);
        if (e == t.c_str() || (*e != '\0' && *e != '/'))
          throw fail(line, "face vertex '" + t + "' is not an index (allowed forms: v, v/vt, v//vn, v/vt/vn)");
        long resolved;
        if (idx > 0) {
          resolved = idx - 1;
          if (idx > max_index) max_index = idx, max_index_line = line;
        } else if (idx < 0) {
          resolved = (long)m.vertices.size() + idx;
          if (resolved < 0)
            throw fail(line, "face index " + std::to_string(idx) + " is out of range: only " +
                                 std::to_string(m.vertices.size()) + " vertices precede it (allowed -1 .. -" +
                                 std::to_string(m.vertices.size()) + ")");
        } else {
          throw fail(line, "face index 0 is not allowed: OBJ indices start at 1 (or count back from -1)");
        }
        poly.push_back(resolved);
      }
      if (poly.size() < 3) throw fail(line, "a face needs at least 3 vertices, got " + std::to_string(poly.size()));
      if (tag_dirty) {
        m.tags.push_back(state);
        tag_dirty = false;
      }
      // Fan triangulation: exact for the convex polygons exporters write.
      for (size_t q = 1; q + 1 < poly.size(); ++q) {
        m.triangles.push_back({(int)poly[0], (int)poly[q], (int)poly[q + 1]});
        m.triangle_tag.push_back((int)m.tags.size() - 1);
      }
      if (m.triangles.size() > limits.max_triangles)
        throw fail(line, "more than " + std::to_string(limits.max_triangles) + " triangles; the limit is " +
                             std::to_string(limits.max_triangles));
    } else if (kw == "g") {
      state.groups = split_names(c.rest_of_line());
      tag_dirty = true;
    } else if (kw == "o") {
      state.object = c.rest_of_line();
      tag_dirty = true;
    } else if (kw == "usemtl") {
      state.usemtl = c.rest_of_line();
      tag_dirty = true;
    }
    // vt, vn, vp, l, p, s, mtllib and others: not needed for a solid.
    c.next_line();
  }
  if (m.triangles.empty())
    throw MeshError("OBJ file '" + path + "' contains no triangles (" + std::to_string(m.vertices.size()) +
                    " vertices, no 'f' lines)");
  if (max_index > (long)m.vertices.size())
    throw fail(max_index_line, "face index " + std::to_string(max_index) + " is out of range: the file has " +
                                   std::to_string(m.vertices.size()) + " vertices (allowed 1 .. " +
                                   std::to_string(m.vertices.size()) + ")");
  return m;
}

}  // namespace ws::geo
