#pragma once
// A small 3-vector of doubles for the geometry code (host only).
#include <cmath>

namespace ws::geo {

struct Vec3 {
  double x = 0, y = 0, z = 0;
  double operator[](int d) const { return d == 0 ? x : (d == 1 ? y : z); }
  double& operator[](int d) { return d == 0 ? x : (d == 1 ? y : z); }
};

inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
inline Vec3 operator*(double s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
inline Vec3 operator*(Vec3 a, double s) { return s * a; }
inline double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline Vec3 cross(Vec3 a, Vec3 b) { return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x}; }
inline double norm(Vec3 a) { return std::sqrt(dot(a, a)); }
inline Vec3 vmin(Vec3 a, Vec3 b) { return {std::fmin(a.x, b.x), std::fmin(a.y, b.y), std::fmin(a.z, b.z)}; }
inline Vec3 vmax(Vec3 a, Vec3 b) { return {std::fmax(a.x, b.x), std::fmax(a.y, b.y), std::fmax(a.z, b.z)}; }
inline bool finite(Vec3 a) { return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z); }

// Axis-aligned box; empty() until a point is added.
struct Aabb {
  Vec3 lo{INFINITY, INFINITY, INFINITY};
  Vec3 hi{-INFINITY, -INFINITY, -INFINITY};
  void add(Vec3 p) { lo = vmin(lo, p); hi = vmax(hi, p); }
  void add(const Aabb& b) { lo = vmin(lo, b.lo); hi = vmax(hi, b.hi); }
  bool empty() const { return !(lo.x <= hi.x); }
  Vec3 centre() const { return 0.5 * (lo + hi); }
  Vec3 size() const { return hi - lo; }
};

// Squared distance from p to the box (0 inside).
inline double distance2(const Aabb& b, Vec3 p) {
  double s = 0;
  for (int d = 0; d < 3; ++d) {
    const double e = p[d] < b.lo[d] ? b.lo[d] - p[d] : (p[d] > b.hi[d] ? p[d] - b.hi[d] : 0.0);
    s += e * e;
  }
  return s;
}

}  // namespace ws::geo
