#include "geometry/primitives.hpp"

#include <cmath>

namespace ws::geo {

bool inside(const BoxShape& b, Vec3 p) {
  return p.x >= b.min_m.x && p.x <= b.max_m.x && p.y >= b.min_m.y && p.y <= b.max_m.y && p.z >= b.min_m.z &&
         p.z <= b.max_m.z;
}

bool inside(const SphereShape& s, Vec3 p) {
  const Vec3 d = p - s.centre_m;
  return dot(d, d) <= s.radius_m * s.radius_m;
}

bool inside(const CylinderShape& c, Vec3 p) {
  const Vec3 axis = c.top_m - c.base_m;
  const double len2 = dot(axis, axis);
  const double t = dot(p - c.base_m, axis);  // projection times |axis|
  if (t < 0 || t > len2) return false;
  const Vec3 radial = (p - c.base_m) - (t / len2) * axis;
  return dot(radial, radial) <= c.radius_m * c.radius_m;
}

Aabb bounds(const BoxShape& b) {
  Aabb a;
  a.add(b.min_m);
  a.add(b.max_m);
  return a;
}

Aabb bounds(const SphereShape& s) {
  const Vec3 r{s.radius_m, s.radius_m, s.radius_m};
  Aabb a;
  a.add(s.centre_m - r);
  a.add(s.centre_m + r);
  return a;
}

Aabb bounds(const CylinderShape& c) {
  // Each cap is a disc: along axis d it reaches r * sqrt(1 - n_d^2) from its centre.
  const Vec3 axis = c.top_m - c.base_m;
  const double len = norm(axis);
  Vec3 e;
  for (int d = 0; d < 3; ++d) {
    const double n = axis[d] / len;
    e[d] = c.radius_m * std::sqrt(std::fmax(0.0, 1.0 - n * n));
  }
  Aabb a;
  a.add(c.base_m - e);
  a.add(c.base_m + e);
  a.add(c.top_m - e);
  a.add(c.top_m + e);
  return a;
}

double volume_m3(const BoxShape& b) {
  const Vec3 s = b.max_m - b.min_m;
  return s.x * s.y * s.z;
}
double volume_m3(const SphereShape& s) { return 4.0 / 3.0 * M_PI * s.radius_m * s.radius_m * s.radius_m; }
double volume_m3(const CylinderShape& c) { return M_PI * c.radius_m * c.radius_m * norm(c.top_m - c.base_m); }

double surface_area_m2(const BoxShape& b) {
  const Vec3 s = b.max_m - b.min_m;
  return 2.0 * (s.x * s.y + s.y * s.z + s.z * s.x);
}
double surface_area_m2(const SphereShape& s) { return 4.0 * M_PI * s.radius_m * s.radius_m; }
double surface_area_m2(const CylinderShape& c) {
  return 2.0 * M_PI * c.radius_m * (c.radius_m + norm(c.top_m - c.base_m));
}

std::vector<Tri> tessellate(const BoxShape& b) {
  const Vec3 lo = b.min_m, hi = b.max_m;
  auto corner = [&](int q) { return Vec3{q & 1 ? hi.x : lo.x, q & 2 ? hi.y : lo.y, q & 4 ? hi.z : lo.z}; };
  // Each face as a quad of corner ids, counter-clockwise seen from outside.
  static const int quads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  std::vector<Tri> out;
  for (const auto& q : quads) {
    out.push_back({corner(q[0]), corner(q[1]), corner(q[2])});
    out.push_back({corner(q[0]), corner(q[2]), corner(q[3])});
  }
  return out;
}

std::vector<Tri> tessellate(const SphereShape& s, int rings, int segments) {
  // Poles and the seam computed from the same indices, so shared vertices
  // are bit-identical and the tessellation is watertight after welding.
  auto point = [&](int r, int q) {
    if (r == 0) return s.centre_m + Vec3{0, 0, s.radius_m};
    if (r == rings) return s.centre_m - Vec3{0, 0, s.radius_m};
    const double th = M_PI * r / rings, ph = 2.0 * M_PI * (q % segments) / segments;
    return s.centre_m + s.radius_m * Vec3{std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th)};
  };
  std::vector<Tri> out;
  for (int r = 0; r < rings; ++r)
    for (int q = 0; q < segments; ++q) {
      const Vec3 a = point(r, q), b = point(r + 1, q), c = point(r + 1, q + 1), d = point(r, q + 1);
      if (r > 0) out.push_back({a, b, d});
      if (r < rings - 1) out.push_back({b, c, d});
    }
  return out;
}

std::vector<Tri> tessellate(const CylinderShape& c, int segments) {
  const Vec3 axis = c.top_m - c.base_m;
  const Vec3 n = (1.0 / norm(axis)) * axis;
  // Two unit vectors perpendicular to the axis.
  const Vec3 helper = std::fabs(n.x) < 0.9 ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
  const Vec3 u = (1.0 / norm(cross(n, helper))) * cross(n, helper);
  const Vec3 v = cross(n, u);
  auto rim = [&](const Vec3& centre, int q) {
    const double ph = 2.0 * M_PI * (q % segments) / segments;
    return centre + c.radius_m * (std::cos(ph) * u + std::sin(ph) * v);
  };
  std::vector<Tri> out;
  for (int q = 0; q < segments; ++q) {
    const Vec3 b0 = rim(c.base_m, q), b1 = rim(c.base_m, q + 1), t0 = rim(c.top_m, q), t1 = rim(c.top_m, q + 1);
    out.push_back({b0, b1, t1});
    out.push_back({b0, t1, t0});
    out.push_back({c.top_m, t0, t1});
    out.push_back({c.base_m, b1, b0});
  }
  return out;
}

}  // namespace ws::geo
