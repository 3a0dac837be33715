// Axis-split leggy update with pencil tiles in shared memory, after "Finite
// Difference Methods in CUDA Fortran, Part 2": the x legs from sPencils tiles
// (a few rows, each a long x segment: already coalesced), the y and z legs from
// lPencils tiles (32 x-columns wide so every global load is a full 128-byte
// line, long along y or z, each thread computing several points of the pencil).
//
// Three passes, one per axis, accumulate into u_next:
//   x pass: u_next  = (2u^n - u_next) + sum_m w_m ([u(x-m) + u(x+m)] - 2u^n)   (u_next held u^{n-1})
//   y pass: u_next += sum_m w_m ([u(y-m) + u(y+m)] - 2u^n)
//   z pass: u_next += sum_m w_m ([u(z-m) + u(z+m)] - 2u^n)
// (the centre weight -6 sum_m w_m split over the three axes; every leg is
// exactly 0 for a constant field, so each pass leaves a constant unchanged:
// exact_update.cuh).
// This keeps the two-grid in-place scheme correct: every pass reads only u^n
// (never written during the step) for its legs, and each interior point of
// u_next is read-modified-written by exactly one thread per pass, the passes
// being ordered on the stream; u^{n-1} is consumed exactly once, in the first.
// The price is traffic: u_next is read and written three times and u^n read
// three times, ~9 words per point instead of 3, so this family is bounded near
// a third of the copy roofline. It is here as the article's design, for
// comparison with the one-pass register queue, not as the fastest leggy kernel.
#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/bigstencil_launch.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/leggy_common.hpp"
#include "cuda/kernels/load.cuh"

namespace ws {

namespace {

constexpr int kPencilPoints = 8;  // points per thread along a long pencil (the article's 8-fold ILP)
constexpr int kMaxThreads = 1024;

// One leg pair of the pass, exactly 0 for a constant: two differences to the centre
// for leggy:1, which runs next to non-fixed walls; (a + b) - 2u, one subtraction,
// for M >= 2 (exact_update.cuh).
template <int M, class T>
__device__ __forceinline__ T leg_pair(T a, T b, T u) {
  if constexpr (M == 1) return ex::pair_diff(a, b, u);
  else return ex::pair_minus(a, b, u);
}

// x pass, sPencils tile: blockDim.y rows of a (blockDim.x + 2M)-long x segment.
template <class T, int M>
__global__ void __launch_bounds__(kMaxThreads) pencil_x(T* __restrict__ un, const T* __restrict__ uc, FieldLayout L,
                                                         LeggyCoeffs<T> c) {
  T* s = big::dyn_smem<T>();
  const int bx = blockDim.x, tx = threadIdx.x, ty = threadIdx.y, tw = bx + 2 * M;
  const int i0 = blockIdx.x * bx, j = blockIdx.y * blockDim.y + ty, k = blockIdx.z;
  const int jc = min(j, L.ny - 1);  // overhanging rows load a valid row and never write
  const T* row = uc + L.index(0, jc, k);
  T* srow = s + ty * tw;
  for (int t = tx; t < tw; t += bx) {
    const int x = i0 - M + t;  // >= -M
    if (x < L.nx + M) srow[t] = __ldg(row + x);
  }
  __syncthreads();
  const int i = i0 + tx;
  if (i >= L.nx || j >= L.ny) return;
  const int q = tx + M;
  T* o = un + L.index(i, j, k);
  const T u = srow[q];
  T acc = ex::leapfrog(u, *o);
#pragma unroll
  for (int m = 1; m <= M; ++m) acc = fma(c.w[m], leg_pair<M>(srow[q - m], srow[q + m], u), acc);
  *o = acc;
}

// y or z pass, lPencils tile: blockDim.x x-columns by a pencil of
// blockDim.y * kPencilPoints points along the axis whose stride is `stride`
// (pitch for y, plane for z), plus M halo points at each end. `n_axis` is the
// pencil axis' interior length; blockIdx.z indexes the third axis (z for the y
// pass, y for the z pass) through `third_stride`.
template <class T, int M>
__global__ void __launch_bounds__(kMaxThreads) pencil_long(T* __restrict__ un, const T* __restrict__ uc,
                                                            FieldLayout L, LeggyCoeffs<T> c, int64_t stride,
                                                            int n_axis, int64_t third_stride) {
  T* s = big::dyn_smem<T>();
  const int bx = blockDim.x, by = blockDim.y, tx = threadIdx.x, ty = threadIdx.y;
  const int len = by * kPencilPoints;
  const int i = blockIdx.x * bx + tx;
  const int a0 = blockIdx.y * len;  // first pencil point along the axis
  const int ic = min(i, L.nx - 1);
  // Interior origin (0,0,0) plus the x column and the third-axis offset.
  const int64_t origin = L.index(0, 0, 0) + ic + (int64_t)blockIdx.z * third_stride;
  const T* src = uc + origin + (int64_t)(a0 - M + ty) * stride;
  const int64_t step = (int64_t)by * stride;
  for (int r = ty; r < len + 2 * M; r += by, src += step) {
    if (a0 - M + r >= n_axis + M) break;  // past the far halo: never needed
    s[r * bx + tx] = __ldg(src);
  }
  __syncthreads();
  if (i >= L.nx) return;
  T* o = un + origin + (int64_t)(a0 + ty) * stride;
  for (int r = ty; r < len; r += by, o += step) {
    if (a0 + r >= n_axis) break;
    const T* q = s + (r + M) * bx + tx;
    T acc = T(0);
#pragma unroll
    for (int m = 1; m <= M; ++m) acc = fma(c.w[m], leg_pair<M>(q[-m * bx], q[m * bx], q[0]), acc);
    *o += acc;
  }
}

template <class T>
void launch_pencils(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  const char* name = "pencils (leggy, axis-split)";
  const LeggyCoeffs<T> c = leggy_coeffs(a, name);
  const BlockShape b{o.block.x, o.block.y, 1};
  big::check_halo_and_block(a.layout, a.stencil->radius, b, name, kMaxThreads);
  const FieldLayout& L = a.layout;
  dispatch_leggy_radius(a.stencil->radius, name, [&](auto mc) {
    constexpr int M = decltype(mc)::value;
    const dim3 block(b.x, b.y, 1);
    const int len = b.y * kPencilPoints;
    // x pass: sPencils
    const size_t smem_x = sizeof(T) * (size_t)b.y * (b.x + 2 * M);
    big::set_dynamic_smem(pencil_x<T, M>, smem_x, name);
    pencil_x<T, M><<<big::grid3(big::cdiv(L.nx, b.x), big::cdiv(L.ny, b.y), L.nz, name), block, smem_x, stream>>>(
        a.u_next, a.u_cur, L, c);
    CUDA_CHECK_LAUNCH();
    // y and z passes: lPencils
    const size_t smem_l = sizeof(T) * (size_t)(len + 2 * M) * b.x;
    big::set_dynamic_smem(pencil_long<T, M>, smem_l, name);
    pencil_long<T, M><<<big::grid3(big::cdiv(L.nx, b.x), big::cdiv(L.ny, len), L.nz, name), block, smem_l, stream>>>(
        a.u_next, a.u_cur, L, c, L.pitch, L.ny, L.plane);
    CUDA_CHECK_LAUNCH();
    pencil_long<T, M><<<big::grid3(big::cdiv(L.nx, b.x), big::cdiv(L.nz, len), L.ny, name), block, smem_l, stream>>>(
        a.u_next, a.u_cur, L, c, L.plane, L.nz, L.pitch);
    CUDA_CHECK_LAUNCH();
  });
}

// The default block: 32x8, and 32x4 for float leggy:8, where it measured 4% faster on
// the H200 (1e9 points, run 149, docs/benchmarks.md "Fifth pass").
BlockShape pencils_block_for(const Stencil& s, Precision p) {
  if (supports_leggy_1_to_8(s) && p == Precision::Float && s.radius == 8) return {32, 4, 1};
  return {32, 8, 1};
}

}  // namespace

void register_pencil_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "pencils_leggy";
  v.name = "sPencils x + lPencils y,z passes (leggy)";
  v.family = "pencils";
  v.stencils = "leggy:1..8";
  v.supports = supports_leggy_1_to_8;
  v.default_block = {32, 8, 1};  // 32 columns (coalescing) x 8 threads, 8 points each along y/z
  v.block_for = pencils_block_for;
  v.block_uses_z = false;
  v.has_readonly_toggle = false;
  v.launch_float = launch_pencils<float>;
  v.launch_double = launch_pencils<double>;
  r.add(v);
}

}  // namespace ws
