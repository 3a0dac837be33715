// The whole step in one launch: zstream_cached's z streaming (a thread per (i, j)
// column, u^n's z neighbours in a register queue, the in-plane ones through L1) with
// the walls, obstacles, sources and receivers of the step inside the same kernel, so a
// room costs one launch per step instead of the interior kernel, two boundary-node
// kernels and the I/O kernel (each of which costs a launch and a tail of its own).
//
// Each thread finishes every node of its column within the step (column_events.hpp):
//  - a node on a face of the box takes its face class's boundary coefficients, found
//    from its coordinates in a 27-entry table; the boundary value is computed from the
//    same six neighbours and u^{n-1} the interior update read, already in registers;
//  - the nodes the classes get wrong (near obstacles), the solid nodes and the sources
//    are events listed per column in the order of k; the thread keeps the plane of its
//    column's next event in a register, so an ordinary plane costs one comparison.
// The sources' values for a run of up to kSourceValueSteps steps come from one small
// kernel before the run (step_io.hpp). Every node's arithmetic is the solver's per-step
// path's (boundary_node.cuh, exact_update.cuh, step_io.hpp): the same bits.
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
constexpr int kTargetWaves = 6;

// Prefetch depth (planes) and register cap: zstream_cached's. The event cursor fits in
// float's 40 registers (six 256-thread blocks per SM); double needs 48 to keep it
// without spilling (five blocks, as at 44).
template <class T> struct FusedTuning { static constexpr int depth = 2, max_regs = 40; };
template <> struct FusedTuning<double> { static constexpr int depth = 1, max_regs = 48; };

// The events of one node at plane k applied to its value v (v_int: its interior update;
// nb: its six neighbours, -x, +x, -y, +y, -z, +z); advances e past them.
template <class T>
__device__ __forceinline__ T apply_events(T v, T v_int, T u, const T (&nb)[6], T u_prev, int k, int& e, int e_end,
                                          const TiledStepData<T>& io, const T* src_value) {
  do {
    const int code = __ldg(io.ev_code + e);
    if (code >= 0)
      v = boundary_value(u, nb, u_prev, __ldg(io.bnd_mask + code), __ldg(io.bnd_nfixed + code), __ldg(io.bnd_cd + code),
                         __ldg(io.bnd_cl + code));
    else if (code == kEventSolid)
      v = T(0);
    else if (code == kEventPlain)
      v = v_int;
    else
      v += src_value[event_source_index(code)];
    ++e;
  } while (e < e_end && __ldg(io.ev_k + e) == k);
  return v;
}

template <class T, bool IO>
__global__ void __maxnreg__(FusedTuning<T>::max_regs)
    zstream_fused_kernel(T* __restrict__ un, const T* __restrict__ uc, FieldLayout L, T w, int chunk,
                         TiledStepData<T> io, const T* src_value, long long rec_slot) {
  constexpr int D = FusedTuning<T>::depth;
  if constexpr (IO) {
    // The previous step's receivers, from u^n (written by the previous launch, read-only here).
    if (rec_slot >= 0 && blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0) {
      const long long slot = (io.counter ? io.counter->slot : 0) + rec_slot;
      for (int q = threadIdx.x + blockDim.x * threadIdx.y; q < io.nrec; q += blockDim.x * blockDim.y)
        io.rec_buf[slot * io.nrec + q] = receiver_sample(uc, io.taps, io.tap_start, q);
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
  // The column's face class without z (fx + 3 fy) and its first event at or after k0
  // (a binary search: a column next to an obstacle may have many).
  int col_class = 0, e = 0, e_end = 0, next_k = INT_MAX;
  if constexpr (IO) {
    col_class = (i == 0 ? 1 : i == L.nx - 1 ? 2 : 0) + 3 * (j == 0 ? 1 : j == L.ny - 1 ? 2 : 0);  // as face_class
    const int col = i + L.nx * j;
    e = __ldg(io.col_start + col);
    e_end = __ldg(io.col_start + col + 1);
    int hi = e_end;
    while (e < hi) {
      const int mid = (e + hi) / 2;
      if (__ldg(io.ev_k + mid) < k0) e = mid + 1;
      else hi = mid;
    }
    if (e < e_end) next_k = __ldg(io.ev_k + e);
  }
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
        const int b = __ldg(io.class_bnd + cls);
        if (b >= 0)
          v = boundary_value(zq[1], nb, pq[0], __ldg(io.bnd_mask + b), __ldg(io.bnd_nfixed + b), __ldg(io.bnd_cd + b),
                             __ldg(io.bnd_cl + b));
      }
      if (k == next_k) {
        v = apply_events(v, v_int, zq[1], nb, pq[0], k, e, e_end, io, src_value);
        next_k = e < e_end ? __ldg(io.ev_k + e) : INT_MAX;
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

// The receivers of a run's last step (u^{n+1} in `un`) into slot `rec_slot` (an offset
// from the counter's slot when there is one).
template <class T>
__global__ void run_taps_kernel(const T* un, TiledStepData<T> io, long long rec_slot) {
  const long long slot = (io.counter ? io.counter->slot : 0) + rec_slot;
  for (int q = threadIdx.x; q < io.nrec; q += blockDim.x)
    io.rec_buf[slot * io.nrec + q] = receiver_sample(un, io.taps, io.tap_start, q);
}

template <class T>
T fused_weight(const Stencil* st, double lambda2) {
  if (!st->is_seven_point())
    throw std::invalid_argument("zstream_fused runs the 7-point stencil only, not '" + st->name + "'");
  return T(lambda2 * st->axis_weight(1));
}

// Launches `steps` steps on `stream`, the first producing u^{n+1} into `prev`, with the
// step data `io` (nullptr: the bare interior). Returns the launches.
template <class T>
int launch_steps(T* cur, T* prev, int steps, const FieldLayout& L, T w, const TiledStepData<T>* io,
                 const LaunchOptions& o, cudaStream_t stream) {
  const dim3 block(o.block.x, o.block.y, 1);
  const long long gx = ceil_div(L.nx, o.block.x), gy = ceil_div(L.ny, o.block.y);
  const void* kernel = io ? (const void*)zstream_fused_kernel<T, true> : (const void*)zstream_fused_kernel<T, false>;
  const int resident = resident_blocks_per_sm(kernel, block.x * block.y, 0) * device_sm_count();
  const int chunks = z_chunks_for(gx * gy, resident, L.nz, kTargetWaves, kMinChunkPlanes);
  const int chunk = (L.nz + chunks - 1) / chunks;
  const dim3 grid = checked_grid(gx, gy, (L.nz + chunk - 1) / chunk, "zstream_fused");
  int launches = 0;
  for (int s0 = 0; s0 < steps; s0 += io ? io->src_value_steps : steps) {
    const int run = io ? std::min(steps - s0, io->src_value_steps) : steps;
    if (io && io->nsrc > 0) {
      const int n = io->nsrc * run;
      source_values_kernel<T><<<(n + 255) / 256, 256, 0, stream>>>(
          io->src, io->nsrc, io->counter ? &io->counter->step : nullptr, io->step0 + s0, run, io->dt, io->src_value);
      CUDA_CHECK_LAUNCH();
      ++launches;
    }
    for (int s = s0; s < s0 + run; ++s) {
      T* un = s % 2 == 0 ? prev : cur;
      const T* uc = s % 2 == 0 ? cur : prev;
      if (io)
        zstream_fused_kernel<T, true><<<grid, block, 0, stream>>>(
            un, uc, L, w, chunk, *io, io->src_value + (size_t)(s - s0) * io->nsrc,
            io->nrec > 0 && s > s0 ? io->slot0 + s - 1 : -1);
      else
        zstream_fused_kernel<T, false><<<grid, block, 0, stream>>>(un, uc, L, w, chunk, TiledStepData<T>{}, nullptr, -1);
      CUDA_CHECK_LAUNCH();
      ++launches;
    }
    if (io && io->nrec > 0) {  // the run's last step: its u^{n+1} is in the field the last launch wrote
      const T* last = (s0 + run - 1) % 2 == 0 ? prev : cur;
      run_taps_kernel<T><<<1, 128, 0, stream>>>(last, *io, io->slot0 + s0 + run - 1);
      CUDA_CHECK_LAUNCH();
      ++launches;
    }
  }
  return launches;
}

template <class T>
int launch_multi(const MultiStepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  const T w = fused_weight<T>(a.stencil, a.lambda2);
  return launch_steps<T>(a.cur, a.prev, a.steps, a.layout, w, a.io, o, stream);
}

// One bare step (the registry's per-step interface).
template <class T>
void launch_one(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  (void)launch_steps<T>(const_cast<T*>(a.u_cur), a.u_next, 1, a.layout, fused_weight<T>(a.stencil, a.lambda2), nullptr,
                        o, stream);
}

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
  v.multi_replayable = true;
  v.launch_float = launch_one<float>;
  v.launch_double = launch_one<double>;
  v.multi_float = launch_multi<float>;
  v.multi_double = launch_multi<double>;
  r.add(v);
}

}  // namespace ws
