#include "decomp/slab_assign.hpp"

#include <cmath>
#include <stdexcept>

namespace ws {

namespace {

int plane_of(int64_t q, const FieldLayout& L) { return (int)(q / L.plane) - L.halo; }

GridIndex to_slab(GridIndex g, const Slab& s) {
  g.k -= s.z0;
  return g;
}

}  // namespace

BoundaryPlan slab_boundary(const BoundaryPlan& p, const FieldLayout& L, const SlabPlan& slabs, int s) {
  const Slab& sl = slabs.slabs.at(s);
  const int64_t shift = (int64_t)sl.z0 * L.plane;
  BoundaryPlan out;
  out.lambda = p.lambda;
  for (size_t b = 0; b < p.node.size(); ++b) {
    if (slabs.slab_of(plane_of(p.node[b], L)) != s) continue;
    out.node.push_back(p.node[b] - shift);
    out.neighbours.push_back(p.neighbours[b]);
    out.count.push_back(p.count[b]);
    out.beta_sum.push_back(p.beta_sum[b]);
  }
  for (int64_t q : p.solid)
    if (slabs.slab_of(plane_of(q, L)) == s) out.solid.push_back(q - shift);
  return out;
}

std::vector<SourceNode> slab_sources(const std::vector<SourceNode>& sources, const SlabPlan& slabs, int s) {
  std::vector<SourceNode> out;
  for (const auto& src : sources)
    if (slabs.slab_of(src.node.k) == s) {
      SourceNode n = src;
      n.node = to_slab(src.node, slabs.slabs[s]);
      out.push_back(n);
    }
  return out;
}

ReceiverRouting route_receivers(const std::vector<ReceiverTaps>& receivers, const SlabPlan& slabs) {
  ReceiverRouting r;
  r.per_slab.assign(slabs.size(), {});
  for (const auto& taps : receivers) {
    ReceiverRoute route;
    int first = taps.empty() ? 0 : slabs.slab_of(taps.front().node.k);
    bool whole = true;
    for (const auto& t : taps) whole = whole && slabs.slab_of(t.node.k) == first;
    if (whole) {
      ReceiverTaps local;
      for (const auto& t : taps) local.push_back({to_slab(t.node, slabs.slabs[first]), t.weight});
      route.slab = first;
      route.local = (int)r.per_slab[first].size();
      r.per_slab[first].push_back(local);
    } else {
      for (const auto& t : taps) {
        const int s = slabs.slab_of(t.node.k);
        route.parts.push_back({s, (int)r.per_slab[s].size(), t.weight});
        r.per_slab[s].push_back({GridTap{to_slab(t.node, slabs.slabs[s]), 1.0}});
      }
    }
    r.routes.push_back(route);
  }
  return r;
}

std::vector<std::vector<double>> combine_receivers(const ReceiverRouting& routing,
                                                   const std::vector<std::vector<std::vector<double>>>& per_slab,
                                                   TapSum how) {
  std::vector<std::vector<double>> out;
  for (const auto& route : routing.routes) {
    if (route.parts.empty()) {
      out.push_back(per_slab.at(route.slab).at(route.local));
      continue;
    }
    const size_t n = per_slab.at(route.parts[0].slab).at(route.parts[0].local).size();
    std::vector<double> v(n, 0.0);
    for (size_t s = 0; s < n; ++s) {
      double sum = 0.0;
      for (const auto& p : route.parts) {
        const double u = per_slab[p.slab][p.local].at(s);
        if (how == TapSum::Host) sum += p.weight * u;
        else sum = std::fma(p.weight, u, sum);
      }
      v[s] = how == TapSum::DeviceFloat ? (double)(float)sum : sum;
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace ws
