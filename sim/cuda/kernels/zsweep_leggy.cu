// Leggy stencils S_M (M = 1..8) by the forward z sweep of zsweep_common.cuh.
//
// The update is written with differences, so that a constant field is a fixed
// point bit for bit (exact_update.cuh):
//   u^{n+1}(k) = 2u(k) - u^{n-1}(k) + sum_m w_m ([u(x±m) + u(y±m)] - 4u(k))   (x, y legs;
//                                      as four differences to u(k) for M = 1)
//              + sum_m w_m ([u(k-m) - u(k)] + [u(k+m) - u(k)])                 (z legs).
// A plane cannot form u(k±m) - u(k) for an output whose centre plane k it has
// not seen yet, so the z legs go through the plane differences
// d(p) = u(p) - u(p-1) (u(p-1) kept in a register per output):
//   u(k+m) - u(k) = d(k+1) + ... + d(k+m),   u(k-m) - u(k) = -(d(k) + ... + d(k-m+1)).
// Plane p, in shared memory, gives every output of the block's NY x bx patch
//   at plane p itself:  2u + sum_m w_m ([u(x±m) + u(y±m)] - 4u)   (x and y legs)
//   to output p - j:    +W_j d(p),       j = 1..M                 (z legs)
//   to output p + j:    -W_{j+1} d(p),   j = 0..M-1
// with the tail sums W_j = w_j + ... + w_M, so Q[M] += the in-plane part and
// Q[M ± j] += the z terms. For a constant every term but 2u is exactly 0, and Q
// holds exactly 2c until u^{n-1} = c is subtracted. The x legs are 2M shared
// loads per output; the y legs and the centre come from the column of NY + 2M
// values the thread reads once per plane. Global traffic per point: one read of
// u^n (plus the tile's x/y halo, mostly L2 hits), one read of u^{n-1}, one write.
//
// Measured on the H200 (float, `bench stencils --quick`), this design LOST to
// KernelB and to regqueue_leggy for every M (leggy:4 ~100-116 Gpts/s, leggy:8
// ~32-38, against KernelB's 136-146 and 101-107): it is registered after them and
// kept as a tested alternative, not as a default. Likely causes, not yet
// profiled: 2M shared loads per output for the x legs, the (2M+1) x NY queue
// (~230 registers at M = 8, two blocks per SM), and 2M re-read planes per z chunk.
#include <stdexcept>
#include <string>

#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/bigstencil_launch.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/leggy_common.hpp"
#include "cuda/kernels/zsweep_common.cuh"

namespace ws {

namespace {

// Outputs per thread along y: 4 (measured best on the H200 for every M in float but 7);
// 2 for double above M = 4, where the queue of (2M + 1) x NY partial sums of
// two-register values would otherwise cost too many registers, and for float M = 7:
// there 2 rows take 127 registers uncapped against 210 (166 at the cap of 168), and
// on the H100 98.3 against 60.2 Gpoints/s at 1e9 points (runs 180-181; the build before the
// exact zero mode: 62.0).
template <class T, int M>
constexpr int leggy_ny() {
  if constexpr (sizeof(T) == 4) return M == 7 ? 2 : 4;
  return M <= 4 ? 4 : 2;
}

// The register cap (0: the launch bound's 255) and the default block per precision
// and radius, the fastest of 15-30 (cap, block) pairs measured on the H100 (1e9
// points, docs/benchmarks.md, "zsweep_leggy and regqueue_leggy"). Without a cap
// ptxas gives the radii >= 3 166-227 registers, two or three 128-thread blocks per
// SM. Capped at 168 or 128 they run up to 3.5 times the warps, and that pays even
// where the cap spills a few values to L1 (double M = 7 and 8, 32 and 80 bytes at
// 128; float M = 6 and 8, 40 and 24 bytes): +5% to +58% over the uncapped form
// (float M = 2 at 64 registers: +9% at 32x8). Double M = 3 runs 32x4, the block within
// 2% of the folded-centre form on both lent GPUs: the H100's fastest, 64x4, ran 24% below
// it on the H200 (runs 149-157, docs/benchmarks.md "Fifth pass"). Float M = 7 runs two
// rows per thread (leggy_ny) uncapped at 32x8: of 12 (cap, block) pairs on the H100 the
// fastest by 4% (run 180).
struct SweepTuning {
  int cap, bx, by;
};

template <class T, int M>
constexpr SweepTuning sweep_tuning() {
  constexpr SweepTuning f[kKernelMaxLeggyM + 1] = {{}, {0, 32, 8}, {64, 32, 8}, {168, 64, 4}, {128, 64, 4},
                                                   {128, 64, 4}, {128, 32, 8}, {0, 32, 8}, {168, 64, 2}};
  constexpr SweepTuning d[kKernelMaxLeggyM + 1] = {{}, {0, 128, 2}, {0, 32, 8}, {168, 32, 4}, {168, 32, 4},
                                                   {128, 32, 8}, {128, 32, 8}, {128, 32, 8}, {128, 32, 8}};
  return sizeof(T) == 4 ? f[M] : d[M];
}

BlockShape zsweep_leggy_block_for(const Stencil& s, Precision p) {
  BlockShape b{32, 4, 1};
  if (!supports_leggy_1_to_8(s)) return b;
  dispatch_leggy_radius(s.radius, "zsweep_leggy", [&](auto mc) {
    constexpr int M = decltype(mc)::value;
    const SweepTuning t = p == Precision::Float ? sweep_tuning<float, M>() : sweep_tuning<double, M>();
    b = BlockShape{t.bx, t.by, 1};
  });
  return b;
}

// "" when the block fits the kernel's launch bound (zs::kMaxThreads threads).
std::string zsweep_leggy_block_error(const Stencil&, Precision, const BlockShape& b) {
  if (b.x >= 1 && b.y >= 1 && b.threads() <= zs::kMaxThreads) return "";
  return "block " + std::to_string(b.x) + "x" + std::to_string(b.y) + " has " + std::to_string(b.threads()) +
         " threads; zsweep_leggy allows at most " + std::to_string(zs::kMaxThreads);
}

// The weights of the plane differences: W[j] = lambda^2 (beta_j + ... + beta_M), j = 1..M.
template <class T>
struct ZTails {
  T W[kKernelMaxLeggyM + 1];  // W[0] unused
};

template <class T>
ZTails<T> z_tails(const StepArgs<T>& a) {
  ZTails<T> t{};
  double tail = 0.0;
  for (int j = a.stencil->radius; j >= 1; --j) {
    tail += a.stencil->axis_weight(j);
    t.W[j] = T(a.lambda2 * tail);
  }
  return t;
}

template <class T, int M, int NY>
__device__ __forceinline__ void zsweep_leggy_body(T* __restrict__ un, const T* __restrict__ uc, const FieldLayout& L,
                                                  const LeggyCoeffs<T>& c, const ZTails<T>& zt, int z_planes) {
  constexpr int D = 2 * M + 1;  // queue length
  constexpr int S = zs::kStages;
  zs::Sweep<T> sw;
  sw.init(big::dyn_smem<T>(), L, M, NY, z_planes, un, uc);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = sw.i0 + tx, jt = sw.j0 + ty * NY;
  const int p_first = sw.k0 - M, p_last = sw.k1 - 1 + M;
  const int64_t plane = L.plane;
  const int pitch = (int)L.pitch;
  T* out0 = un + L.index(min(i, L.nx - 1), min(jt, L.ny - 1), sw.k0);
  const bool col_in = i < L.nx;

#pragma unroll
  for (int s = 0; s < S - 1; ++s) sw.issue(p_first + s, s, L);

  T Q[D][NY];
#pragma unroll
  for (int d = 0; d < D; ++d)
#pragma unroll
    for (int o = 0; o < NY; ++o) Q[d][o] = T(0);
  // u(p - 1) at the thread's outputs. The first plane's difference (against 0)
  // only reaches outputs below k0, which are never written.
  T v_prev[NY];
#pragma unroll
  for (int o = 0; o < NY; ++o) v_prev[o] = T(0);

  // The queue never shifts: the plane loop is unrolled D times and the logical
  // Q[d] of plane p_first + D n + u lives in register Q[(d + u) % D], an index
  // fixed at compile time.
  int slot = 0;
#pragma unroll 1
  for (int pb = p_first; pb <= p_last; pb += D) {
#pragma unroll
    for (int u = 0; u < D; ++u) {
      const int p = pb + u;
      if (p > p_last) break;
      const int kout = p - M;  // the output completed by this plane
      __pipeline_wait_prior(S - 2);  // this thread's copies of stage p have landed
      __syncthreads();               // everyone's have, and everyone is done with stage p - 1
      {
        int sn = slot + S - 1;
        if (sn >= S) sn -= S;  // the buffers stage p - 1 used
        sw.issue(p + S - 1, sn, L);
      }
      const T* t = sw.in + slot * sw.ts + (ty * NY) * sw.tw + tx + sw.A;  // tile row of y = jt - M, column x = i
      T col[NY + 2 * M];
#pragma unroll
      for (int q = 0; q < NY + 2 * M; ++q) col[q] = t[q * sw.tw];
#pragma unroll
      for (int o = 0; o < NY; ++o) {
        const T* r = t + (o + M) * sw.tw;
        const T v = col[o + M];
        T xy = v + v;
#pragma unroll
        for (int m = 1; m <= M; ++m) {
          // Differences first for leggy:1, which runs next to non-fixed walls; one
          // subtraction per shell for M >= 2 (exact_update.cuh).
          if constexpr (M == 1) xy = fma(c.w[m], ex::quad_diff(r[-m], r[m], col[o + M - m], col[o + M + m], v), xy);
          else xy = fma(c.w[m], ex::quad_minus(r[-m], r[m], col[o + M - m], col[o + M + m], v), xy);
        }
        const T dz = v - v_prev[o];  // d(p): exactly 0 for a constant
        v_prev[o] = v;
        Q[(M + u) % D][o] += xy;
#pragma unroll
        for (int j = 1; j <= M; ++j) {
          Q[(M - j + u) % D][o] = fma(zt.W[j], dz, Q[(M - j + u) % D][o]);
          Q[(M + j - 1 + u) % D][o] = fma(-zt.W[j], dz, Q[(M + j - 1 + u) % D][o]);
        }
      }
      if (col_in && kout >= sw.k0) {
        const T* pv = sw.prv + slot * sw.ps + (ty * NY) * blockDim.x + tx;  // u^{n-1}
        T* optr = out0 + (int64_t)(kout - sw.k0) * plane;
#pragma unroll
        for (int o = 0; o < NY; ++o)
          if (jt + o < L.ny) optr[o * pitch] = Q[u][o] - pv[o * blockDim.x];
      }
#pragma unroll
      for (int o = 0; o < NY; ++o) Q[u][o] = T(0);  // logical Q[0], written: next plane's Q[D - 1]
      if (++slot == S) slot = 0;
    }
  }
  __pipeline_wait_prior(0);  // no copy may still target shared memory when the block exits
}

template <class T, int M, int NY>
__global__ void __launch_bounds__(zs::kMaxThreads) zsweep_leggy_kernel(T* __restrict__ un, const T* __restrict__ uc,
                                                                        FieldLayout L, LeggyCoeffs<T> c, ZTails<T> zt,
                                                                        int z_planes) {
  zsweep_leggy_body<T, M, NY>(un, uc, L, c, zt, z_planes);
}

template <class T, int M, int NY, int CAP>
__global__ void __maxnreg__(CAP) zsweep_leggy_capped(T* __restrict__ un, const T* __restrict__ uc, FieldLayout L,
                                                     LeggyCoeffs<T> c, ZTails<T> zt, int z_planes) {
  zsweep_leggy_body<T, M, NY>(un, uc, L, c, zt, z_planes);
}

template <class T>
void launch_zsweep_leggy(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  const char* name = "zsweep_leggy (forward z sweep, leggy)";
  const LeggyCoeffs<T> c = leggy_coeffs(a, name);
  const BlockShape b{o.block.x, o.block.y, 1};
  big::check_halo_and_block(a.layout, a.stencil->radius, b, name, zs::kMaxThreads);
  const FieldLayout& L = a.layout;
  dispatch_leggy_radius(a.stencil->radius, name, [&](auto mc) {
    constexpr int M = decltype(mc)::value;
    constexpr int NY = leggy_ny<T, M>();
    const long long gx = big::cdiv(L.nx, b.x), gy = big::cdiv(L.ny, (long long)b.y * NY);
    const int planes = zs::chunk_planes(L.nz, gx * gy, std::max(16, 4 * M));
    const dim3 grid = big::grid3(gx, gy, big::cdiv(L.nz, planes), name);
    const size_t smem = zs::sweep_smem_bytes(sizeof(T), b.x, b.y, NY, M);
    constexpr int CAP = sweep_tuning<T, M>().cap;
    if constexpr (CAP != 0) {
      big::set_dynamic_smem(zsweep_leggy_capped<T, M, NY, CAP>, smem, name);
      zsweep_leggy_capped<T, M, NY, CAP><<<grid, dim3(b.x, b.y, 1), smem, stream>>>(a.u_next, a.u_cur, L, c, z_tails(a), planes);
    } else {
      big::set_dynamic_smem(zsweep_leggy_kernel<T, M, NY>, smem, name);
      zsweep_leggy_kernel<T, M, NY><<<grid, dim3(b.x, b.y, 1), smem, stream>>>(a.u_next, a.u_cur, L, c, z_tails(a), planes);
    }
  });
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void register_zsweep_leggy_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "zsweep_leggy";
  v.name = "forward z sweep, cp.async plane pipeline (leggy)";
  v.family = "zsweep";
  v.stencils = "leggy:1..8";
  v.supports = supports_leggy_1_to_8;
  v.default_block = {32, 4, 1};
  v.block_for = zsweep_leggy_block_for;
  v.block_error = zsweep_leggy_block_error;
  v.block_uses_z = false;
  v.has_readonly_toggle = false;
  v.launch_float = launch_zsweep_leggy<float>;
  v.launch_double = launch_zsweep_leggy<double>;
  r.add(v);
}

}  // namespace ws
