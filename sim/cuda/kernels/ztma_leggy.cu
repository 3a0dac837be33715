// Leggy stencils S_M (M = 1..8): z streaming through a ring of xy tiles that
// Hopper's tensor memory accelerator (TMA) fills, one box per plane.
//
// The scheme is ztile_leggy's (ztile_leggy.cu): a ring of S = M + 1 + P planes of
// the block's tile in shared memory, each thread owning N consecutive x points of
// one row, a register queue of the 2M + 1 planes u(k-M .. k+M) of its column, x
// and y legs read from the ring as vector loads. What changes is who copies:
//
//   * One thread issues the whole tile of plane p + P (a (BX N + 2A) x (BY + 2M)
//     box, corners included) and the u^{n-1} patch of output plane p + P - M with
//     two cp.async.bulk.tensor instructions; the bytes complete on the slot's
//     mbarrier, on which every thread waits by phase. cp.async made every thread
//     compute and issue its share of 16-byte chunks (about a fifth of the
//     instructions at M = 8, with padding the compiler inserts after each).
//   * The block width BX is a compile-time constant, so every neighbour offset
//     (m rows of TW elements) is an immediate of the shared-memory load: no
//     address arithmetic per leg. The block height BY stays a launch parameter.
//   * Freed registers buy occupancy: 3 blocks of 256 threads per SM at M <= 3,
//     and at M >= 4 four points per thread (float4) in 2 blocks, which halves the
//     shared-memory loads per point: at M = 8 those loads (y legs: 2M vectors per
//     row of outputs) are the next limit, ~100 bytes of shared-memory traffic per
//     point with float2.
//   * Columns of at most 256 planes (longer ones are cut in z-chunks, 2M planes
//     re-read per cut): blocks that run side by side start closer together, so a
//     plane's halo rows are still in L2 when the neighbouring block reads them.
//     Full chunks come first and the last is short (z_chunk_plan.hpp).
//   * The tensor maps span the interior only: the apron, halo rows and halo
//     planes of a box lie outside and the TMA fills them with zeros, the value
//     of the (Dirichlet) halo, without reading DRAM. And the tile rows are
//     balanced (31 or 32 rows per block when ny = 993, not 31 full tile rows
//     and one of a single row). Together: DRAM reads 8.88 -> 8.55 GB per
//     leggy:4 step at 1e9 points, +1 point of the roofline.
//
// One __syncthreads per plane keeps the ring safe: the slot refilled at plane p
// held plane p - M - 1, last read (as x/y legs) in the step before the barrier.
//
// Measured (H200, float, 1184 x 993 x 850, docs/benchmarks.md "Leggy stencils,
// third round" and "fourth round"): see the tables there; the block widths and occupancies below
// are the sweep's best.
#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/bigstencil_launch.hpp"
#include "cuda/kernels/leggy_common.hpp"
#include "cuda/kernels/leggy_vec.cuh"
#include "cuda/kernels/z_chunk_plan.hpp"
#include "cuda/tma.hpp"

namespace ws {

namespace {

constexpr int kTmAhead = 2;          // P: planes in flight beyond the one consumed (3 was slower: fewer blocks fit)
constexpr int kTmMaxThreads = 256;   // launch bound of every instantiation
constexpr int kTmMaxChunkPlanes = 256;

// Per precision and radius: points per thread N (one 16-byte vector), the fixed
// block width BX, the default block height, blocks per SM asked of the register
// allocator, and how the z queue avoids register moves (0: the plane loop is
// unrolled 2M + 1 times and the queue rotates; U > 0: it shifts once every U planes,
// which keeps the unrolled loop inside the instruction cache for M >= 5).
template <class T, int M>
struct TmConfig {
  static constexpr bool is_float = sizeof(T) == 4;
  static constexpr int N = is_float ? 4 : 2;
  static constexpr int BX = is_float ? (M <= 3 ? 16 : 8) : 16;
  static constexpr int BY = is_float ? (M <= 3 ? 16 : 32) : (M <= 4 ? 16 : 8);
  static constexpr int MINB = is_float ? (M <= 3 ? 3 : 2) : 2;
  static constexpr int U = M <= 4 ? 0 : 4;
};

// Tile geometry shared by the host (shared-memory size, box sizes) and the kernel.
template <class T, int M, int N, int BX>
struct TmGeom {
  static constexpr int BXE = BX * N;                 // outputs of a block row
  static constexpr int A = (M + N - 1) / N * N;      // x apron: M rounded up to the vector
  static constexpr int TW = BXE + 2 * A;             // tile row, a multiple of 16 bytes
  static constexpr int S = M + 1 + kTmAhead;         // ring slots
  static constexpr int PR = kTmAhead + 1;            // u^{n-1} slots
  static constexpr int kAlign = 128 / (int)sizeof(T);  // TMA destinations are 128-byte aligned
  int by, th, ts, ps;
  __host__ __device__ explicit TmGeom(int by_) : by(by_), th(by_ + 2 * M) {
    ts = (TW * th + kAlign - 1) / kAlign * kAlign;
    ps = (BXE * by + kAlign - 1) / kAlign * kAlign;
  }
  // 128 bytes of slack to align the ring, the two rings, then S mbarriers.
  __host__ __device__ size_t smem_bytes() const {
    return 128 + sizeof(T) * ((size_t)S * ts + (size_t)PR * ps) + 8 * (size_t)S;
  }
};

template <class T, int M, int N, int BX, int MINB, int U>
__global__ void __launch_bounds__(kTmMaxThreads, MINB)
    ztma_leggy_kernel(T* __restrict__ un, FieldLayout L, LeggyCoeffs<T> c, int z_planes,
                      const __grid_constant__ CUtensorMap tm_in, const __grid_constant__ CUtensorMap tm_pv) {
  using Geom = TmGeom<T, M, N, BX>;
  constexpr int S = Geom::S, PR = Geom::PR, D = 2 * M + 1, TW = Geom::TW, A = Geom::A, BXE = Geom::BXE;
  constexpr int XV = (M + N - 1) / N;           // x-leg vectors on each side
  constexpr int LQ = U == 0 ? D : D + U - 1;    // queue registers (vectors)
  using P = lv::Pack<T, N>;
  const int by = blockDim.y, tx = threadIdx.x, ty = threadIdx.y;
  const int tid = ty * BX + tx;
  const Geom g(by);
  const int ts = g.ts, ps = g.ps;

  unsigned char* raw = big::dyn_smem<unsigned char>();
  const uint32_t raw_s = (uint32_t)__cvta_generic_to_shared(raw);
  const uint32_t pad = (128u - (raw_s & 127u)) & 127u;
  T* ring = reinterpret_cast<T*>(raw + pad);
  T* prv = ring + S * ts;
  const uint32_t ring_s = raw_s + pad;
  const uint32_t prv_s = ring_s + (uint32_t)(sizeof(T) * S * ts);
  const uint32_t bar_s = prv_s + (uint32_t)(sizeof(T) * PR * ps);

  // Tile rows are balanced: block row b holds rows [b ny / gy, (b + 1) ny / gy), at most
  // by of them (gy = ceil(ny / by)), so no block row is left with a sliver (1 row of
  // 32 when ny = 993) that holds a slot for the whole column while doing nothing.
  const int i0 = blockIdx.x * BXE;
  const int j0 = (int)((int64_t)blockIdx.y * L.ny / gridDim.y);
  const int rows = (int)((int64_t)(blockIdx.y + 1) * L.ny / gridDim.y) - j0;
  const int k0 = blockIdx.z * z_planes;
  const int k1 = min(k0 + z_planes, L.nz);
  const int pbeg = k0 - M, pend = k1 + M;  // input planes of this z chunk
  const int64_t plane = L.plane;

  if (tid == 0) {
#pragma unroll
    for (int s = 0; s < S; ++s) tma::mbar_init(bar_s + 8 * s, 1);
    tma::fence_barrier_init();
  }
  __syncthreads();

  // Producer state (used by thread 0 only): input plane ip goes to ring slot is_in
  // with its mbarrier; u^{n-1} of output plane ip - M to patch slot is_pv.
  int ip = pbeg, is_in = 0, is_pv = (((pbeg - M - k0) % PR) + PR) % PR;
  // Box origins in interior coordinates: the apron and halo planes lie outside the
  // tensor map and arrive as zeros (the Dirichlet halo) without reading DRAM.
  const int x_in = i0 - A, y_in = j0 - M;
  const uint32_t tile_bytes = (uint32_t)(sizeof(T) * TW * g.th), patch_bytes = (uint32_t)(sizeof(T) * BXE * by);
  auto issue = [&]() {
    if (ip < pend) {
      const bool with_prev = ip - M >= k0;
      const uint32_t bar = bar_s + 8 * is_in;
      // Boxes count their full size, out-of-array parts (zero-filled) included.
      tma::mbar_arrive_expect_tx(bar, tile_bytes + (with_prev ? patch_bytes : 0u));
      tma::load_box_3d(ring_s + (uint32_t)(sizeof(T) * is_in * ts), &tm_in, x_in, y_in, ip, bar);
      if (with_prev)
        tma::load_box_3d(prv_s + (uint32_t)(sizeof(T) * is_pv * ps), &tm_pv, i0, j0, ip - M, bar);
    }
    ++ip;
    if (++is_in == S) is_in = 0;
    if (++is_pv == PR) is_pv = 0;
  };
  if (tid == 0) {
#pragma unroll
    for (int s = 0; s < kTmAhead; ++s) issue();
  }

  P q[LQ];
#pragma unroll
  for (int d = 0; d < LQ; ++d)
#pragma unroll
    for (int l = 0; l < N; ++l) q[d].v[l] = T(0);

  const int i = i0 + tx * N, j = j0 + ty;
  const bool row_in = i < L.nx && ty < rows;
  const bool full = i + N <= L.nx;
  T* out_k = un + L.index(row_in ? i : 0, row_in ? j : 0, k0);  // output plane k, advanced per plane
  const T* own = ring + (M + ty) * TW + A + tx * N;              // this thread's point in slot 0
  const T* own_pv = prv + ty * BXE + tx * N;
  int slot_p = 0, slot_pv = 0;
  uint32_t phases = 0;  // bit s: parity of slot s's next completion

  // One plane: wait for it, refill the ring, queue it, compute output plane p - M.
  auto step = [&](int p, auto uc) {
    constexpr int u = decltype(uc)::value;
    tma::mbar_wait_parity(bar_s + 8 * slot_p, (phases >> slot_p) & 1u);
    phases ^= 1u << slot_p;
    __syncthreads();  // everyone is past plane p - 1, so slot p + P (plane p - M - 1) is free
    if (tid == 0) {
      tma::fence_proxy_async();
      issue();
    }
    // Queue entry of plane p: rotating (U == 0) it is register u, logical entry d at
    // (d + u + 1) % D; shifting, plane p enters at D - 1 + u and d is at u + d.
    constexpr int entry = U == 0 ? u : D - 1 + u;
    q[entry] = lv::ld<T, N>(own + slot_p * ts);
    const int slot_k = slot_p >= M ? slot_p - M : slot_p + S - M;
    if (++slot_p == S) slot_p = 0;
    const int k = p - M;
    if (k < k0) return;  // priming the queue (uniform across the block)
    // Past the grid's edge or the block's balanced rows: nothing to compute.
    if (!row_in) return;
    auto Q = [&](int d) -> const P& {
      if constexpr (U == 0) return q[(d + u + 1) % D];
      else return q[u + d];
    };
    const T* tk = own + slot_k * ts;
    P xl[XV], xr[XV];  // xl[v]: x = i - (XV - v) N ..; xr[v]: x = i + (v + 1) N ..
#pragma unroll
    for (int v = 0; v < XV; ++v) {
      xl[v] = lv::ld<T, N>(tk - (XV - v) * N);
      xr[v] = lv::ld<T, N>(tk + (v + 1) * N);
    }
    const P pv = lv::ld<T, N>(own_pv + slot_pv * ps);
    if (++slot_pv == PR) slot_pv = 0;
    T acc[N];
    lv::leggy_update<T, N, M, XV>(
        acc, c, xl, xr, pv,
        [&](int m) { return lv::LegPair<T, N>{lv::ld<T, N>(tk - m * TW), lv::ld<T, N>(tk + m * TW)}; },  // immediates
        Q);
    lv::store<T, N>(out_k, acc, i, L.nx, full);
    out_k += plane;
  };

  if constexpr (U == 0) {
#pragma unroll 1
    for (int pb = pbeg; pb < pend; pb += D)
      lv::unroll(std::make_integer_sequence<int, D>{}, [&](auto uc) {
        constexpr int u = decltype(uc)::value;
        if (u == 0 || pb + u < pend) step(pb + u, uc);
      });
  } else {
#pragma unroll 1
    for (int pb = pbeg; pb < pend; pb += U) {
      lv::unroll(std::make_integer_sequence<int, U>{}, [&](auto uc) {
        constexpr int u = decltype(uc)::value;
        if (u == 0 || pb + u < pend) step(pb + u, uc);
      });
#pragma unroll
      for (int d = 0; d < D - 1; ++d) q[d] = q[d + U];
    }
  }
  // Every plane issued was waited for above, so no copy is in flight at exit.
}

// The block this kernel runs a leggy stencil with by default (BX fixed per radius).
BlockShape ztma_block_for(const Stencil& s, Precision p) {
  BlockShape b{16, 16, 1};
  if (!supports_leggy_1_to_8(s)) return b;
  dispatch_leggy_radius(s.radius, "ztma_leggy", [&](auto mc) {
    constexpr int M = decltype(mc)::value;
    if (p == Precision::Float) b = BlockShape{TmConfig<float, M>::BX, TmConfig<float, M>::BY, 1};
    else b = BlockShape{TmConfig<double, M>::BX, TmConfig<double, M>::BY, 1};
  });
  return b;
}

// "" when `b` runs `s` in precision `p`, else why not and what is allowed: the width is
// compiled in, the height bounded by the thread limit and the TMA box (256 rows).
template <class T, int M>
std::string ztma_block_error_for(const Stencil& s, const BlockShape& b) {
  using Cfg = TmConfig<T, M>;
  const int max_by = std::min(kTmMaxThreads / Cfg::BX, 256 - 2 * M);
  if (b.x == Cfg::BX && b.z == 1 && b.y >= 1 && b.y <= max_by) return "";
  return "block " + std::to_string(b.x) + "x" + std::to_string(b.y) + "x" + std::to_string(b.z) +
         " is not allowed for " + s.name + " in " + to_string(precision_of<T>()) + "; allowed: " +
         std::to_string(Cfg::BX) + "xBY with BY = 1.." + std::to_string(max_by) + " (default " +
         std::to_string(Cfg::BX) + "x" + std::to_string(Cfg::BY) + ")";
}

std::string ztma_block_error(const Stencil& s, Precision p, const BlockShape& b) {
  if (!supports_leggy_1_to_8(s)) return "";  // not this kernel's stencil: refused elsewhere
  std::string why;
  dispatch_leggy_radius(s.radius, "ztma_leggy", [&](auto mc) {
    constexpr int M = decltype(mc)::value;
    why = p == Precision::Float ? ztma_block_error_for<float, M>(s, b) : ztma_block_error_for<double, M>(s, b);
  });
  return why;
}

template <class T>
void launch_ztma_leggy(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  const char* name = "ztma_leggy (TMA plane ring, leggy)";
  const LeggyCoeffs<T> c = leggy_coeffs(a, name);
  const FieldLayout& L = a.layout;
  dispatch_leggy_radius(a.stencil->radius, name, [&](auto mc) {
    constexpr int M = decltype(mc)::value;
    using Cfg = TmConfig<T, M>;
    using Geom = TmGeom<T, M, Cfg::N, Cfg::BX>;
    // The block width is compiled in (immediate shared-memory offsets); the height
    // is free up to the thread bound and the TMA box limit (256 rows).
    const std::string why = ztma_block_error_for<T, M>(*a.stencil, o.block);
    if (!why.empty()) throw std::invalid_argument(std::string(name) + ": " + why);
    big::check_halo_and_block(L, M, BlockShape{o.block.x, o.block.y, 1}, name, kTmMaxThreads);
    static const bool has_tma = device_has_tma();
    if (!has_tma) throw std::invalid_argument(std::string(name) + " needs a GPU with TMA (compute capability 9.0+)");
    const Geom g(o.block.y);
    const long long gx = big::cdiv(L.nx, Geom::BXE), gy = big::cdiv(L.ny, o.block.y);
    // Chunks of at most 256 planes, full ones first and a short last one (z_chunk_plan.hpp).
    const int planes = big::tail_short_chunk_planes(
        L.nz, std::min(big::z_chunk_planes(L.nz, gx * gy, std::max(16, 4 * M)), kTmMaxChunkPlanes), gx * gy,
        (long long)Cfg::MINB * big::sm_count());
    const dim3 grid = big::grid3(gx, gy, big::cdiv(L.nz, planes), name);
    const size_t smem = g.smem_bytes();
    auto kernel = ztma_leggy_kernel<T, M, Cfg::N, Cfg::BX, Cfg::MINB, Cfg::U>;
    big::set_dynamic_smem(kernel, smem, name);  // raised once per kernel and size
    const CUtensorMap& in = cached_interior_box_map(a.u_cur, sizeof(T), L, Geom::TW, g.th);
    const CUtensorMap& pv = cached_interior_box_map(a.u_next, sizeof(T), L, Geom::BXE, o.block.y);
    kernel<<<grid, dim3(Cfg::BX, o.block.y, 1), smem, stream>>>(a.u_next, L, c, planes, in, pv);
  });
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void register_ztma_leggy_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "ztma_leggy";
  v.name = "z streaming, TMA plane ring, vector tiles (leggy)";
  v.family = "zstream";
  v.stencils = "leggy:1..8";
  v.supports = supports_leggy_1_to_8;
  v.default_block = {16, 16, 1};
  v.block_for = ztma_block_for;
  v.block_error = ztma_block_error;
  v.block_uses_z = false;
  v.has_readonly_toggle = false;
  v.launch_float = launch_ztma_leggy<float>;
  v.launch_double = launch_ztma_leggy<double>;
  r.add(v);
}

}  // namespace ws
