#pragma once
// Closed test meshes built in code (icosphere, cube, torus) and writers for
// OBJ, binary STL and ASCII STL, so each test states its own geometry.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "geometry/vec3.hpp"

namespace ws::testing {

using geo::Vec3;

struct TestMesh {
  std::vector<Vec3> v;
  std::vector<std::array<int, 3>> f;  // outward, counter-clockwise
};

// Subdivided icosahedron with vertices projected onto the sphere:
// 20 * 4^levels triangles, every edge shared by exactly two.
inline TestMesh icosphere(Vec3 centre, double radius, int levels) {
  const double t = (1.0 + std::sqrt(5.0)) / 2.0;
  std::vector<Vec3> v = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                         {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
  std::vector<std::array<int, 3>> f = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                       {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                       {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                       {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  for (auto& p : v) p = (1.0 / geo::norm(p)) * p;
  for (int l = 0; l < levels; ++l) {
    std::map<std::pair<int, int>, int> mid;
    auto midpoint = [&](int a, int b) {
      const auto key = std::make_pair(std::min(a, b), std::max(a, b));
      auto it = mid.find(key);
      if (it != mid.end()) return it->second;
      Vec3 m = 0.5 * (v[a] + v[b]);
      v.push_back((1.0 / geo::norm(m)) * m);
      return mid[key] = (int)v.size() - 1;
    };
    std::vector<std::array<int, 3>> g;
    for (const auto& t3 : f) {
      const int a = midpoint(t3[0], t3[1]), b = midpoint(t3[1], t3[2]), c = midpoint(t3[2], t3[0]);
      g.push_back({t3[0], a, c});
      g.push_back({t3[1], b, a});
      g.push_back({t3[2], c, b});
      g.push_back({a, b, c});
    }
    f.swap(g);
  }
  for (auto& p : v) p = centre + radius * p;
  return {v, f};
}

inline TestMesh cube(Vec3 lo, Vec3 hi) {
  TestMesh m;
  for (int q = 0; q < 8; ++q) m.v.push_back({q & 1 ? hi.x : lo.x, q & 2 ? hi.y : lo.y, q & 4 ? hi.z : lo.z});
  const int quads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  for (const auto& q : quads) {
    m.f.push_back({q[0], q[1], q[2]});
    m.f.push_back({q[0], q[2], q[3]});
  }
  return m;
}

// Torus around the z axis: nu segments around the ring, nv around the tube,
// 2 nu nv triangles. Volume of the smooth torus: 2 pi^2 R r^2.
inline TestMesh torus(Vec3 centre, double R, double r, int nu, int nv) {
  TestMesh m;
  for (int u = 0; u < nu; ++u)
    for (int w = 0; w < nv; ++w) {
      const double a = 2 * M_PI * u / nu, b = 2 * M_PI * w / nv;
      m.v.push_back(centre + Vec3{(R + r * std::cos(b)) * std::cos(a), (R + r * std::cos(b)) * std::sin(a), r * std::sin(b)});
    }
  auto id = [&](int u, int w) { return (u % nu) * nv + (w % nv); };
  for (int u = 0; u < nu; ++u)
    for (int w = 0; w < nv; ++w) {
      m.f.push_back({id(u, w), id(u + 1, w), id(u + 1, w + 1)});
      m.f.push_back({id(u, w), id(u + 1, w + 1), id(u, w + 1)});
    }
  return m;
}

inline double mesh_volume(const TestMesh& m) {
  double s = 0;
  for (const auto& t : m.f) s += geo::dot(m.v[t[0]], geo::cross(m.v[t[1]], m.v[t[2]]));
  return s / 6.0;
}

inline double mesh_area(const TestMesh& m) {
  double s = 0;
  for (const auto& t : m.f) s += 0.5 * geo::norm(geo::cross(m.v[t[1]] - m.v[t[0]], m.v[t[2]] - m.v[t[0]]));
  return s;
}

// A fresh folder per test under the build tree.
inline std::string temp_dir() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::filesystem::path p = std::filesystem::path(WS_BINARY_DIR) / "tests" / "geometry_tmp" /
                                  (std::string(info->test_suite_name()) + "." + info->name());
  std::filesystem::remove_all(p);
  std::filesystem::create_directories(p);
  return p.string();
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// OBJ with "v/vt/vn" face forms on odd faces and negative indices on every
// third, to exercise the reader while describing the same mesh.
inline void write_obj(const std::string& path, const TestMesh& m, bool fancy = true) {
  std::ofstream out(path);
  out.precision(17);
  out << "# test mesh\no test\n";
  for (const auto& p : m.v) out << "v " << p.x << " " << p.y << " " << p.z << "\n";
  out << "vt 0 0\nvn 0 0 1\n";
  const long n = (long)m.v.size();
  for (size_t q = 0; q < m.f.size(); ++q) {
    out << "f";
    for (int c = 0; c < 3; ++c) {
      const long i = m.f[q][c];
      if (!fancy) out << " " << i + 1;
      else if (q % 3 == 0) out << " " << (i - n) << "/1/1";
      else if (q % 3 == 1) out << " " << i + 1 << "//1";
      else out << " " << i + 1 << "/1";
    }
    out << "\n";
  }
}

inline void write_stl_binary(const std::string& path, const TestMesh& m, const std::string& header = "solid binary test") {
  std::string b(80, ' ');
  std::memcpy(b.data(), header.data(), std::min<size_t>(80, header.size()));
  const std::uint32_t n = (std::uint32_t)m.f.size();
  b.append((const char*)&n, 4);
  for (const auto& t : m.f) {
    float rec[12] = {0, 0, 0};
    for (int c = 0; c < 3; ++c)
      for (int d = 0; d < 3; ++d) rec[3 + 3 * c + d] = (float)m.v[t[c]][d];
    b.append((const char*)rec, sizeof rec);
    b.append(2, '\0');
  }
  write_text(path, b);
}

inline void write_stl_ascii(const std::string& path, const TestMesh& m, const std::string& name = "test") {
  std::ofstream out(path);
  out.precision(9);
  out << "solid " << name << "\n";
  for (const auto& t : m.f) {
    out << "  facet normal 0 0 0\n    outer loop\n";
    for (int c = 0; c < 3; ++c) out << "      vertex " << m.v[t[c]].x << " " << m.v[t[c]].y << " " << m.v[t[c]].z << "\n";
    out << "    endloop\n  endfacet\n";
  }
  out << "endsolid " << name << "\n";
}

}  // namespace ws::testing
