#include "geometry/triangle_bvh.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ws::geo {

namespace {
constexpr int kLeafSize = 8;
constexpr double kFourPi = 4.0 * M_PI;
}  // namespace

Vec3 closest_point_on_triangle(const Tri& t, Vec3 p) {
  const Vec3 a = t[0], b = t[1], c = t[2];
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const Vec3 bp = p - b;
  const double d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + (d1 / (d1 - d3)) * ab;
  const Vec3 cp = p - c;
  const double d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + (d2 / (d2 - d6)) * ac;
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return b + ((d4 - d3) / ((d4 - d3) + (d5 - d6))) * (c - b);
  const double denom = va + vb + vc;
  if (!(denom > 0)) return a;  // degenerate triangle: any vertex is as good
  const double v = vb / denom, w = vc / denom;
  return a + v * ab + w * ac;
}

double solid_angle(const Tri& t, Vec3 p) {
  const Vec3 a = t[0] - p, b = t[1] - p, c = t[2] - p;
  const double la = norm(a), lb = norm(b), lc = norm(c);
  const double num = dot(a, cross(b, c));
  // p in the triangle's plane, at a vertex, or a zero-area triangle: the solid
  // angle is 0 (atan2(0, den < 0) would say 2 pi).
  if (num == 0.0) return 0.0;
  const double den = la * lb * lc + dot(a, b) * lc + dot(b, c) * la + dot(c, a) * lb;
  return 2.0 * std::atan2(num, den);
}

TriangleBvh::TriangleBvh(const std::vector<Tri>& triangles) : tris_(triangles) {
  if (tris_.empty()) return;
  order_.resize(tris_.size());
  std::iota(order_.begin(), order_.end(), 0);
  std::vector<Vec3> centroids(tris_.size());
  for (size_t q = 0; q < tris_.size(); ++q) centroids[q] = (1.0 / 3.0) * (tris_[q][0] + tris_[q][1] + tris_[q][2]);
  nodes_.reserve(2 * tris_.size() / kLeafSize + 8);
  build(0, (int)tris_.size(), centroids);
}

// Median split on the longest axis of the centroids' box; leaves of up to
// kLeafSize triangles. Also fills each node's dipole data for winding_number.
int TriangleBvh::build(int first, int count, std::vector<Vec3>& centroids) {
  const int id = (int)nodes_.size();
  nodes_.push_back({});
  Node n;
  double area = 0;
  Vec3 weighted{};
  for (int q = first; q < first + count; ++q) {
    for (const Vec3& v : tris_[q]) n.box.add(v);
    const Vec3 an = 0.5 * cross(tris_[q][1] - tris_[q][0], tris_[q][2] - tris_[q][0]);
    const double a = norm(an);
    n.area_normal = n.area_normal + an;
    area += a;
    weighted = weighted + a * centroids[q];
  }
  n.centre = area > 0 ? (1.0 / area) * weighted : n.box.centre();
  for (int q = first; q < first + count; ++q) {
    for (const Vec3& v : tris_[q]) n.radius = std::max(n.radius, norm(v - n.centre));
    const Vec3 an = 0.5 * cross(tris_[q][1] - tris_[q][0], tris_[q][2] - tris_[q][0]);
    const Vec3 off = centroids[q] - n.centre;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) n.second[i][j] += off[i] * an[j];
  }
  if (count <= kLeafSize) {
    n.first = first;
    n.count = count;
    nodes_[id] = n;
    return id;
  }
  Aabb cb;
  for (int q = first; q < first + count; ++q) cb.add(centroids[q]);
  const Vec3 ext = cb.size();
  const int axis = ext.x >= ext.y && ext.x >= ext.z ? 0 : (ext.y >= ext.z ? 1 : 2);
  const int mid = first + count / 2;
  // Sort a permutation of this range, then apply it to the three arrays.
  std::vector<int> perm(count);
  std::iota(perm.begin(), perm.end(), first);
  std::nth_element(perm.begin(), perm.begin() + (mid - first), perm.end(),
                   [&](int u, int v) { return centroids[u][axis] < centroids[v][axis]; });
  std::vector<Tri> t2(count);
  std::vector<int> o2(count);
  std::vector<Vec3> c2(count);
  for (int q = 0; q < count; ++q) t2[q] = tris_[perm[q]], o2[q] = order_[perm[q]], c2[q] = centroids[perm[q]];
  std::copy(t2.begin(), t2.end(), tris_.begin() + first);
  std::copy(o2.begin(), o2.end(), order_.begin() + first);
  std::copy(c2.begin(), c2.end(), centroids.begin() + first);
  n.left = build(first, mid - first, centroids);
  n.right = build(mid, first + count - mid, centroids);
  nodes_[id] = n;
  return id;
}

double TriangleBvh::winding_number(Vec3 p) const {
  if (nodes_.empty()) return 0.0;
  double omega = 0.0;
  int stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& n = nodes_[stack[--top]];
    const Vec3 d = n.centre - p;
    const double dist = norm(d);
    if (dist > beta * n.radius) {
      const double inv3 = 1.0 / (dist * dist * dist), inv5 = inv3 / (dist * dist);
      double trace = 0, dcd = 0;
      for (int i = 0; i < 3; ++i) {
        trace += n.second[i][i];
        for (int j = 0; j < 3; ++j) dcd += d[i] * n.second[i][j] * d[j];
      }
      omega += dot(d, n.area_normal) * inv3 + trace * inv3 - 3.0 * dcd * inv5;
    } else if (n.count > 0) {
      for (int q = n.first; q < n.first + n.count; ++q) omega += solid_angle(tris_[q], p);
    } else {
      stack[top++] = n.left;
      stack[top++] = n.right;
    }
  }
  return omega / kFourPi;
}

bool TriangleBvh::any_within(Vec3 p, double r) const {
  if (nodes_.empty()) return false;
  const double r2 = r * r;
  int stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& n = nodes_[stack[--top]];
    if (distance2(n.box, p) > r2) continue;
    if (n.count > 0) {
      for (int q = n.first; q < n.first + n.count; ++q) {
        const Vec3 d = closest_point_on_triangle(tris_[q], p) - p;
        if (dot(d, d) <= r2) return true;
      }
    } else {
      stack[top++] = n.left;
      stack[top++] = n.right;
    }
  }
  return false;
}

int TriangleBvh::nearest(Vec3 p) const {
  if (nodes_.empty()) return -1;
  double best = INFINITY;
  int best_q = -1;
  int stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& n = nodes_[stack[--top]];
    if (distance2(n.box, p) >= best) continue;
    if (n.count > 0) {
      for (int q = n.first; q < n.first + n.count; ++q) {
        const Vec3 d = closest_point_on_triangle(tris_[q], p) - p;
        const double d2 = dot(d, d);
        if (d2 < best) best = d2, best_q = q;
      }
    } else {
      // Visit the nearer child first so the bound tightens early.
      const bool left_first = distance2(nodes_[n.left].box, p) <= distance2(nodes_[n.right].box, p);
      stack[top++] = left_first ? n.right : n.left;
      stack[top++] = left_first ? n.left : n.right;
    }
  }
  return order_[best_q];
}

}  // namespace ws::geo
