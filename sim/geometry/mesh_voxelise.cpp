// The mesh inside test over a range of grid nodes.
//
// Inside means a generalized winding number w > 0.5 (Jacobson, Kavan and
// Sorkine-Hornung 2013): w is exactly 1 inside and 0 outside a closed
// outward mesh, and across a small hole it stays close to 1 inside and 0
// outside except within about a hole's width of the hole, so thresholding at
// 0.5 closes gaps and tolerates non-manifold or self-intersecting input.
//
// Evaluating w at every node is too slow (a 200^3 grid), so nodes go in
// blocks of 4^3. w is harmonic away from the surface; a block that no
// triangle comes near (none within the block's circumscribed sphere) and
// whose 8 corners agree clearly (all w > 0.55 or all < 0.45) is filled from
// its corners. Blocks that the surface passes near are split into 2^3
// sub-blocks tested the same way, and only sub-blocks near the surface are
// evaluated node by node. Away from the surface one node in 64 is evaluated.
#include <algorithm>
#include <cmath>

#include "geometry/node_range.hpp"

namespace ws::geo {

namespace {
constexpr int kBlock = 4;
constexpr double kMargin = 0.05;
}  // namespace

std::vector<std::uint8_t> mesh_inside(const TriangleBvh& bvh, const NodeRange& r, double X,
                                      const std::array<double, 3>& first_m, MeshInsideStats* stats) {
  if (r.empty() || bvh.size() == 0) return std::vector<std::uint8_t>(r.count(), 0);
  const int R[3] = {r.size(0), r.size(1), r.size(2)};
  std::vector<std::uint8_t> in((size_t)R[0] * R[1] * R[2], 0);
  const int nb[3] = {(R[0] + kBlock - 1) / kBlock, (R[1] + kBlock - 1) / kBlock, (R[2] + kBlock - 1) / kBlock};
  const int L[3] = {nb[0] + 1, nb[1] + 1, nb[2] + 1};  // block corner lattice
  auto pos = [&](int d, int local) { return first_m[d] + (r.lo[d] + local) * X; };
  auto node_pos = [&](int a, int b, int c) { return Vec3{pos(0, a), pos(1, b), pos(2, c)}; };

  // Corner lattice: node offsets 0, 4, 8, ... (the last may lie past the range).
  std::vector<float> lattice((size_t)L[0] * L[1] * L[2]);
#pragma omp parallel for collapse(2) schedule(dynamic)
  for (int c = 0; c < L[2]; ++c)
    for (int b = 0; b < L[1]; ++b)
      for (int a = 0; a < L[0]; ++a)
        lattice[a + (size_t)L[0] * (b + (size_t)L[1] * c)] =
            (float)bvh.winding_number(node_pos(kBlock * a, kBlock * b, kBlock * c));

  // A cube of side h X with no triangle within its circumscribed sphere
  // (radius sqrt(3) h X / 2) and 8 corners clearly on one side is filled.
  auto clear_side = [&](const Vec3& centre, double side_nodes, const float* w8) {
    if (bvh.any_within(centre, 0.5 * std::sqrt(3.0) * side_nodes * X * (1.0 + 1e-9))) return -1;
    int above = 0, below = 0;
    for (int q = 0; q < 8; ++q) above += w8[q] > 0.5 + kMargin, below += w8[q] < 0.5 - kMargin;
    return above == 8 ? 1 : (below == 8 ? 0 : -1);
  };
  long long evaluations = (long long)lattice.size(), filled = 0;
#pragma omp parallel for collapse(2) schedule(dynamic) reduction(+ : evaluations, filled)
  for (int c = 0; c < nb[2]; ++c)
    for (int b = 0; b < nb[1]; ++b)
      for (int a = 0; a < nb[0]; ++a) {
        const int i0 = kBlock * a, j0 = kBlock * b, k0 = kBlock * c;
        const int i1 = std::min(i0 + kBlock, R[0]), j1 = std::min(j0 + kBlock, R[1]), k1 = std::min(k0 + kBlock, R[2]);
        auto set = [&](int i, int j, int k, std::uint8_t v) {
          if (i < i1 && j < j1 && k < k1) in[i + (size_t)R[0] * (j + (size_t)R[1] * k)] = v;
        };
        float w8[8];
        for (int q = 0; q < 8; ++q)
          w8[q] = lattice[(a + (q & 1)) + (size_t)L[0] * ((b + ((q >> 1) & 1)) + (size_t)L[1] * (c + (q >> 2)))];
        const Vec3 centre = 0.5 * (node_pos(i0, j0, k0) + node_pos(i0 + kBlock, j0 + kBlock, k0 + kBlock));
        const int side = clear_side(centre, kBlock, w8);
        if (side >= 0) {
          for (int k = k0; k < k1; ++k)
            for (int j = j0; j < j1; ++j)
              for (int i = i0; i < i1; ++i) set(i, j, k, (std::uint8_t)side);
          ++filled;
          continue;
        }
        // Near the surface: the same test on the eight 2^3 sub-blocks, with
        // w on the 3^3 points at offsets 0, 2, 4 (8 of them known already).
        float sub[3][3][3];
        for (int z = 0; z < 3; ++z)
          for (int y = 0; y < 3; ++y)
            for (int x = 0; x < 3; ++x) {
              if (x != 1 && y != 1 && z != 1) {
                sub[z][y][x] = w8[(x / 2) + 2 * (y / 2) + 4 * (z / 2)];
              } else {
                sub[z][y][x] = (float)bvh.winding_number(node_pos(i0 + 2 * x, j0 + 2 * y, k0 + 2 * z));
                ++evaluations;
              }
            }
        for (int sz = 0; sz < 2; ++sz)
          for (int sy = 0; sy < 2; ++sy)
            for (int sx = 0; sx < 2; ++sx) {
              const int si = i0 + 2 * sx, sj = j0 + 2 * sy, sk = k0 + 2 * sz;
              if (si >= i1 || sj >= j1 || sk >= k1) continue;
              float s8[8];
              for (int q = 0; q < 8; ++q) s8[q] = sub[sz + (q >> 2)][sy + ((q >> 1) & 1)][sx + (q & 1)];
              const Vec3 sc = 0.5 * (node_pos(si, sj, sk) + node_pos(si + 2, sj + 2, sk + 2));
              const int sside = clear_side(sc, 2, s8);
              for (int q = 0; q < 8; ++q) {
                const int i = si + (q & 1), j = sj + ((q >> 1) & 1), k = sk + (q >> 2);
                std::uint8_t v;
                if (sside >= 0) v = (std::uint8_t)sside;
                else if (q == 0) v = s8[0] > 0.5f;  // a sub-lattice point: already evaluated
                else if (i < i1 && j < j1 && k < k1) v = bvh.winding_number(node_pos(i, j, k)) > 0.5, ++evaluations;
                else continue;
                set(i, j, k, v);
              }
            }
      }
  if (stats) *stats = {evaluations, (long long)nb[0] * nb[1] * nb[2], filled};
  return in;
}

}  // namespace ws::geo
