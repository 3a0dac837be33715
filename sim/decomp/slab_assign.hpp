#pragma once
// What each slab of a decomposition owns: boundary nodes, solid nodes, sources and
// receivers, moved from the grid's coordinates into the slab's.
//
// Slab layouts have the grid's nx, ny and halo, so the same pitch and plane: a linear
// index of the grid is the slab's index plus z0 * plane, and the boundary plan is
// cut, not rebuilt. That keeps every coefficient and neighbour mask of a node the
// one the undecomposed run uses (a node next to a cut reads its neighbour through
// the halo, which holds the neighbour's plane), so the answer is the same bit for bit.
//
// A receiver whose taps all lie in one slab is recorded by that slab whole. One
// whose taps straddle a cut (trilinear) is recorded tap by tap (weight 1, exact) and
// the weighted sum is formed afterwards in the tap order, with the rounding of the
// backend's own sum (TapSum), so it matches the undecomposed solver.
#include <vector>

#include "boundary/boundary_plan.hpp"
#include "decomp/slab_plan.hpp"
#include "wave/wave_solver.hpp"

namespace ws {

// The plan's nodes in slab s, in the plan's order, as indices of a slab layout.
BoundaryPlan slab_boundary(const BoundaryPlan& grid_plan, const FieldLayout& grid_layout, const SlabPlan& slabs,
                           int s);

std::vector<SourceNode> slab_sources(const std::vector<SourceNode>& sources, const SlabPlan& slabs, int s);

struct TapPart {
  int slab = 0, local = 0;  // the slab receiver that records this tap with weight 1
  double weight = 1.0;
};
struct ReceiverRoute {
  int slab = 0, local = 0;     // whole: recorded by this slab receiver
  std::vector<TapPart> parts;  // split (non-empty): the taps in their original order
};
struct ReceiverRouting {
  std::vector<std::vector<ReceiverTaps>> per_slab;  // receivers each slab records (slab coordinates)
  std::vector<ReceiverRoute> routes;                // one per receiver of the grid
};
ReceiverRouting route_receivers(const std::vector<ReceiverTaps>& receivers, const SlabPlan& slabs);

// How a backend sums a receiver's taps: the CPU solver v += w u in double; the CUDA
// solver's io_kernel the same in device code, which nvcc contracts into fma(w, u, v),
// then stores the sample in the field's precision.
enum class TapSum { Host, DeviceFloat, DeviceDouble };

// per_slab[s][q]: the samples of slab s's receiver q (every list equally long).
std::vector<std::vector<double>> combine_receivers(const ReceiverRouting& routing,
                                                   const std::vector<std::vector<std::vector<double>>>& per_slab,
                                                   TapSum how);

}  // namespace ws
