// Leggy stencils S_M (M = 1..8) by zstream_vec's scheme, generalised from the
// 7-point stencil to radius M: no shared memory, no barriers.
//
// Each thread owns N consecutive x points of one row (one aligned vector: float4,
// float2 or double2; see zv_elems) and marches in z:
//   z legs   a register queue of the 2M + 1 vectors u(k-M .. k+M); per plane one
//            new vector u(k+M+1) enters, loaded one plane ahead from DRAM;
//   x legs   the M points left and right of the vector: ceil(M/N) aligned vector
//            loads on each side (L1 hits: the neighbours' own vectors);
//   y legs   2M vector loads, rows j-M .. j+M (L1 hits inside the block's rows,
//            L2 hits for the M-row apron above and below);
//   u^{n-1}  one vector, loaded one plane ahead (evict-first).
// Per N outputs: 2 + 2 ceil(M/N) + 2M vector loads and one vector store, all
// coalesced. One load instruction moves N values and the cache hierarchy does
// the tiling, where the shared-memory kernels (regqueue_leggy and two cp.async
// designs tried on the H200, docs/benchmarks.md) pay a load per neighbour value,
// barriers and address arithmetic per copied cell: 53-64 instructions per output
// here at M = 4 against ~150.
//
// Measured limit (Nsight Compute, H200, M = 4, 1e9 points): DRAM at ~60% of its
// peak, issue slots ~50-60% busy, stalls dominated by the latency of the
// neighbour loads (long scoreboard) at 25-50% occupancy. Deeper prefetch (a FIFO
// of the DRAM streams, L2 prefetches, the next plane's neighbours) cost registers
// or duplicated DRAM traffic and was slower in every variant.
//
// Alignment: interior rows start on 128-byte lines (layout x0 >= 32 floats or
// 16 doubles >= the widest x apron of ceil(M/N) N) and pitch and plane are
// multiples of 32 elements, so every vector is aligned. The last vector of a row
// may pass nx; its loads stay inside the padded row and only the lanes below nx
// are stored. Lanes loaded beyond x +- M (row padding, possibly NaN) never enter
// the arithmetic.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/bigstencil_launch.hpp"
#include "cuda/kernels/leggy_common.hpp"
#include "cuda/kernels/leggy_vec.cuh"

namespace ws {

namespace {

constexpr int kZvMaxThreads = 256;

template <class T, int M, int N, int MINB, int MAXT = kZvMaxThreads>
__global__ void __launch_bounds__(MAXT, MINB)
    zvec_leggy_kernel(T* __restrict__ un, const T* __restrict__ uc, FieldLayout L, LeggyCoeffs<T> c, int chunk) {
  constexpr int XV = (M + N - 1) / N;  // vectors of x apron on each side
  constexpr int D = 2 * M + 1;
  using P = lv::Pack<T, N>;
  const int i = (blockIdx.x * blockDim.x + threadIdx.x) * N;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= L.nx || j >= L.ny) return;  // no barriers: idle threads leave
  const bool full = i + N <= L.nx;
  const int k0 = blockIdx.z * chunk;
  const int k1 = min(L.nz, k0 + chunk);
  const int pitch = (int)L.pitch;
  const int64_t plane = L.plane;
  const T* cp = uc + L.index(i, j, k0);  // u^n at (i, j, k)
  T* op = un + L.index(i, j, k0);        // u^{n-1} in, u^{n+1} out

  P q[D];  // q[d] = u^n at plane k - M + d
#pragma unroll
  for (int d = 0; d < D; ++d) q[d] = lv::ldg<T, N>(cp + (int64_t)(d - M) * plane);
  P prev = lv::ldcs<T, N>(op);
  // Double leggy:1: two planes per iteration let the loads of the next plane issue
  // under the arithmetic of this one (80 registers, within the 128 of the launch
  // bound); ptxas does not unroll the differences-first body on its own.
#pragma unroll(M == 1 && sizeof(T) == 8 ? 2 : 1)
  for (int k = k0; k < k1; ++k) {
    const bool more = k + 1 < k1;
    P ahead, prev_next;
    if (more) {  // plane k + M + 1 <= k1 + M <= nz - 1 + M: inside the halo
      ahead = lv::ldg<T, N>(cp + (int64_t)(M + 1) * plane);
      prev_next = lv::ldcs<T, N>(op + plane);
    }
    P xl[XV], xr[XV];  // xl[v]: x = i - (XV - v) N ..; xr[v]: x = i + (v + 1) N ..
#pragma unroll
    for (int v = 0; v < XV; ++v) {
      xl[v] = lv::ldg<T, N>(cp - (XV - v) * N);
      // A right vector starting at or past nx + M feeds no output (and might pass the
      // end of the row, and of the array on its last row): not loaded. One starting
      // before nx + M ends inside the padded row (aligned, pitch a multiple of N).
      if (i + (v + 1) * N < L.nx + M) xr[v] = lv::ldg<T, N>(cp + (v + 1) * N);
      else
#pragma unroll
        for (int l = 0; l < N; ++l) xr[v].v[l] = T(0);
    }
    T acc[N];
    lv::leggy_update<T, N, M, XV>(
        acc, c, xl, xr, prev,
        [&](int m) { return lv::LegPair<T, N>{lv::ldg<T, N>(cp - m * pitch), lv::ldg<T, N>(cp + m * pitch)}; },
        [&](int d) -> const P& { return q[d]; });
    lv::store<T, N>(op, acc, i, L.nx, full);
#pragma unroll
    for (int d = 0; d < D - 1; ++d) q[d] = q[d + 1];
    if (more) {
      q[D - 1] = ahead;
      prev = prev_next;
    }
    cp += plane;
    op += plane;
  }
}

// Elements per thread, by precision and radius, from the H200 sweep (float, 1e9
// points, docs/benchmarks.md): 16-byte vectors (N = 4) win for M <= 2, where the
// registers allow two 256-thread blocks per SM anyway; from M = 3 on, the queue of
// 2M + 1 float4 values crowds the register file, and 8-byte vectors (N = 2, twice
// the threads per point) were faster: M = 4 66% against 64%, M = 6 45% against
// 44%, M = 8 40% against 29% of the roofline. Double always moves 16-byte double2.
template <class T>
constexpr int zv_elems(int M) {
  return sizeof(T) == 8 ? 2 : (M <= 2 ? 4 : 2);
}

template <class T>
void launch_zvec_leggy(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  const char* name = "zvec_leggy (z streaming, vector loads, leggy)";
  const LeggyCoeffs<T> c = leggy_coeffs(a, name);
  const BlockShape b{o.block.x, o.block.y, 1};
  big::check_halo_and_block(a.layout, a.stencil->radius, b, name, kZvMaxThreads);
  const FieldLayout& L = a.layout;
  dispatch_leggy_radius(a.stencil->radius, name, [&](auto mc) {
    constexpr int M = decltype(mc)::value;
    constexpr int N = zv_elems<T>(M);
    // The left x apron reads whole vectors before i = 0: they must lie in the row's
    // leading padding (x0 elements, 128 bytes or more by the layout's alignment).
    if (L.x0 < N * ((M + N - 1) / N))
      throw std::invalid_argument(std::string(name) + ": layout x0 = " + std::to_string(L.x0) +
                                  " leaves no room for the x apron of M = " + std::to_string(M));
    const long long gx = big::cdiv(big::cdiv(L.nx, N), b.x), gy = big::cdiv(L.ny, b.y);
    const int planes = big::z_chunk_planes(L.nz, gx * gy, std::max(16, 4 * M));
    const dim3 grid = big::grid3(gx, gy, big::cdiv(L.nz, planes), name);
    // Two 256-thread blocks per SM: at most 128 registers per thread (the M = 8
    // queue needs them; a third block's 85 spilled and ran slower at every M >= 3).
    // Double from M = 5 on runs one block per SM with the registers it wants (up to
    // 222; at 128 the exact update's extra subtraction per leg spills at M = 8):
    // M = 5..8 measured +3%, +7%, +12%, +28% over two blocks (H100, 1e9 points,
    // docs/benchmarks.md); float at one block lost 27% at M = 8.
    // Double M = 6 in blocks of at most 128 threads: three blocks per SM at 168 registers
    // (12 warps against the 8 of one 256-thread block at 176): +6% on the H200 and +8% on
    // the H100 over the old build at 16x8, where the 256-thread form at 16x16 was 3% below
    // it on the H200 (runs 160-161).
    constexpr int minb = sizeof(T) == 8 && M >= 5 ? 1 : 2;
    if constexpr (sizeof(T) == 8 && M == 6) {
      if (b.threads() <= 128) {
        zvec_leggy_kernel<T, M, N, 3, 128><<<grid, dim3(b.x, b.y, 1), 0, stream>>>(a.u_next, a.u_cur, L, c, planes);
        return;
      }
    }
    zvec_leggy_kernel<T, M, N, minb><<<grid, dim3(b.x, b.y, 1), 0, stream>>>(a.u_next, a.u_cur, L, c, planes);
  });
  CUDA_CHECK_LAUNCH();
}

// The default block (x in vectors) per precision and radius: 32x8, and narrower blocks
// where they measured faster on the H200 (1e9 points, runs 149 and 160, docs/benchmarks.md
// "Fifth pass"): double leggy:5 16x8 (+19% over 32x8), double leggy:6 16x8 (the
// 128-thread form, above), float leggy:7-8 16x16 (+3-5%).
BlockShape zvec_leggy_block_for(const Stencil& s, Precision p) {
  if (!supports_leggy_1_to_8(s)) return {32, 8, 1};
  const int M = s.radius;
  if (p == Precision::Double && (M == 5 || M == 6)) return {16, 8, 1};
  if (p == Precision::Float && M >= 7) return {16, 16, 1};
  return {32, 8, 1};
}

}  // namespace

void register_zvec_leggy_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "zvec_leggy";
  v.name = "z streaming, vector loads, L1/L2 in-plane legs (leggy)";
  v.family = "zstream";
  v.stencils = "leggy:1..8";
  v.supports = supports_leggy_1_to_8;
  v.default_block = {32, 8, 1};
  v.block_for = zvec_leggy_block_for;
  v.block_uses_z = false;
  v.has_readonly_toggle = false;
  v.launch_float = launch_zvec_leggy<float>;
  v.launch_double = launch_zvec_leggy<double>;
  r.add(v);
}

}  // namespace ws
