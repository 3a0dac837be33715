#include "cuda/kernels/brick_layout.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ws {

size_t brick_smem_bytes(const BrickGrid& g, int elem_bytes) {
  return 2 * (size_t)g.cells * (size_t)elem_bytes + sizeof(int) * (3 * kBrickListedSources + 2 * kBrickListedTaps) +
         kBrickControlInts * sizeof(int);
}

bool brick_fits(int bx, int by, int bz, int elem_bytes, size_t smem_optin, const BrickReach& reach, int threads) {
  if (bx < 3 || by < 3 || bz < 3) return false;
  const long long shell = 2LL * bx * by + (2LL * bx + 2LL * (by - 2)) * (bz - 2);
  const long long cols = (long long)padded_row(bx) * (by - 2);  // inner_patch's lanes are no more
  const long long faces = 2LL * ((long long)by * bz + (long long)bx * bz + (long long)bx * by);
  if (shell > (long long)reach.shell * threads || cols > (long long)reach.cols * threads ||
      faces > (long long)reach.faces * threads)
    return false;
  BrickGrid g;
  g.PX = bx + 2;
  g.PS = g.PX * (by + 2);
  g.cells = g.PS * (bz + 2);
  return brick_smem_bytes(g, elem_bytes) <= smem_optin;
}

BrickGrid brick_layout(const FieldLayout& L, Precision p, int sms, size_t smem_optin) {
  const int elem_bytes = (int)bytes_of(p);
  BrickGrid best;
  for (int form = 0; form < 2 && best.px == 0; ++form) {
    const BrickReach& reach = form == 0 ? kBrickSmall : kBrickLarge;
    double best_cost = 1e300;
    for (int px = 1; px <= sms && px <= L.nx; ++px)
      for (int py = 1; px * py <= sms && py <= L.ny; ++py)
        for (int pz = 1; px * py * pz <= sms && pz <= L.nz; ++pz) {
          const int sx = (L.nx + px - 1) / px, sy = (L.ny + py - 1) / py, sz = (L.nz + pz - 1) / pz;
          // Every brick non-empty, and the last of each axis at least 3 points.
          const int lx = L.nx - sx * (px - 1), ly = L.ny - sy * (py - 1), lz = L.nz - sz * (pz - 1);
          if (lx < 3 || ly < 3 || lz < 3) continue;
          if (!brick_fits(sx, sy, sz, elem_bytes, smem_optin, reach)) continue;
          const double inner = (double)padded_row(sx) * (sy - 2) * (sz - 2);
          const double shell = (double)sx * sy * sz - (double)(sx - 2) * (sy - 2) * (sz - 2);
          const double faces = 2.0 * ((double)sx * sy + (double)sx * sz + (double)sy * sz);
          const double cost = inner + 2.0 * shell + 2.0 * faces;
          if (cost < best_cost) {
            best_cost = cost;
            best.px = px, best.py = py, best.pz = pz, best.sx = sx, best.sy = sy, best.sz = sz;
            best.large = form == 1;
          }
        }
  }
  if (best.px == 0)
    throw std::invalid_argument(
        "kernel 'brick_onchip': the grid's " + std::to_string(L.nx) + "x" + std::to_string(L.ny) + "x" +
        std::to_string(L.nz) + " points in " + to_string(p) + " do not fit in bricks of at least 3 " +
        "points a side, one on each of the device's " + std::to_string(sms) + " SMs, within " +
        std::to_string(smem_optin >> 10) + " KiB of shared memory and " + std::to_string(kBrickThreads) +
        " threads' registers a brick (about 2.9 M points in float, 1.3 M in double)");
  if (!best.large && brick_fits(best.sx, best.sy, best.sz, elem_bytes, smem_optin, kBrickSmall, kBrickFewThreads))
    best.threads = kBrickFewThreads;
  best.patch = inner_patch(best.sx + 2, best.sx - 2, best.sy - 2, elem_bytes);
  best.PX = best.sx + 2;
  best.PS = best.PX * (best.sy + 2);
  best.cells = best.PS * (best.sz + 2);
  best.face_max = std::max({best.sy * best.sz, best.sx * best.sz, best.sx * best.sy});
  return best;
}

}  // namespace ws
