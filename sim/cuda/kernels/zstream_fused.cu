// The whole step in one launch: zstream_cached's z streaming (a thread per (i, j)
// column, u^n's z neighbours in a register queue, the in-plane ones through L1) with
// the walls, obstacles, sources and receivers of the step inside the same kernel, so a
// room costs one launch per step instead of the interior kernel, two boundary-node
// kernels and the I/O kernel (each of which costs a launch and a tail of its own).
//
// Each thread finishes every node of its column within the step (column_events.hpp):
//  - a node on a face of the box takes its face class's boundary coefficients, found
//    from its coordinates in a 27-entry table (in the kernel's parameters); the boundary
//    value is computed from the same six neighbours and u^{n-1} the interior update read,
//    already in registers;
//  - the nodes the classes get wrong (near obstacles), the solid nodes and the sources
//    are events listed per column in the order of k; the thread keeps the plane of its
//    column's next event in a register, so an ordinary plane costs one comparison.
// The sources' values for a run of up to kSourceValueSteps steps come from one small
// kernel before the run (step_io.hpp), a programmatic dependent like every step. Every
// node's arithmetic is the solver's per-step path's (boundary_node.cuh, exact_update.cuh,
// step_io.hpp): the same bits.
//
// The receivers read u^{n+1} at nodes other blocks write, so they are read by block 0 of
// the next step's launch, where u^{n+1} is the u^n nobody writes, and after the last step
// of a run by a small kernel. A run can be captured in a CUDA graph and replayed (the
// solver does so for runs of 1, 2, 4, ... kSourceValueSteps steps): the step index and receiver slot then
// come from the solver's device counter, so one replay costs one host launch.
#include <algorithm>
#include <climits>

#include "boundary/boundary_node.cuh"
#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/fused_steps.cuh"
#include "cuda/kernels/kernel_common.cuh"
#include "cuda/kernels/launch_geometry.hpp"
#include "cuda/kernels/seven_point.hpp"
#include "cuda/step_io.hpp"
#include "cuda/tiled_step.hpp"

namespace ws {

namespace {

// z chunks of at least 4 planes (zstream_cached: 16): on the small grids of rooms heard
// live a column of 16 planes per thread leaves the device with too few blocks, while the
// extra planes a chunk loads at its ends are L2 hits there.
constexpr int kMinChunkPlanes = 4;
// With obstacles, chunks of at least 2 planes: the columns along an obstacle's surfaces
// carry most of the step's events, and shorter chunks spread them over more blocks
// (furnished room on the H200: +50% against 4 planes; the shoebox has no obstacles and
// keeps 4, which measured 7% faster there than 2; docs/benchmarks.md).
constexpr int kMinChunkPlanesObstacles = 2;

// Prefetch depth (planes) and register cap: zstream_cached's. The event cursor fits in
// float's 40 registers (six 256-thread blocks per SM); double needs 48 to keep it
// without spilling (five blocks, as at 44).
template <class T> struct FusedTuning { static constexpr int depth = 2, max_regs = 40; };
template <> struct FusedTuning<double> { static constexpr int depth = 1, max_regs = 48; };

template <class T, bool IO>
__global__ void __maxnreg__(FusedTuning<T>::max_regs)
    zstream_fused_kernel(T* __restrict__ un, const T* __restrict__ uc, FieldLayout L, T w, int chunk,
                         TiledStepData<T> io, const T* src_value, long long rec_slot) {
  constexpr int D = FusedTuning<T>::depth;
  fused_launch_next_step();
  if constexpr (IO) {  // the previous step's receivers, from u^n (read-only in this step)
    if (blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0) {
      fused_wait_previous_step();
      fused_previous_taps(uc, io, rec_slot);
    }
  }
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= L.nx || j >= L.ny) return;  // no barriers below: threads outside the interior may leave
  const int k0 = blockIdx.z * chunk;
  const int k1 = min(L.nz, k0 + chunk);
  const int pitch = (int)L.pitch;
  const int64_t plane = L.plane;
  const int64_t p0 = L.index(i, j, k0);
  const T* c = uc + p0;
  T* o = un + p0;
  // The column's face class without z (fx + 3 fy) and its first event at or after k0.
  int col_class = 0, e = 0, e_end = 0, next_k = INT_MAX;
  if constexpr (IO) {
    col_class = (i == 0 ? 1 : i == L.nx - 1 ? 2 : 0) + 3 * (j == 0 ? 1 : j == L.ny - 1 ? 2 : 0);  // as face_class
    listed_events_at(io.cols, i + L.nx * j, k0, e, e_end);
    if (e < e_end) next_k = __ldg(io.cols.k + e);
  }
  fused_wait_previous_step();  // the previous step has finished with the fields: only now are they touched
  // zq[0..D+1] = u^n(k-1 .. k+D), pq[0..D-1] = u^{n-1}(k .. k+D-1), loaded D planes early.
  T zq[D + 2], pq[D];
#pragma unroll
  for (int d = 0; d < D + 2; ++d) zq[d] = (k0 - 1 + d <= k1) ? __ldg(c + (d - 1) * plane) : T(0);
#pragma unroll
  for (int d = 0; d < D; ++d) pq[d] = (k0 + d < k1) ? o[d * plane] : T(0);
  for (int k = k0; k < k1; ++k) {
    const T z_new = (k + D + 1 <= k1) ? __ldg(c + (D + 1) * plane) : T(0);
    const T p_new = (k + D < k1) ? o[D * plane] : T(0);
    const T nb[6] = {__ldg(c - 1), __ldg(c + 1), __ldg(c - pitch), __ldg(c + pitch), zq[0], zq[2]};
    T v = ex::seven_point_update(zq[1], pq[0], nb[0], nb[1], nb[2], nb[3], nb[4], nb[5], w);
    if constexpr (IO) {
      const int cls = col_class + (k == 0 ? 9 : k == L.nz - 1 ? 18 : 0);
      const T v_int = v;
      if (cls != 0) {
        const ClassCoeffs<T> cc = io.class_table[cls];
        if (cc.on) v = boundary_value(zq[1], nb, pq[0], cc.mask, cc.n_fixed, cc.cd, cc.cl);
      }
      if (k == next_k) {
        v = apply_event_records(v, v_int, zq[1], nb, pq[0], k, e, e_end, io, src_value);
        next_k = e < e_end ? __ldg(io.cols.k + e) : INT_MAX;
      }
    }
    *o = v;
#pragma unroll
    for (int d = 0; d < D + 1; ++d) zq[d] = zq[d + 1];
    zq[D + 1] = z_new;
#pragma unroll
    for (int d = 0; d < D - 1; ++d) pq[d] = pq[d + 1];
    pq[D - 1] = p_new;
    c += plane;
    o += plane;
  }
}

struct Fused {
  template <class T, bool IO>
  static FusedStepKernel<T> kernel() { return zstream_fused_kernel<T, IO>; }
  static const char* name() { return "zstream_fused"; }
  template <class T>
  static int x_per_thread() { return 1; }
  template <class T>
  static int min_chunk_planes(const TiledStepData<T>* io) {
    return fused_step_has_obstacles(io) ? kMinChunkPlanesObstacles : kMinChunkPlanes;
  }
  template <class T>
  static int event_group() { return 1; }
  static bool plane_records() { return false; }
};

}  // namespace

void register_zstream_fused_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "zstream_fused";
  v.name = "z streaming, walls, obstacles, sources and receivers in the one launch of a step";
  v.family = "ours";
  v.stencils = "7pt";
  v.supports = supports_seven_point;
  v.default_block = {32, 8, 1};
  v.block_uses_z = false;
  v.has_readonly_toggle = false;
  v.graph_capturable = false;  // the per-step path's graph does not apply: the solver runs it through multi_float
  // Its multi-step launch may be captured and replayed: with TiledStepData::counter set,
  // every step index and receiver slot comes from the device counter.
  // Chunks for 4 waves besides its 6: on the H200 the furnished room at 24 kHz runs 5%
  // faster with them, at 32 kHz 7% slower (docs/benchmarks.md).
  v.multi_uses_tiles = false;  // column events and face classes only
  v.multi_uses_column_events = true;
  v.room_z_waves = {4};
  v.multi_replayable = true;
  v.launch_float = fused_launch_one<Fused, float>;
  v.launch_double = fused_launch_one<Fused, double>;
  v.multi_float = fused_launch_multi<Fused, float>;
  v.multi_double = fused_launch_multi<Fused, double>;
  r.add(v);
}

}  // namespace ws
