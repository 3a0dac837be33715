// Leggy stencils S_M (M = 1..8): z streaming through a ring of xy tiles in
// shared memory, filled by cp.async, with vector outputs per thread.
//
// zvec_leggy reads the in-plane neighbours through L1/L2 and keeps only one
// plane of each DRAM stream in flight per thread, so its speed is set by load
// latency at the occupancy its registers allow. Here the block's planes arrive in
// shared memory by cp.async (global -> shared, no registers), P planes ahead of
// use, so the bytes in flight no longer depend on registers, and every neighbour
// read is a shared-memory vector load with a fixed offset:
//
//   * Ring of S = M + 1 + P input tiles: plane p of u^n as the block's
//     (bx N) x by patch plus an M-row apron above and below and an A-column apron
//     left and right (A = M rounded up to the 16-byte vector; corners not loaded,
//     a leggy stencil has none). u^{n-1} of output plane k rides in the same
//     cp.async group as input plane k + M, in a ring of P + 1 patches.
//   * Each thread owns N consecutive x points of one row and a register queue of
//     the 2M + 1 vectors u(k-M .. k+M) of its column, fed from the ring when plane
//     k + M lands (the ring still holds plane k for the x and y legs).
//   * x legs: ceil(M/N) vectors left and right; y legs: 2M vectors; all aligned
//     shared-memory vector loads. One __syncthreads per plane.
//   * The copy addresses repeat every plane, so each thread's share of the copies
//     (at most kJobsIn + kJobsPv 16-byte chunks) is computed once; blocks with more
//     chunks per thread fall back to a loop over the tile.
//
// Measured on the H200 (float, 1e9 points): 75.7% of the copy roofline at M = 4,
// 48.8% at M = 8 (zvec_leggy 66% / 40%, regqueue_leggy 44% / 33%). What limits it,
// and what was tried: docs/benchmarks.md, "Leggy stencils, second round". Its
// successor ztma_leggy.cu (TMA copies, block width compiled in) is the default
// now; this kernel stays registered because it takes any block.

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/bigstencil_launch.hpp"
#include "cuda/kernels/leggy_common.hpp"
#include "cuda/kernels/leggy_vec.cuh"

namespace ws {

namespace {

constexpr int kAhead = 2;  // P: planes in flight beyond the newest one consumed (4 was slower: more L2 misses)
constexpr int kZtMaxThreads = 256;
constexpr int kJobsIn = 3;  // precomputed 16-byte copies of u^n per thread and plane
constexpr int kJobsPv = 2;  // and of u^{n-1}

// cp.async of one 16-byte chunk (L2 only, bypassing L1), by shared-space address
// and a global pointer; commit and wait by group, as in <cuda_pipeline.h> but
// without its per-copy padding instructions.
__device__ __forceinline__ void cp16(uint32_t smem, const void* gmem) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(smem), "l"(gmem) : "memory");
}
__device__ __forceinline__ void cp_commit() { asm volatile("cp.async.commit_group;\n" ::: "memory"); }
template <int K>
__device__ __forceinline__ void cp_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(K) : "memory");
}

template <class T>
struct ZtGeom {
  static constexpr int V = 16 / (int)sizeof(T);  // elements per 16-byte chunk
  int A, tw, th, ts, ps;                          // x apron, tile width/height/size, u^{n-1} patch size
  __host__ __device__ ZtGeom(int M, int bxe, int by) {
    A = (M + V - 1) / V * V;
    tw = bxe + 2 * A;
    th = by + 2 * M;
    ts = tw * th;
    ps = bxe * by;
  }
};

template <class T, int M, int N>
size_t zt_smem_bytes(int bx, int by) {
  const ZtGeom<T> g(M, bx * N, by);
  return sizeof(T) * ((size_t)(M + 1 + kAhead) * g.ts + (size_t)(kAhead + 1) * g.ps);
}

template <class T, int M, int N>
__global__ void __launch_bounds__(kZtMaxThreads, sizeof(T) == 4 ? 2 : 1)
    ztile_leggy_kernel(T* __restrict__ un, const T* __restrict__ uc, FieldLayout L, LeggyCoeffs<T> c, int z_planes) {
  constexpr int S = M + 1 + kAhead, PR = kAhead + 1, D = 2 * M + 1;
  constexpr int V = ZtGeom<T>::V;
  constexpr int XV = (M + N - 1) / N;
  using P = lv::Pack<T, N>;
  const int bx = blockDim.x, by = blockDim.y, tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * bx + tx, nthreads = bx * by;
  const int bxe = bx * N;  // outputs of a block row
  const ZtGeom<T> g(M, bxe, by);
  const int A = g.A, tw = g.tw, ts = g.ts, ps = g.ps;
  T* ring = big::dyn_smem<T>();
  T* prv = ring + S * ts;
  const int i0 = blockIdx.x * bxe, j0 = blockIdx.y * by;
  const int k0 = blockIdx.z * z_planes;
  const int k1 = min(k0 + z_planes, L.nz);
  const int pitch = (int)L.pitch;
  const int64_t plane = L.plane;
  const T* in0 = uc + L.index(i0 - A, j0 - M, 0);  // tile (0,0) of plane 0; plane p at + p * plane
  const T* pv0 = un + L.index(i0, j0, 0);          // u^{n-1} patch (0,0) of plane 0
  const int pbeg = k0 - M, pend = k1 + M;          // input planes of this z chunk

  // The copy rectangles, clipped to interior + halo (x < nx + M, y < ny + M) for
  // u^n and to the interior for u^{n-1}: cells beyond are read only by threads that
  // store nothing. Chunk counts per row; a last partial chunk stays inside the
  // padded row (aligned, pitch a multiple of 32 elements).
  const int band_rows = min(by, L.ny + M - j0);
  const int band_chunks = (min(tw, L.nx + M + A - i0) + V - 1) / V;
  const int cap_chunks = (min(bxe, L.nx + M - i0) + V - 1) / V;
  const int bottom_rows = min(M, L.ny + M - (j0 + by));
  const int prev_rows = min(by, L.ny - j0);
  const int prev_chunks = (min(bxe, L.nx - i0) + V - 1) / V;
  const int wb = tw / V, wc = bxe / V;  // chunks per full row of the tile / of the patch
  const int n_band = by * wb, n_cap = M * wc, n_prev = by * wc;
  const int n_all = n_band + 2 * n_cap + n_prev;

  // Job e of a plane -> (smem offset within the stage, global offset from the
  // stage's origin, kind: 0 none, 1 u^n, 2 u^{n-1}).
  auto job = [&](int e, int& so, int& go, int& kind) {
    kind = 0;
    int r, ch;
    if (e < n_band) {
      r = e / wb, ch = e - r * wb;
      if (r < band_rows && ch < band_chunks) kind = 1, so = (M + r) * tw + ch * V, go = (M + r) * pitch + ch * V;
    } else if (e < n_band + n_cap) {
      e -= n_band;
      r = e / wc, ch = e - r * wc;
      if (ch < cap_chunks) kind = 1, so = r * tw + A + ch * V, go = r * pitch + A + ch * V;
    } else if (e < n_band + 2 * n_cap) {
      e -= n_band + n_cap;
      r = e / wc, ch = e - r * wc;
      if (r < bottom_rows && ch < cap_chunks)
        kind = 1, so = (M + by + r) * tw + A + ch * V, go = (M + by + r) * pitch + A + ch * V;
    } else if (e < n_all) {
      e -= n_band + 2 * n_cap;
      r = e / wc, ch = e - r * wc;
      if (r < prev_rows && ch < prev_chunks) kind = 2, so = r * bxe + ch * V, go = r * pitch + ch * V;
    }
  };
  // Jobs 0 .. n_in - 1 copy u^n, the rest u^{n-1}: each thread's share of each kind,
  // as (shared, global) offsets; an offset pair of -1 marks a chunk outside the grid.
  const int n_in = n_band + 2 * n_cap;
  const bool precomputed = n_in <= kJobsIn * nthreads && n_prev <= kJobsPv * nthreads;
  // Offsets in bytes (global ones are >= 0: the stage origins are the rectangles'
  // first cells), so an address is one 32-bit add in shared space and a 64-bit add
  // of an unsigned 32-bit value in global space.
  int iso[kJobsIn], pso[kJobsPv];
  uint32_t igo[kJobsIn], pgo[kJobsPv];
#pragma unroll
  for (int t = 0; t < kJobsIn; ++t) {
    int kind = 0, so = 0, go = 0;
    if (precomputed && tid + t * nthreads < n_in) job(tid + t * nthreads, so, go, kind);
    iso[t] = kind == 1 ? so * (int)sizeof(T) : -1;
    igo[t] = (uint32_t)go * sizeof(T);
  }
#pragma unroll
  for (int t = 0; t < kJobsPv; ++t) {
    int kind = 0, so = 0, go = 0;
    if (precomputed && tid + t * nthreads < n_prev) job(n_in + tid + t * nthreads, so, go, kind);
    pso[t] = kind == 2 ? so * (int)sizeof(T) : -1;
    pgo[t] = (uint32_t)go * sizeof(T);
  }
  const uint32_t ring_s = (uint32_t)__cvta_generic_to_shared(ring);
  const uint32_t prv_s = (uint32_t)__cvta_generic_to_shared(prv);

  // Issue state, advanced by one plane per call: the slots and source pointers of
  // input plane `ip` (and of the u^{n-1} patch of output plane ip - M), kept as
  // counters so the loop does no divisions and no 64-bit multiplies.
  int ip = pbeg, is_in = 0, is_pv = (((pbeg - M - k0) % PR) + PR) % PR;
  const T* g_in = in0 + (int64_t)pbeg * plane;
  const T* g_pv = pv0 + (int64_t)(pbeg - M) * plane;
  auto issue = [&]() {
    if (ip < pend) {
      const uint32_t t_in = ring_s + is_in * ts * (uint32_t)sizeof(T);
      const uint32_t t_pv = prv_s + is_pv * ps * (uint32_t)sizeof(T);
      const char* gi = reinterpret_cast<const char*>(g_in);
      const char* gp = reinterpret_cast<const char*>(g_pv);
      const bool with_prev = ip - M >= k0;  // the output plane whose u^{n-1} rides with this input plane
      if (precomputed) {
#pragma unroll
        for (int t = 0; t < kJobsIn; ++t)
          if (iso[t] >= 0) cp16(t_in + iso[t], gi + igo[t]);
        if (with_prev)
#pragma unroll
          for (int t = 0; t < kJobsPv; ++t)
            if (pso[t] >= 0) cp16(t_pv + pso[t], gp + pgo[t]);
      } else {
        for (int e = tid; e < n_all; e += nthreads) {
          int so, go, kind;
          job(e, so, go, kind);
          if (kind == 1) cp16(t_in + so * (uint32_t)sizeof(T), g_in + go);
          else if (kind == 2 && with_prev) cp16(t_pv + so * (uint32_t)sizeof(T), g_pv + go);
        }
      }
    }
    cp_commit();  // always, so that group n is plane pbeg + n
    ++ip;
    if (++is_in == S) is_in = 0;
    if (++is_pv == PR) is_pv = 0;
    g_in += plane;
    g_pv += plane;
  };

#pragma unroll
  for (int s = 0; s < kAhead; ++s) issue();

  P q[D];  // the queue of this thread's N points over planes p - 2M .. p (see the loop)
#pragma unroll
  for (int d = 0; d < D; ++d)
#pragma unroll
    for (int l = 0; l < N; ++l) q[d].v[l] = T(0);

  const int i = i0 + tx * N, j = j0 + ty;
  const bool row_in = i < L.nx && j < L.ny;
  const bool full = i + N <= L.nx;
  T* out = un + L.index(row_in ? i : 0, row_in ? j : 0, 0);
  const int own = (M + ty) * tw + A + tx * N;  // this thread's first point in a tile

  int slot_p = 0;   // ring slot of plane p
  int slot_pv = 0;  // u^{n-1} slot of output plane k = p - M (k >= k0)
  T* out_k = out + (int64_t)k0 * plane;  // output plane k, advanced per output plane
  // One plane: wait for it, queue it, compute output plane p - M. At rotation u,
  // logical queue entry d (plane p - 2M + d once plane p is in) lives in register
  // q[(d + u + 1) % D], u a compile-time constant.
  auto step = [&](int p, auto uc) {
    constexpr int u = decltype(uc)::value;
    cp_wait<kAhead - 1>();  // this thread's copies of plane p have landed
    __syncthreads();                    // everyone's have; everyone is done with plane p - S
    issue();                            // plane p + P
    q[u] = lv::ld<T, N>(ring + slot_p * ts + own);  // plane p enters: logical D - 1
    const int slot_k = slot_p >= M ? slot_p - M : slot_p + S - M;
    if (++slot_p == S) slot_p = 0;
    const int k = p - M;
    if (k >= k0) {  // else: priming the queue (uniform across the block)
      auto Q = [&](int d) -> const P& { return q[(d + u + 1) % D]; };  // logical entry d
      const T* tk = ring + slot_k * ts + own;
      P xl[XV], xr[XV];  // xl[v]: x = i - (XV - v) N ..; xr[v]: x = i + (v + 1) N ..
#pragma unroll
      for (int v = 0; v < XV; ++v) {
        xl[v] = lv::ld<T, N>(tk - (XV - v) * N);
        xr[v] = lv::ld<T, N>(tk + (v + 1) * N);
      }
      const P pv = lv::ld<T, N>(prv + slot_pv * ps + ty * bxe + tx * N);
      if (++slot_pv == PR) slot_pv = 0;
      T acc[N];
      lv::leggy_update<T, N, M, XV>(
          acc, c, xl, xr, pv,
          [&](int m) { return lv::LegPair<T, N>{lv::ld<T, N>(tk - m * tw), lv::ld<T, N>(tk + m * tw)}; }, Q);
      if (row_in) lv::store<T, N>(out_k, acc, i, L.nx, full);
      out_k += plane;
    }
  };
  if constexpr (M <= 4) {
    // The queue never shifts: the plane loop is unrolled D = 2M + 1 times and the
    // rotation follows the unrolled step (shifting cost (2M + 1) N moves per plane,
    // about a tenth of the instructions). Beyond M = 4 the unrolled loop outgrows
    // the instruction cache (measured: M = 8 fell from 47% to 41%), so it shifts.
#pragma unroll 1
    for (int pb = pbeg; pb < pend; pb += D)
      lv::unroll(std::make_integer_sequence<int, D>{}, [&](auto uc) {
        constexpr int u = decltype(uc)::value;
        if (u == 0 || pb + u < pend) step(pb + u, uc);
      });
  } else {
#pragma unroll 1
    for (int p = pbeg; p < pend; ++p) {
#pragma unroll
      for (int d = 0; d < D - 1; ++d) q[d] = q[d + 1];
      step(p, std::integral_constant<int, D - 1>{});  // logical d = register d
    }
  }
  cp_wait<0>();  // no copy may still target shared memory when the block exits
}

// Points per thread: float4 up to M = 4, float2 beyond (the queue of 2M + 1
// vectors must leave room for two blocks per SM); double2 always.
template <class T>
constexpr int zt_elems(int M) {
  return sizeof(T) == 8 ? 2 : (M <= 4 ? 4 : 2);
}

template <class T>
void launch_ztile_leggy(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  const char* name = "ztile_leggy (cp.async plane ring, vector tiles, leggy)";
  const LeggyCoeffs<T> c = leggy_coeffs(a, name);
  const BlockShape b{o.block.x, o.block.y, 1};
  big::check_halo_and_block(a.layout, a.stencil->radius, b, name, kZtMaxThreads);
  const FieldLayout& L = a.layout;
  dispatch_leggy_radius(a.stencil->radius, name, [&](auto mc) {
    constexpr int M = decltype(mc)::value;
    constexpr int N = zt_elems<T>(M);
    const ZtGeom<T> g(M, b.x * N, b.y);
    // The left apron starts A elements before the interior: inside the row's leading
    // padding (x0 >= 128 bytes >= A elements), 16-byte aligned like every chunk.
    if (L.x0 < g.A || (b.x * N) % ZtGeom<T>::V != 0)
      throw std::invalid_argument(std::string(name) + ": layout x0 = " + std::to_string(L.x0) + " or block width " +
                                  std::to_string(b.x) + " does not fit 16-byte copies for M = " + std::to_string(M));
    const long long gx = big::cdiv(L.nx, (long long)b.x * N), gy = big::cdiv(L.ny, b.y);
    const int planes = big::z_chunk_planes(L.nz, gx * gy, std::max(16, 4 * M));
    const dim3 grid = big::grid3(gx, gy, big::cdiv(L.nz, planes), name);
    const size_t smem = zt_smem_bytes<T, M, N>(b.x, b.y);
    big::set_dynamic_smem(ztile_leggy_kernel<T, M, N>, smem, name);
    ztile_leggy_kernel<T, M, N><<<grid, dim3(b.x, b.y, 1), smem, stream>>>(a.u_next, a.u_cur, L, c, planes);
  });
  CUDA_CHECK_LAUNCH();
}

// The default block (x in vectors) per precision and radius: 16x16, and where another
// measured faster on the H200 and no slower than 2% below the folded-centre form on the
// H100 (1e9 points, runs 149-157, docs/benchmarks.md "Fifth pass"): float leggy:5 32x4
// (+10% on the H200), float leggy:7-8 16x8 (+5%), double leggy:6-7 8x16 (+7-23%; +1-5%
// on the H100).
BlockShape ztile_leggy_block_for(const Stencil& s, Precision p) {
  if (!supports_leggy_1_to_8(s)) return {16, 16, 1};
  const int M = s.radius;
  if (p == Precision::Float && M == 5) return {32, 4, 1};
  if (p == Precision::Float && M >= 7) return {16, 8, 1};
  if (p == Precision::Double && (M == 6 || M == 7)) return {8, 16, 1};
  return {16, 16, 1};
}

}  // namespace

void register_ztile_leggy_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "ztile_leggy";
  v.name = "z streaming, cp.async plane ring, vector tiles (leggy)";
  v.family = "zstream";
  v.stencils = "leggy:1..8";
  v.supports = supports_leggy_1_to_8;
  v.default_block = {16, 16, 1};
  v.block_for = ztile_leggy_block_for;
  v.block_uses_z = false;
  v.has_readonly_toggle = false;
  v.launch_float = launch_ztile_leggy<float>;
  v.launch_double = launch_ztile_leggy<double>;
  r.add(v);
}

}  // namespace ws
