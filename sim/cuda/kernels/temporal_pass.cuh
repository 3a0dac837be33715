#pragma once
// What the temporal-blocking kernels share (temporal_2step.cu, temporal_2step_vec.cu):
// the sources and walls a pass carries, the per-point update, the single steps that
// finish a run that is not a multiple of four steps, the receivers read after a pass,
// and the loop of pass pairs. A pass reads u^n (A) and u^{n-1} (B) and writes u^{n+2}
// (C) and u^{n+1} (D) out of place, C and D being two scratch fields the solver holds;
// passes go in pairs, A, B -> C, D -> A, B, so four steps leave the result in the
// solver's own fields.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "boundary/boundary_node.cuh"
#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/dependent_launch.cuh"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/kernel_common.cuh"
#include "cuda/kernels/launch_geometry.hpp"
#include "cuda/kernels/leggy_common.hpp"
#include "cuda/step_io.hpp"
#include "cuda/tiled_step.hpp"

namespace ws {
namespace temporal {

// The sources of a pass: their nodes, and what each adds at the pass's two steps
// (value[e] at the step producing u^{n+1}, value[n + e] at the one producing u^{n+2}),
// computed by source_values_kernel before the pass: the signals' double arithmetic stays
// out of the pass kernel, whose registers bound its occupancy.
template <class T>
struct PassSources {
  const DeviceSource* src = nullptr;
  const T* value = nullptr;
  int n = 0;
};

// The box's boundary nodes (TiledStepData's arrays, found through face_node).
template <class T>
struct PassWalls {
  const int* face = nullptr;
  const uint8_t* mask = nullptr;
  const uint8_t* nfixed = nullptr;
  const T* cd = nullptr;
  const T* cl = nullptr;
};

// Index of (i, j, k) in the boundary arrays, or -1 for a point that takes the interior update.
template <class T>
__device__ __forceinline__ int wall_node(const PassWalls<T>& w, const FieldLayout& L, int i, int j, int k) {
  const int64_t slot = box_face_slot(L, i, j, k);
  return slot < 0 ? -1 : w.face[slot];
}

// The sources of the pass's step `level` (0, 1) at node q, in list order (one source per
// node gives the bits of the I/O kernel's atomicAdd of the same value).
template <class T>
__device__ __forceinline__ T add_sources(T v, int64_t q, const PassSources<T>& s, int level) {
  for (int e = 0; e < s.n; ++e)
    if (s.src[e].index == q) v += s.value[level * s.n + e];
  return v;
}

// Whether any source lies in the block's grown tile (columns [i0, i0 + w) x [j0, j0 + h),
// planes [z0, z1)): a block without one skips the per-point search of the source list.
template <class T>
__device__ bool sources_in_block(const PassSources<T>& s, const FieldLayout& L, int i0, int j0, int w, int h, int z0,
                                 int z1) {
  for (int e = 0; e < s.n; ++e) {
    const FieldLayout::Point p = L.point(s.src[e].index);
    if (p.i >= i0 && p.i < i0 + w && p.j >= j0 && p.j < j0 + h && p.k >= z0 && p.k < z1) return true;
  }
  return false;
}

// The update of one point from u^n, u^{n-1} and u^n at distance m = 1..R along each axis
// (at(d, m): d = 0..5 for -x, +x, -y, +y, -z, +z): the 7-point update for R = 1, the
// leggy kernels' arithmetic for R >= 2 (leggy_vec.cuh: leggy_update).
template <class T, int R, class At>
__device__ __forceinline__ T point_update(T u, T u_prev, const LeggyCoeffs<T>& c, At&& at) {
  if constexpr (R == 1) {
    return ex::seven_point_update(u, u_prev, at(0, 1), at(1, 1), at(2, 1), at(3, 1), at(4, 1), at(5, 1), c.w[1]);
  } else {
    T acc = ex::leapfrog(u, u_prev);
    const T six_u = ex::six_times(u);
#pragma unroll
    for (int m = 1; m <= R; ++m)
      acc = fma(c.w[m], ex::axis_shell_minus(at(0, m), at(1, m), at(2, m), at(3, m), at(4, m), at(5, m), six_u), acc);
    return acc;
  }
}

// One plain 7-point step (the steps that do not fill a pair of passes, and the
// registry's per-step launch).
template <class T, int R>
__global__ void single_step_kernel(T* un, const T* uc, FieldLayout L, LeggyCoeffs<T> c) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= L.nx || j >= L.ny) return;
  const int64_t off[6] = {-1, 1, -L.pitch, L.pitch, -L.plane, L.plane};
  for (int k = blockIdx.z; k < L.nz; k += gridDim.z) {
    const int64_t q = L.index(i, j, k);
    un[q] = point_update<T, R>(uc[q], un[q], c, [&](int d, int m) { return uc[q + m * off[d]]; });
  }
}

// The boundary nodes' new values into `side` before a single step overwrites u^{n-1},
// and their scatter after it (boundary_kernels.cu's two phases).
template <class T>
__global__ void single_step_walls(const int64_t* node, PassWalls<T> w, int n, FieldLayout L, const T* uc,
                                  const T* up, T* side) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b >= n) return;
  const int64_t q = node[b];
  side[b] = boundary_node_value(uc, up[q], q, w.mask[b], w.nfixed[b], w.cd[b], w.cl[b], L);
}

template <class T>
__global__ void scatter_side(const int64_t* node, int n, const T* side, T* un) {
  const int b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b < n) un[node[b]] = side[b];
}

// Receivers after a pass: u^{n+1} (d) into `slot`, u^{n+2} (c) into slot + 1.
template <class T>
__global__ void pass_receivers(const T* c, const T* d, const DeviceTap* taps, const int* tap_start, int nrec,
                               T* rec_buf, long long slot) {
  pdl_launch_dependents();
  pdl_wait();
  for (int q = threadIdx.x; q < nrec; q += blockDim.x) {
    rec_buf[slot * nrec + q] = receiver_sample(d, taps, tap_start, q);
    rec_buf[(slot + 1) * nrec + q] = receiver_sample(c, taps, tap_start, q);
  }
}

// `id`: the kernel's registry id, for the messages.
template <class T, int R>
void launch_single(T* un, const T* uc, const FieldLayout& L, const LeggyCoeffs<T>& c, const LaunchOptions& o,
                   cudaStream_t stream, const char* id) {
  const dim3 grid = checked_grid((L.nx + o.block.x - 1) / o.block.x, (L.ny + o.block.y - 1) / o.block.y,
                                 std::min(L.nz, 64), id);
  single_step_kernel<T, R><<<grid, dim3(o.block.x, o.block.y), 0, stream>>>(un, uc, L, c);
  CUDA_CHECK_LAUNCH();
}

// lambda^2 w_m per leg: the 7-point stencil's (seven_point.hpp) or a leggy stencil's.
template <class T>
LeggyCoeffs<T> pass_coeffs(const Stencil& st, double lambda2, const FieldLayout& L, const char* id) {
  if (st.is_seven_point()) {
    LeggyCoeffs<T> c{};
    c.w[1] = T(lambda2 * st.axis_weight(1));
    return c;
  }
  return leggy_coeffs(StepArgs<T>{nullptr, nullptr, L, &st, lambda2}, id);
}

// What a pass needs of the solver, checked before the first launch: no obstacles (the
// solver steps scenes with obstacles singly, KernelVariant::MultiWalls::BoxFaces) and the
// two scratch fields for runs of four steps or more.
template <class T>
void check_pass_args(const MultiStepArgs<T>& a, const char* id) {
  const TiledStepData<T>* io = a.io;
  if (io && (io->solid_count > 0 || (io->bnd_count > 0 && !io->face_node)))
    throw std::invalid_argument(std::string("kernel '") + id +
                                "' runs the box's walls but not obstacles; the solver steps scenes with obstacles singly");
  if (a.steps >= 4 && !a.scratch)
    throw std::invalid_argument(std::string("kernel '") + id + "' needs two scratch fields");
}

// Runs a.steps steps as pairs of two-step passes (A, B -> C, D -> A, B: the result back
// in the solver's fields) and the 0 to 3 steps left as single steps. The sources' and the
// receivers' kernels around each pass are programmatic dependents of the kernel before
// them (dependent_launch.cuh): they start behind its tail instead of after a launch gap.
// pass(out_cur, out_prev, in_cur, in_prev, sources) launches one pass on `stream`; before
// it the sources' values of its two steps are computed, after it the receivers read; it
// returns the launches it made. Returns the host launches.
template <class T, int R, class Pass>
int run_pass_pairs(const MultiStepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream, const LeggyCoeffs<T>& c,
                   const PassWalls<T>& walls, const char* id, Pass&& pass) {
  const FieldLayout& L = a.layout;
  const TiledStepData<T>* io = a.io;
  const bool src = io && io->nsrc > 0;
  const bool wl = io && io->bnd_count > 0;
  T* f[4] = {a.cur, a.prev, a.scratch, a.scratch ? a.scratch + L.total : nullptr};  // u^n, u^{n-1}, C, D
  long long step = io ? io->step0 : 0, slot = io ? io->slot0 : 0;
  const int pairs = a.steps / 4;
  int launches = 0;
  for (int p = 0; p < 2 * pairs; ++p) {
    T* in_cur = p % 2 == 0 ? f[0] : f[2];
    T* in_prev = p % 2 == 0 ? f[1] : f[3];
    T* out_cur = p % 2 == 0 ? f[2] : f[0];
    T* out_prev = p % 2 == 0 ? f[3] : f[1];
    PassSources<T> s;
    if (src) {
      launch_dependent(source_values_kernel<T>, dim3(1), dim3(128), 0, stream, io->src, io->nsrc,
                       (const long long*)nullptr, step, 2, io->dt, io->src_value);
      ++launches;
      s = PassSources<T>{io->src, io->src_value, io->nsrc};
    }
    launches += pass(out_cur, out_prev, in_cur, in_prev, s);
    CUDA_CHECK_LAUNCH();
    if (io && io->nrec > 0) {
      launch_dependent(pass_receivers<T>, dim3(1), dim3(128), 0, stream, (const T*)out_cur, (const T*)out_prev,
                       io->taps, io->tap_start, io->nrec, io->rec_buf, slot);
      ++launches;
    }
    step += 2;
    slot += 2;
  }
  // The rest as single steps on the solver's fields (u^{n+4 pairs} is back in cur), the
  // walls through the boundary-node kernels' arithmetic (boundary_node.cuh).
  T* cu = a.cur;
  T* nx = a.prev;
  for (int r = 0; r < a.steps % 4; ++r) {
    if (wl) {
      single_step_walls<T><<<(unsigned)((io->bnd_count + 255) / 256), 256, 0, stream>>>(io->bnd_node, walls,
                                                                                       io->bnd_count, L, cu, nx, io->side);
      CUDA_CHECK_LAUNCH();
      ++launches;
    }
    launch_single<T, R>(nx, cu, L, c, o, stream, id);
    ++launches;
    if (wl) {
      scatter_side<T><<<(unsigned)((io->bnd_count + 255) / 256), 256, 0, stream>>>(io->bnd_node, io->bnd_count,
                                                                                   io->side, nx);
      CUDA_CHECK_LAUNCH();
      ++launches;
    }
    if (io && (io->nsrc > 0 || io->nrec > 0)) {
      io_kernel<T><<<1, 128, 0, stream>>>(nx, io->src, io->nsrc, io->taps, io->tap_start, io->nrec, io->rec_buf,
                                               slot, step, io->dt);
      CUDA_CHECK_LAUNCH();
      ++launches;
    }
    std::swap(cu, nx);
    ++step;
    ++slot;
  }
  return launches;
}


}  // namespace temporal
}  // namespace ws
