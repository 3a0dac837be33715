// FDTD3d (NVIDIA sample; Pérez & Ríos) generalised from radius 4 to leggy
// stencils of any M = 1..8: 2.5-D blocking with z streaming.
//
// A block owns a bx x by column of the grid and walks it in z. Each thread keeps
// the 2M z-neighbours of its point in registers: `behind` (k-1..k-M) and `front`
// (k+1..k+M), plus the centre. Per plane the queues shift by one and only
// u^n(k+M) is loaded, so the z legs cost one global load per point instead of 2M.
// The x and y legs come from an xy tile in dynamic shared memory, (by + 2M) rows
// of (bx + 2M), filled with the centre values from the registers plus an M-wide
// halo on the four sides (no corners: the stencil has no diagonal points).
//
// The sizes are M-dependent, so M is a template parameter (queues become named
// registers, loops unroll) dispatched at run time; the block comes from
// LaunchOptions (block.z is ignored). Threads outside the interior still load
// (clamped to the halo ring, which always exists) and take part in the barriers,
// but never write. Small grids have their z range cut into chunks so every SM
// has blocks; each chunk primes its queues with M planes below and above.
#include <string>

#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/bigstencil_launch.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/leggy_common.hpp"
#include "cuda/kernels/load.cuh"

namespace ws {

namespace {

// At most 512 threads per block; in float at least two such blocks per SM, which caps
// the registers at 64 per thread (enough for M = 8 without spilling) so occupancy
// never drops to one block. Double needs more (2M + 1 queue values of two registers
// each) and gets them, at one 512-thread block per SM.
constexpr int kMaxThreads = 512;

// Q: halo rows (columns) each thread loads per side, 1 when the block is at least M
// wide and tall, else 2. With Q = 1 the second job's registers (two values per side
// and their offsets) are gone, which double at the large radii needs.
template <class T, int M, bool RO, int Q>
__global__ void __launch_bounds__(kMaxThreads, sizeof(T) == 4 ? 2 : 1) register_queue_kernel(T* __restrict__ un, const T* __restrict__ uc,
                                                                    FieldLayout L, LeggyCoeffs<T> c, int z_planes) {
  T* tile = big::dyn_smem<T>();
  const int bx = blockDim.x, by = blockDim.y, tx = threadIdx.x, ty = threadIdx.y;
  const int tw = bx + 2 * M;
  const int i0 = blockIdx.x * bx, j0 = blockIdx.y * by;
  const int i = i0 + tx, j = j0 + ty;
  const int k0 = blockIdx.z * z_planes;
  const int k1 = min(k0 + z_planes, L.nz);
  const bool inside = i < L.nx && j < L.ny;
  // Clamped to the last halo column/row: always inside the allocated array; the
  // tile cells they fill are only read by threads that do not write.
  const int ic = min(i, L.nx + M - 1), jc = min(j, L.ny + M - 1);
  const int pitch = (int)L.pitch;
  const int64_t plane = L.plane;

  // Halo jobs of this thread (the launcher guarantees M <= Q by and M <= Q bx, Q <= 2):
  // in-plane offsets from the plane's interior origin, fixed for the whole column.
  bool hy[Q], hx[Q];
  int oyb[Q], oya[Q], oxl[Q], oxr[Q];
#pragma unroll
  for (int q = 0; q < Q; ++q) {
    const int r = ty + q * by, s = tx + q * bx;
    hy[q] = r < M;
    hx[q] = s < M;
    oyb[q] = (j0 - M + r) * pitch + ic;                    // row below the block (>= -M)
    oya[q] = min(j0 + by + r, L.ny + M - 1) * pitch + ic;  // row above
    oxl[q] = jc * pitch + (i0 - M + s);                    // column left of the block
    oxr[q] = jc * pitch + min(i0 + bx + s, L.nx + M - 1);  // column right
  }
  T vyb[Q], vya[Q], vxl[Q], vxr[Q];
  auto load_halos = [&](const T* b) {
#pragma unroll
    for (int q = 0; q < Q; ++q) {
      if (hy[q]) vyb[q] = ld<RO>(b + oyb[q]), vya[q] = ld<RO>(b + oya[q]);
      if (hx[q]) vxl[q] = ld<RO>(b + oxl[q]), vxr[q] = ld<RO>(b + oxr[q]);
    }
  };

  const T* base = uc + L.index(0, 0, k0);  // interior (0,0) of plane k; (x,y) at base + y*pitch + x
  const T* col = base + jc * pitch + ic;   // this thread's column at plane k
  T* out = un + L.index(ic, jc, k0);

  T behind[M], front[M];
  T cur = ld<RO>(col);
#pragma unroll
  for (int m = 1; m <= M; ++m) {
    behind[m - 1] = ld<RO>(col - m * plane);
    front[m - 1] = ld<RO>(col + m * plane);
  }
  // Software pipelining: a streaming kernel with one load per thread in flight is
  // latency bound, not bandwidth bound. So the two streams every thread has (the plane
  // entering the front queue and u^{n-1}) are fetched two planes ahead (pend_*, prev_*:
  // a is needed next iteration, b the one after), and the halos one plane ahead, issued
  // right after the tile is written so their latency overlaps the barrier and the
  // arithmetic of the current plane.
  const T* next = col + M * plane;  // the last plane requested for the front queue
  load_halos(base);
  T prev_a = inside ? *out : T(0);                                 // u^{n-1} at plane k0
  T prev_b = (inside && k0 + 1 < k1) ? out[plane] : T(0);          // plane k0 + 1
  T pend_a = T(0), pend_b = T(0);
  if (k0 + 1 < k1) {
    next += plane;
    pend_a = ld<RO>(next);                                         // plane k0 + 1 + M
  }

  const int centre = (ty + M) * tw + tx + M;
  for (int k = k0; k < k1; ++k) {
    if (k > k0) {
#pragma unroll
      for (int m = M - 1; m > 0; --m) behind[m] = behind[m - 1];
      behind[0] = cur;
      cur = front[0];
#pragma unroll
      for (int m = 0; m < M - 1; ++m) front[m] = front[m + 1];
      front[M - 1] = pend_a;  // plane k + M
      pend_a = pend_b;
    }
    const T prev = prev_a;
    prev_a = prev_b;
    __syncthreads();  // the previous plane's reads of the tile are done
    tile[centre] = cur;
#pragma unroll
    for (int q = 0; q < Q; ++q) {
      if (hy[q]) {
        tile[(ty + q * by) * tw + tx + M] = vyb[q];
        tile[(by + M + ty + q * by) * tw + tx + M] = vya[q];
      }
      if (hx[q]) {
        tile[(ty + M) * tw + tx + q * bx] = vxl[q];
        tile[(ty + M) * tw + bx + M + tx + q * bx] = vxr[q];
      }
    }
    if (k + 2 < k1) {  // two planes ahead
      next += plane;
      pend_b = ld<RO>(next);  // plane k + 2 + M
      prev_b = inside ? out[2 * plane] : T(0);
    }
    if (k + 1 < k1) load_halos(base + plane);  // one plane ahead
    // For M >= 2 the register-only part of the update is done here, while the warps
    // wait for the tile: the leapfrog, round(6u) and each shell's z pair. The shell is
    // then summed in axis_shell_minus's order, (((xm + xp) + (ym + yp)) + zpair) - 6u,
    // one subtraction of round(6u) per shell (exact_update.cuh), the same bits as
    // computing it after the barrier, where each shell is left with its four tile reads,
    // three additions, the subtraction and the fma. leggy:1 sums differences (it runs
    // next to non-fixed walls) and keeps them after the barrier.
    T acc = ex::leapfrog(cur, prev);
    const T six_u = ex::six_times(cur);
    T zpair[M];
#pragma unroll
    for (int m = 1; m <= M; ++m) zpair[m - 1] = behind[m - 1] + front[m - 1];
    __syncthreads();
    if (inside) {
#pragma unroll
      for (int m = 1; m <= M; ++m) {
        const T xm = tile[centre - m], xp = tile[centre + m], ym = tile[centre - m * tw], yp = tile[centre + m * tw];
        if constexpr (M == 1)
          acc = fma(c.w[m], ex::axis_shell_diff(xm, xp, ym, yp, behind[m - 1], front[m - 1], cur), acc);
        else
          acc = fma(c.w[m], (((xm + xp) + (ym + yp)) + zpair[m - 1]) - six_u, acc);
      }
      *out = acc;
    }
    out += plane;
    base += plane;
  }
}

// The default block per precision and radius, the fastest of nine measured on the
// H100 (1e9 points, docs/benchmarks.md, "zsweep_leggy and regqueue_leggy"): flat
// blocks for the short radii (fewer halo rows per output: double leggy:1-2 at 64x2
// +11-13% over FDTD3d's 32x16), FDTD3d's tile from M = 5 on.
BlockShape regqueue_block_for(const Stencil& s, Precision p) {
  if (!supports_leggy_1_to_8(s)) return {32, 16, 1};
  const int M = s.radius;
  if (p == Precision::Double) return M <= 2 ? BlockShape{64, 2, 1} : BlockShape{32, 16, 1};
  if (M <= 2) return {32, 2, 1};
  if (M == 3) return {32, 4, 1};
  if (M == 4 || M == 8) return {32, 8, 1};
  return {32, 16, 1};
}

// "" when every thread loads at most two halo rows and columns (2 bx >= M, 2 by >= M).
std::string regqueue_block_error(const Stencil& s, Precision, const BlockShape& b) {
  const int M = s.radius;
  if (2 * b.x >= M && 2 * b.y >= M) return "";
  return "block " + std::to_string(b.x) + "x" + std::to_string(b.y) + " is too small for M = " + std::to_string(M) +
         "; each side must be at least M/2 (each thread loads at most two halo rows)";
}

template <class T>
void launch_register_queue(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  const char* name = "register queue (leggy)";
  const LeggyCoeffs<T> c = leggy_coeffs(a, name);
  const BlockShape b{o.block.x, o.block.y, 1};
  big::check_halo_and_block(a.layout, a.stencil->radius, b, name, kMaxThreads);
  const std::string why = regqueue_block_error(*a.stencil, Precision::Float, b);
  if (!why.empty()) throw std::invalid_argument(std::string(name) + ": " + why);
  const dim3 block(b.x, b.y, 1);
  dispatch_leggy_radius(a.stencil->radius, name, [&](auto mc) {
    constexpr int M = decltype(mc)::value;
    const long long gx = big::cdiv(a.layout.nx, b.x), gy = big::cdiv(a.layout.ny, b.y);
    const int planes = big::z_chunk_planes(a.layout.nz, gx * gy, 4 * M);
    const dim3 grid = big::grid3(gx, gy, big::cdiv(a.layout.nz, planes), name);
    const size_t smem = sizeof(T) * (size_t)(b.x + 2 * M) * (size_t)(b.y + 2 * M);
    auto run = [&](auto kernel) {
      big::set_dynamic_smem(kernel, smem, name);
      kernel<<<grid, block, smem, stream>>>(a.u_next, a.u_cur, a.layout, c, planes);
    };
    const bool one_job = b.x >= M && b.y >= M;
    if (o.readonly_cache)
      one_job ? run(register_queue_kernel<T, M, true, 1>) : run(register_queue_kernel<T, M, true, 2>);
    else
      one_job ? run(register_queue_kernel<T, M, false, 1>) : run(register_queue_kernel<T, M, false, 2>);
  });
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void register_regqueue_leggy_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "regqueue_leggy";
  v.name = "2.5D register queue + xy tile (FDTD3d, any M)";
  v.family = "fdtd3d";
  v.stencils = "leggy:1..8";
  v.supports = supports_leggy_1_to_8;
  v.default_block = {32, 16, 1};  // FDTD3d's tile
  v.block_for = regqueue_block_for;
  v.block_error = regqueue_block_error;
  v.block_uses_z = false;
  v.has_readonly_toggle = true;
  v.launch_float = launch_register_queue<float>;
  v.launch_double = launch_register_queue<double>;
  r.add(v);
}

}  // namespace ws
