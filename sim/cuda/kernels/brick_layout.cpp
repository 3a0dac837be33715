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

int most_slots_in_a_brick(const BrickGrid& g, const BrickSlots& slots) {
  std::vector<int> per((size_t)g.blocks(), 0);
  for (const auto& n : slots.node) ++per[(size_t)(n[0] / g.sx + g.px * (n[1] / g.sy + g.py * (n[2] / g.sz)))];
  return per.empty() ? 0 : *std::max_element(per.begin(), per.end());
}

namespace {

// A brick's on-chip layout and face slot filled in from its sizes.
void finish_cut(BrickGrid& g, int elem_bytes, size_t smem_optin) {
  if (!g.large && brick_fits(g.sx, g.sy, g.sz, elem_bytes, smem_optin, kBrickSmall, kBrickFewThreads))
    g.threads = kBrickFewThreads;
  g.patch = inner_patch(g.sx + 2, g.sx - 2, g.sy - 2, elem_bytes);
  g.PX = g.sx + 2;
  g.PS = g.PX * (g.sy + 2);
  g.cells = g.PS * (g.sz + 2);
  g.face_max = std::max({g.sy * g.sz, g.sx * g.sz, g.sx * g.sy});
}

}  // namespace

BrickGrid brick_layout(const FieldLayout& L, Precision p, int sms, size_t smem_optin, const BrickSlots* slots) {
  const int elem_bytes = (int)bytes_of(p);
  std::vector<std::pair<double, BrickGrid>> fitting;  // the first form's cuts that fit, with their costs
  for (int form = 0; form < 2 && fitting.empty(); ++form) {
    const BrickReach& reach = form == 0 ? kBrickSmall : kBrickLarge;
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
          BrickGrid g;
          g.px = px, g.py = py, g.pz = pz, g.sx = sx, g.sy = sy, g.sz = sz;
          g.large = form == 1;
          fitting.emplace_back(inner + 2.0 * shell + 2.0 * faces, g);
        }
  }
  if (fitting.empty())
    throw std::invalid_argument(
        "kernel 'brick_onchip': the grid's " + std::to_string(L.nx) + "x" + std::to_string(L.ny) + "x" +
        std::to_string(L.nz) + " points in " + to_string(p) + " do not fit in bricks of at least 3 " +
        "points a side, one on each of the device's " + std::to_string(sms) + " SMs, within " +
        std::to_string(smem_optin >> 10) + " KiB of shared memory and " + std::to_string(kBrickThreads) +
        " threads' registers a brick (about 2.9 M points in float, 1.3 M in double)");
  // The cheapest first (the first found of equal costs).
  size_t best = 0;
  for (size_t c = 1; c < fitting.size(); ++c)
    if (fitting[c].first < fitting[best].first) best = c;
  if (slots && !slots->node.empty()) {
    // A thread's planes in the inner pass: a brick of few inner columns leaves most of its
    // threads idle there, which the cost of points does not see.
    auto inner_path = [](const BrickGrid& g) {
      return (long long)((patch_lanes(g.sx - 2, g.sy - 2, g.patch) + g.threads - 1) / g.threads) * (g.sz - 2);
    };
    BrickGrid cheapest = fitting[best].second;
    finish_cut(cheapest, elem_bytes, smem_optin);
    const long long path = inner_path(cheapest);
    const double bound = fitting[best].first * (1.0 + kBrickSlotCutSlack);
    double best_cost = 1e300;
    // The cheapest first: another cut must cost less with its slots to be chosen.
    std::vector<size_t> order{best};
    for (size_t c = 0; c < fitting.size(); ++c)
      if (c != best && fitting[c].first <= bound) order.push_back(c);
    for (size_t c : order) {
      BrickGrid g = fitting[c].second;
      finish_cut(g, elem_bytes, smem_optin);
      if (inner_path(g) > path) continue;
      const int most = most_slots_in_a_brick(g, *slots);
      const size_t used = brick_smem_bytes(g, elem_bytes) + brick_mask_bytes(g);
      const bool on_chip = used + (size_t)most * slots->slot_bytes <= smem_optin;
      const double cost = fitting[c].first + kBrickSlotCost * most * (on_chip ? 1.0 : 2.0);
      if (cost < best_cost) best_cost = cost, best = c;
    }
  }
  BrickGrid g = fitting[best].second;
  finish_cut(g, elem_bytes, smem_optin);
  return g;
}

}  // namespace ws
