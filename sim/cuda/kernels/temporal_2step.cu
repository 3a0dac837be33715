// Temporal blocking: two 7-point steps per pass over DRAM, for grids beyond L2.
//
// A single step reads u^n and u^{n-1} and writes u^{n+1}: three field accesses per
// point and step. A pass of this kernel reads u^n (A) and u^{n-1} (B) once and writes
// u^{n+1} and u^{n+2}: four accesses per two steps, so a bandwidth-bound grid can
// run at up to 1.5x the single-step copy roofline. Each block owns an xy tile and
// streams a chunk of z planes; for plane k it computes u^{n+1} on the tile grown by
// one point per side (the neighbours the second step needs, recomputed by the
// blocks next to it) into a shared ring of three planes, then u^{n+2} on the tile
// at plane k - 1 from the ring and u^n.
//
// The passes are out of place: A, B -> C (u^{n+2}), D (u^{n+1}), C and D being two
// scratch fields the solver holds for this kernel. In place would race: a block's
// grown tile reads u^{n-1} and u^n on its neighbours' points, which those
// neighbours would already have overwritten. Passes go in pairs, A, B -> C, D ->
// A, B, so four steps leave the result in the solver's own fields; the 0 to 3 steps
// that remain run as single steps. Since no pass writes what it reads, A and B go
// through the read-only cache.
//
// The arithmetic of each point is the single-step update's (exact_update.cuh), so
// the result is bit for bit that of any 7-point kernel. Sources are added to
// u^{n+1} by every block that computes the node (its own copy) and to u^{n+2} by
// the owner; receivers are read after each pass. Walls other than fixed ones and
// obstacles need the boundary-node kernels between steps: the solver runs this
// kernel's single steps around them instead (KernelVariant::multi_walls).
#include <algorithm>
#include <stdexcept>
#include <string>

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

constexpr int kTargetWaves = 2;
constexpr int kMinChunkPlanes = 32;  // each chunk recomputes u^{n+1} on two extra planes

struct PassSources {
  const DeviceSource* src = nullptr;
  int n = 0;
  long long step = 0;  // the step that produces u^{n+1}
  double dt = 0.0;
};

// Sources of `step` at node q, in list order (one source per node gives the bits of
// the I/O kernel's atomicAdd).
template <class T>
__device__ __forceinline__ T add_sources(T v, int64_t q, const PassSources& s, long long step) {
  for (int e = 0; e < s.n; ++e)
    if (s.src[e].index == q) v += T(s.src[e].gain * source_injection(s.src[e], step, s.dt));
  return v;
}

template <class T, bool SRC>
__global__ void __launch_bounds__(1024) temporal_2step_kernel(T* __restrict__ c_out, T* __restrict__ d_out,
                                                              const T* __restrict__ a, const T* __restrict__ b,
                                                              FieldLayout L, T w, int chunk, PassSources s) {
  const int tx = blockDim.x, ty = blockDim.y;
  const int ex = tx + 2, ey = ty + 2;
  T* ring = shared_tile<T>();  // 3 planes of ex * ey
  const int i0 = blockIdx.x * tx, j0 = blockIdx.y * ty;
  const int k0 = blockIdx.z * chunk, k1 = min(k0 + chunk, L.nz);
  const int tid = threadIdx.x + tx * threadIdx.y;
  const int nthreads = tx * ty;
  for (int k = k0 - 1; k <= k1; ++k) {
    // u^{n+1} on the grown tile at plane k (0 outside the interior: the fixed halo).
    T* slot = ring + ((k - k0 + 1) % 3) * (ex * ey);
    for (int e = tid; e < ex * ey; e += nthreads) {
      const int i = i0 + e % ex - 1, j = j0 + e / ex - 1;
      T v = T(0);
      if (i >= 0 && i < L.nx && j >= 0 && j < L.ny && k >= 0 && k < L.nz) {
        const int64_t q = L.index(i, j, k);
        v = ex::seven_point_update(__ldg(a + q), __ldg(b + q), __ldg(a + q - 1), __ldg(a + q + 1),
                                   __ldg(a + q - L.pitch), __ldg(a + q + L.pitch), __ldg(a + q - L.plane),
                                   __ldg(a + q + L.plane), w);
        if constexpr (SRC) v = add_sources(v, q, s, s.step);
      }
      slot[e] = v;
    }
    __syncthreads();
    const int kk = k - 1;  // u^{n+2} on the tile at plane kk
    if (kk >= k0) {
      const int i = i0 + (int)threadIdx.x, j = j0 + (int)threadIdx.y;
      if (i < L.nx && j < L.ny) {
        const T* lo = ring + ((kk - 1 - k0 + 1 + 3) % 3) * (ex * ey);
        const T* mid = ring + ((kk - k0 + 1) % 3) * (ex * ey);
        const T* hi = ring + ((kk + 1 - k0 + 1) % 3) * (ex * ey);
        const int e = (threadIdx.x + 1) + ex * (threadIdx.y + 1);
        const int64_t q = L.index(i, j, kk);
        const T u1 = mid[e];
        T u2 = ex::seven_point_update(u1, __ldg(a + q), mid[e - 1], mid[e + 1], mid[e - ex], mid[e + ex], lo[e],
                                      hi[e], w);
        if constexpr (SRC) u2 = add_sources(u2, q, s, s.step + 1);
        d_out[q] = u1;
        c_out[q] = u2;
      }
    }
    __syncthreads();
  }
}

// One plain 7-point step (the steps that do not fill a pair of passes, and the
// registry's per-step launch).
template <class T>
__global__ void single_step_kernel(T* un, const T* uc, FieldLayout L, T w) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= L.nx || j >= L.ny) return;
  for (int k = blockIdx.z; k < L.nz; k += gridDim.z) {
    const int64_t q = L.index(i, j, k);
    un[q] = ex::seven_point_update(uc[q], un[q], uc[q - 1], uc[q + 1], uc[q - L.pitch], uc[q + L.pitch],
                                   uc[q - L.plane], uc[q + L.plane], w);
  }
}

// Sources added to u^{n+1} and receivers recorded after a single step (one small block).
template <class T>
__global__ void single_step_io(T* un, const DeviceSource* src, int nsrc, const DeviceTap* taps, const int* tap_start,
                               int nrec, T* rec_buf, long long slot, long long step, double dt) {
  for (int q = threadIdx.x; q < nsrc; q += blockDim.x)
    atomicAdd(un + src[q].index, T(src[q].gain * source_injection(src[q], step, dt)));
  __syncthreads();
  for (int q = threadIdx.x; q < nrec; q += blockDim.x) rec_buf[slot * nrec + q] = receiver_sample(un, taps, tap_start, q);
}

// Receivers after a pass: u^{n+1} (d) into `slot`, u^{n+2} (c) into slot + 1.
template <class T>
__global__ void pass_receivers(const T* c, const T* d, const DeviceTap* taps, const int* tap_start, int nrec,
                               T* rec_buf, long long slot) {
  for (int q = threadIdx.x; q < nrec; q += blockDim.x) {
    rec_buf[slot * nrec + q] = receiver_sample(d, taps, tap_start, q);
    rec_buf[(slot + 1) * nrec + q] = receiver_sample(c, taps, tap_start, q);
  }
}

std::string block_error_2step(const Stencil&, Precision, const BlockShape& b) {
  if (b.x < 1 || b.y < 1 || b.x * b.y > 1024)
    return "block " + std::to_string(b.x) + "x" + std::to_string(b.y) +
           " is not allowed: each side >= 1, at most 1024 threads";
  return "";
}

template <class T>
void launch_single(T* un, const T* uc, const FieldLayout& L, T w, const LaunchOptions& o, cudaStream_t stream) {
  const BlockShape bl{o.block.x, o.block.y, 1};
  const dim3 grid = checked_grid((L.nx + bl.x - 1) / bl.x, (L.ny + bl.y - 1) / bl.y, std::min(L.nz, 64), "temporal_2step");
  single_step_kernel<T><<<grid, dim3(bl.x, bl.y), 0, stream>>>(un, uc, L, w);
  CUDA_CHECK_LAUNCH();
}

template <class T>
void launch_multi(const MultiStepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  if (a.steps <= 0) return;
  const std::string why = block_error_2step(*a.stencil, precision_of<T>(), o.block);
  if (!why.empty()) throw std::invalid_argument("kernel 'temporal_2step': " + why);
  const T w = seven_point_coeffs(StepArgs<T>{a.prev, a.cur, a.layout, a.stencil, a.lambda2}).neighbour;
  const FieldLayout& L = a.layout;
  const TiledStepData<T>* io = a.io;
  if (io && (io->bnd_count > 0 || io->solid_count > 0))
    throw std::invalid_argument("kernel 'temporal_2step' runs fixed walls only; the solver steps other walls singly");
  if (a.steps >= 4 && !a.scratch) throw std::invalid_argument("kernel 'temporal_2step' needs two scratch fields");

  const int bx = o.block.x, by = o.block.y;
  const size_t smem = 3 * (size_t)(bx + 2) * (by + 2) * sizeof(T);
  const long long xy = (long long)((L.nx + bx - 1) / bx) * ((L.ny + by - 1) / by);
  const bool src = io && io->nsrc > 0;
  const void* kfn = src ? (const void*)temporal_2step_kernel<T, true> : (const void*)temporal_2step_kernel<T, false>;
  allow_dynamic_smem(kfn, smem, "temporal_2step");
  const int resident = resident_blocks_per_sm(kfn, bx * by, smem) * device_sm_count();
  const int chunks = z_chunks_for(xy, resident, L.nz, kTargetWaves, kMinChunkPlanes);
  const int chunk = (L.nz + chunks - 1) / chunks;
  const dim3 grid = checked_grid((L.nx + bx - 1) / bx, (L.ny + by - 1) / by, (L.nz + chunk - 1) / chunk, "temporal_2step");

  T* f[4] = {a.cur, a.prev, a.scratch, a.scratch ? a.scratch + L.total : nullptr};  // u^n, u^{n-1}, C, D
  long long step = io ? io->step0 : 0, slot = io ? io->slot0 : 0;
  const int pairs = a.steps / 4;
  for (int p = 0; p < 2 * pairs; ++p) {
    T* in_cur = p % 2 == 0 ? f[0] : f[2];
    T* in_prev = p % 2 == 0 ? f[1] : f[3];
    T* out_cur = p % 2 == 0 ? f[2] : f[0];
    T* out_prev = p % 2 == 0 ? f[3] : f[1];
    PassSources s;
    if (src) s = PassSources{io->src, io->nsrc, step, io->dt};
    if (src)
      temporal_2step_kernel<T, true><<<grid, dim3(bx, by), smem, stream>>>(out_cur, out_prev, in_cur, in_prev, L, w, chunk, s);
    else
      temporal_2step_kernel<T, false><<<grid, dim3(bx, by), smem, stream>>>(out_cur, out_prev, in_cur, in_prev, L, w, chunk, s);
    CUDA_CHECK_LAUNCH();
    if (io && io->nrec > 0) {
      pass_receivers<T><<<1, 128, 0, stream>>>(out_cur, out_prev, io->taps, io->tap_start, io->nrec, io->rec_buf, slot);
      CUDA_CHECK_LAUNCH();
    }
    step += 2;
    slot += 2;
  }
  // The rest as single steps on the solver's fields (u^{n+4 pairs} is back in cur).
  T* c = a.cur;
  T* n = a.prev;
  for (int r = 0; r < a.steps % 4; ++r) {
    launch_single<T>(n, c, L, w, o, stream);
    if (io && (io->nsrc > 0 || io->nrec > 0)) {
      single_step_io<T><<<1, 128, 0, stream>>>(n, io->src, io->nsrc, io->taps, io->tap_start, io->nrec, io->rec_buf,
                                               slot, step, io->dt);
      CUDA_CHECK_LAUNCH();
    }
    std::swap(c, n);
    ++step;
    ++slot;
  }
}

template <class T>
void launch_one(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  const T w = seven_point_coeffs(a).neighbour;
  const std::string why = block_error_2step(*a.stencil, precision_of<T>(), o.block);
  if (!why.empty()) throw std::invalid_argument("kernel 'temporal_2step': " + why);
  launch_single<T>(a.u_next, a.u_cur, a.layout, w, o, stream);
}

}  // namespace

void register_temporal_2step_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "temporal_2step";
  v.name = "temporal blocking, two steps per pass over DRAM";
  v.family = "ours";
  v.stencils = "7pt";
  v.supports = supports_seven_point;
  v.default_block = {32, 16, 1};
  v.block_error = block_error_2step;
  v.block_uses_z = false;
  v.has_readonly_toggle = false;
  v.graph_capturable = true;  // its single steps (with walls) replay in the step graph
  v.launch_float = launch_one<float>;
  v.launch_double = launch_one<double>;
  v.multi_float = launch_multi<float>;
  v.multi_double = launch_multi<double>;
  v.multi_scratch_fields = 2;
  v.multi_walls = false;
  v.auto_candidate = false;  // not yet run on a GPU (docs/gpu-runs.md)
  r.add(v);
}

}  // namespace ws
