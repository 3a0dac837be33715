#include "decomp/slab_plan.hpp"

#include <stdexcept>

namespace ws {

int SlabPlan::slab_of(int k) const {
  if (k < 0 || k >= nz) throw std::out_of_range("plane " + std::to_string(k) + " lies outside [0, " +
                                                std::to_string(nz) + ")");
  int lo = 0, hi = size() - 1;
  while (lo < hi) {  // the last slab with z0 <= k
    const int mid = (lo + hi + 1) / 2;
    if (slabs[mid].z0 <= k) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

SlabPlan make_slab_plan(int nz, int parts, int halo, const std::string& what) {
  if (parts < 1)
    throw std::invalid_argument("the number of " + what + " must be at least 1 (got " + std::to_string(parts) + ")");
  if (nz < 1) throw std::invalid_argument("the grid has no z planes to decompose (nz = " + std::to_string(nz) + ")");
  const int h = halo < 1 ? 1 : halo;
  if (parts > 1 && nz / parts < h)
    throw std::invalid_argument(std::to_string(parts) + " " + what + " are too many for a grid of " +
                                std::to_string(nz) + " z planes: each slab needs at least " + std::to_string(h) +
                                " plane(s) (the stencil's radius), so at most " + std::to_string(max_slabs(nz, h)) +
                                " " + what + " can share it");
  SlabPlan p;
  p.nz = nz;
  p.halo = h;
  const int base = nz / parts, extra = nz % parts;
  int z = 0;
  for (int s = 0; s < parts; ++s) {
    const int n = base + (s < extra ? 1 : 0);
    p.slabs.push_back({z, n, s, s});
    z += n;
  }
  return p;
}

SlabPlan split_edges_for_overlap(const SlabPlan& plan) {
  SlabPlan out = plan;
  out.slabs.clear();
  const int h = plan.halo;
  for (int s = 0; s < plan.size(); ++s) {
    const Slab& sl = plan.slabs[s];
    const bool below = s > 0 && plan.slabs[s - 1].part != sl.part;
    const bool above = s + 1 < plan.size() && plan.slabs[s + 1].part != sl.part;
    const int edges = (below ? 1 : 0) + (above ? 1 : 0);
    if (edges == 0 || sl.nz - edges * h < h) {
      out.slabs.push_back(sl);
      continue;
    }
    int z = sl.z0, end = sl.z0 + sl.nz;
    if (below) {
      out.slabs.push_back({z, h, sl.owner, sl.part});
      z += h;
    }
    const int rest = end - z - (above ? h : 0);
    out.slabs.push_back({z, rest, sl.owner, sl.part});
    z += rest;
    if (above) out.slabs.push_back({z, h, sl.owner, sl.part});
  }
  return out;
}

}  // namespace ws
