// STL, binary and ASCII. A binary file is 80 header bytes, a uint32 triangle
// count n and n records of 50 bytes (normal, three vertices as float32, a
// uint16), so its size is exactly 84 + 50 n. Many binary exporters start the
// header with "solid", so the size decides, not the first word: binary when
// the size matches, ASCII when it does not and the file starts with "solid",
// and otherwise a binary file whose size contradicts its count (truncated).
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "geometry/mesh.hpp"

namespace ws::geo {

namespace {

bool starts_with_solid(const std::string& b) {
  size_t p = 0;
  while (p < b.size() && (b[p] == ' ' || b[p] == '\t' || b[p] == '\r' || b[p] == '\n')) ++p;
  return b.compare(p, 5, "solid") == 0;
}

std::uint64_t header_count(const std::string& b) {
  std::uint32_t n = 0;
  std::memcpy(&n, b.data() + 80, 4);  // little-endian, as on every host we build for
  return n;
}

Mesh parse_binary(const std::string& b, const std::string& path, std::uint64_t n) {
  Mesh m;
  m.path = path;
  m.tags.push_back({});
  m.vertices.reserve(3 * n);
  m.triangles.reserve(n);
  m.triangle_tag.assign(n, 0);
  for (std::uint64_t t = 0; t < n; ++t) {
    const char* rec = b.data() + 84 + 50 * t;
    float f[12];
    std::memcpy(f, rec, sizeof f);
    for (int q = 0; q < 3; ++q) {
      const Vec3 v{f[3 + 3 * q], f[4 + 3 * q], f[5 + 3 * q]};
      if (!finite(v))
        throw MeshError("binary STL '" + path + "': triangle " + std::to_string(t) + " (byte offset " +
                        std::to_string(84 + 50 * t) + ") has a coordinate that is not finite (NaN or infinity)");
      m.vertices.push_back(v);
    }
    m.triangles.push_back({(int)(3 * t), (int)(3 * t + 1), (int)(3 * t + 2)});
  }
  return m;
}

Mesh parse_ascii(const std::string& b, const std::string& path, const MeshLimits& limits) {
  Mesh m;
  m.path = path;
  const char* p = b.data();
  const char* end = p + b.size();
  long line = 1;
  auto fail = [&](const std::string& what) -> MeshError {
    return MeshError("ASCII STL '" + path + "' line " + std::to_string(line) + ": " + what);
  };
  auto token = [&]() {
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) {
      if (*p == '\n') ++line;
      ++p;
    }
    const char* s = p;
    while (p < end && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') ++p;
    return std::string(s, p);
  };
  auto rest_of_line = [&]() {
    while (p < end && (*p == ' ' || *p == '\t')) ++p;
    const char* s = p;
    while (p < end && *p != '\n' && *p != '\r') ++p;
    return std::string(s, p);
  };
  auto number = [&](const char* what) {
    const std::string t = token();
    char* e = nullptr;
    const double x = std::strtod(t.c_str(), &e);
    if (t.empty() || *e != '\0') throw fail(std::string(what) + " '" + t + "' is not a number");
    if (!std::isfinite(x))
      throw fail(std::string(what) + " '" + t + "' is not finite (NaN or infinity); coordinates must be finite numbers");
    return x;
  };
  std::vector<int> facet;
  bool in_solid = false, in_facet = false;
  for (std::string t = token(); !t.empty(); t = token()) {
    if (t == "solid") {
      if (in_solid) throw fail("'solid' inside a solid (missing 'endsolid')");
      FaceTag tag;
      tag.object = rest_of_line();
      m.tags.push_back(tag);
      in_solid = true;
    } else if (t == "endsolid") {
      if (!in_solid || in_facet) throw fail("'endsolid' without an open solid, or inside a facet");
      rest_of_line();
      in_solid = false;
    } else if (t == "facet") {
      if (!in_solid || in_facet) throw fail("'facet' outside a solid or inside another facet");
      if (token() != "normal") throw fail("expected 'normal' after 'facet'");
      for (int d = 0; d < 3; ++d) number("normal component");
      in_facet = true;
      facet.clear();
    } else if (t == "outer") {
      if (!in_facet || token() != "loop") throw fail("expected 'outer loop' inside a facet");
    } else if (t == "endloop") {
      if (!in_facet) throw fail("'endloop' outside a facet");
    } else if (t == "vertex") {
      if (!in_facet) throw fail("'vertex' outside a facet");
      Vec3 v;
      for (int d = 0; d < 3; ++d) v[d] = number("vertex coordinate");
      facet.push_back((int)m.vertices.size());
      m.vertices.push_back(v);
    } else if (t == "endfacet") {
      if (!in_facet) throw fail("'endfacet' outside a facet");
      if (facet.size() < 3) throw fail("a facet needs 3 vertices, got " + std::to_string(facet.size()));
      for (size_t q = 1; q + 1 < facet.size(); ++q) {
        m.triangles.push_back({facet[0], facet[q], facet[q + 1]});
        m.triangle_tag.push_back((int)m.tags.size() - 1);
      }
      if (m.triangles.size() > limits.max_triangles)
        throw fail("more than " + std::to_string(limits.max_triangles) + " triangles; the limit is " +
                   std::to_string(limits.max_triangles));
      in_facet = false;
    } else {
      std::string shown = t.substr(0, 40);
      for (char& ch : shown)
        if ((unsigned char)ch < 32 || (unsigned char)ch > 126) ch = '?';
      throw fail("unexpected '" + shown + "'; allowed: solid, facet normal, outer loop, vertex, endloop, endfacet, endsolid");
    }
  }
  if (in_facet) throw fail("the file ends inside a facet (truncated?)");
  if (m.triangles.empty())
    throw MeshError("ASCII STL '" + path + "' contains no triangles (no complete 'facet' ... 'endfacet')");
  return m;
}

}  // namespace

Mesh parse_stl(const std::string& b, const std::string& path, const MeshLimits& limits) {
  const std::uint64_t size = b.size();
  if (size == 0) throw MeshError("mesh file '" + path + "' is empty (0 bytes)");
  const bool solid = starts_with_solid(b);
  if (size >= 84) {
    const std::uint64_t n = header_count(b);
    const std::uint64_t expect = 84 + 50 * n;
    if (expect == size) {
      if (n == 0) throw MeshError("binary STL '" + path + "' contains no triangles (its header says 0)");
      if (n > limits.max_triangles)
        throw MeshError("binary STL '" + path + "' has " + std::to_string(n) + " triangles; the limit is " +
                        std::to_string(limits.max_triangles));
      return parse_binary(b, path, n);
    }
    if (!solid) {
      if (size < expect)
        throw MeshError("binary STL '" + path + "' is truncated: its header claims " + std::to_string(n) +
                        " triangles, which need 84 + 50 * " + std::to_string(n) + " = " + std::to_string(expect) +
                        " bytes, but the file has " + std::to_string(size) + " bytes (" +
                        std::to_string((size - 84) / 50) + " complete triangles)");
      throw MeshError("binary STL '" + path + "': its header claims " + std::to_string(n) + " triangles (" +
                      std::to_string(expect) + " bytes) but the file has " + std::to_string(size) +
                      " bytes; the triangle count does not match the size");
    }
  } else if (!solid) {
    throw MeshError("STL file '" + path + "' is " + std::to_string(size) +
                    " bytes: too short for a binary STL (at least 84 bytes) and it does not start with 'solid'");
  }
  try {
    return parse_ascii(b, path, limits);
  } catch (const MeshError& e) {
    // A binary file whose header starts with "solid" and whose size is off
    // lands here: say so, since the ASCII complaint alone would mislead.
    if (size >= 84 && std::memchr(b.data(), '\0', b.size()))
      throw MeshError(std::string(e.what()) + " (the file contains binary data: if it is a binary STL, it is " +
                      "truncated or corrupt: its header claims " + std::to_string(header_count(b)) +
                      " triangles = " + std::to_string(84 + 50 * header_count(b)) + " bytes, the file has " +
                      std::to_string(size) + ")");
    throw;
  }
}

}  // namespace ws::geo
