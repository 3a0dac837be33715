#pragma once
// Everything a step does besides the interior update, laid out for a kernel in which
// each block owns one tile of the grid for a whole step and runs many steps per launch
// (kernels/persistent_l2.cu): the boundary nodes (coefficients as DeviceBoundary's),
// the solid nodes and the source nodes grouped by tile (tile_groups.hpp), and the
// receivers' taps. A block updates its tile's interior points, then its boundary nodes
// (computed before the interior write, since u^{n+1} overwrites u^{n-1} in place), then
// zeroes its solids and adds its sources: each node is finished by the block that owns
// it, so a step ends with one grid-wide barrier, after which the receivers are read.
#include <cstdint>
#include <vector>

#include "boundary/boundary_plan.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/step_io.hpp"
#include "cuda/tile_groups.hpp"

namespace ws {

// Plain pointers for the kernel (owned by DeviceTiledStep and the solver).
template <class T>
struct TiledStepData {
  TileGrid tiles;
  // Boundary nodes of tile t: bnd_start[t] .. bnd_start[t+1].
  const int* bnd_start = nullptr;
  const int64_t* bnd_node = nullptr;
  const uint8_t* bnd_mask = nullptr;
  const uint8_t* bnd_nfixed = nullptr;
  const T* bnd_cd = nullptr;
  const T* bnd_cl = nullptr;
  T* side = nullptr;  // one value per boundary node, written and read by the owning block within a step
  int bnd_count = 0, solid_count = 0, nsrc = 0;  // totals (src[0 .. nsrc) is every source, in tile order)
  // Solid nodes (held at zero) of tile t: solid_start[t] .. solid_start[t+1].
  const int* solid_start = nullptr;
  const int64_t* solid = nullptr;
  // Source nodes of tile t: src_start[t] .. src_start[t+1].
  const int* src_start = nullptr;
  const DeviceSource* src = nullptr;
  // Receivers: sample of step s goes to rec_buf[(slot0 + s) * nrec + q].
  const DeviceTap* taps = nullptr;
  const int* tap_start = nullptr;
  int nrec = 0;
  T* rec_buf = nullptr;
  long long step0 = 0, slot0 = 0;  // the launch's first step (the one producing u^{step0+1}) and slot
  double dt = 0.0;
};

template <class T>
class DeviceTiledStep {
 public:
  DeviceTiledStep() = default;
  // `plan` may be empty (fixed walls, no obstacles); `sources` in the solver's order.
  DeviceTiledStep(const FieldLayout& L, const TileShape& shape, const BoundaryPlan& plan,
                  const std::vector<DeviceSource>& sources);

  // The kernel's view; the receivers and the step are filled in by the caller.
  TiledStepData<T> data() const;
  const TileGrid& tiles() const { return tiles_; }

 private:
  TileGrid tiles_;
  DeviceBuffer<int> bnd_start_, solid_start_, src_start_;
  DeviceBuffer<int64_t> bnd_node_, solid_;
  DeviceBuffer<uint8_t> bnd_mask_, bnd_nfixed_;
  DeviceBuffer<T> bnd_cd_, bnd_cl_, side_;
  DeviceBuffer<DeviceSource> src_;
};

}  // namespace ws
