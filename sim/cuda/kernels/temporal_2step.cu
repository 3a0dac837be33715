// Temporal blocking: two steps per pass over DRAM, for grids beyond L2; the 7-point
// stencil and the leggy stencils leggy:1..4 (radius R: the tile grows by R, the ring
// holds 2R + 1 planes).
//
// A single step reads u^n and u^{n-1} and writes u^{n+1}: three field accesses per
// point and step. A pass of this kernel reads u^n (A) and u^{n-1} (B) once and writes
// u^{n+1} and u^{n+2}: four accesses per two steps, so a bandwidth-bound grid can
// run at up to 1.5x the single-step copy roofline. Each block owns an xy tile and
// streams a chunk of z planes; for plane k it computes u^{n+1} on the tile grown by
// R points per side (the neighbours the second step needs, recomputed by the blocks
// next to it) into a shared ring of 2R + 1 planes, then u^{n+2} on the tile at plane
// k - R from the ring and u^n.
//
// The passes are out of place: A, B -> C (u^{n+2}), D (u^{n+1}), C and D being two
// scratch fields the solver holds for this kernel. In place would race: a block's
// grown tile reads u^{n-1} and u^n on its neighbours' points, which those
// neighbours would already have overwritten. Passes go in pairs, A, B -> C, D ->
// A, B, so four steps leave the result in the solver's own fields; the 0 to 3 steps
// that remain run as single steps. Since no pass writes what it reads, A and B go
// through the read-only cache.
//
// The arithmetic of each point is the single-step update's (exact_update.cuh; for
// R >= 2 the leggy kernels' one subtraction per shell, leggy_vec.cuh), so the result is
// bit for bit that of any kernel of the stencil. The box's walls of every kind run
// inside (with the 7-point stencil, which non-fixed walls require): a point on a face
// of the box that is a boundary node (boundary_plan.hpp) takes the boundary update at
// both levels (boundary_node.cuh), its coefficients found through a dense map of the
// six faces (tiled_step.hpp: box_face_slot); the first level reads u^n from memory,
// the second from the ring. Sources are added to u^{n+1} by
// every block that computes the node (its own copy) and to u^{n+2} by the owner;
// receivers are read after each pass. Obstacles put boundary nodes inside the box:
// the solver then steps this kernel singly around the boundary-node kernels
// (KernelVariant::MultiWalls::BoxFaces).
#include <algorithm>
#include <stdexcept>
#include <string>

#include "boundary/boundary_node.cuh"
#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/kernel_common.cuh"
#include "cuda/kernels/launch_geometry.hpp"
#include "cuda/kernels/leggy_common.hpp"
#include "cuda/step_io.hpp"
#include "cuda/tiled_step.hpp"
#include "cuda/kernels/temporal_pass.cuh"

namespace ws {

namespace {

using namespace temporal;

constexpr int kTargetWaves = 2;
constexpr int kMinChunkPlanes = 32;  // each chunk recomputes u^{n+1} on 2R extra planes
// Planes of u^n and u^{n-1} loaded ahead of the one computed: 3 in float; in double the
// registers they take cost more occupancy than they hide (H100, 512^3: 3 planes 65,
// 1 plane 102 Gpoints/s in double; float 131 against 121).
template <class T>
constexpr int kAhead = sizeof(T) == 4 ? 3 : 1;
// The 7-point passes are bound by latency: blocks of at most 512 threads, three of them
// resident per SM (at most 42 registers a thread); the leggy radii keep 1024-thread blocks.
template <int R>
constexpr int kMaxThreads = R == 1 ? 512 : 1024;
template <int R>
constexpr int kMinBlocks = R == 1 ? 3 : 1;

// Each thread owns one column (i, j) of the grown tile: the block is the grown tile,
// bx x by threads, and its inner (bx - 2R) x (by - 2R) threads own the output
// columns. A thread keeps u^n of its column at planes k - R .. k + R in registers
// (qa, a queue shifted once per plane) and loads u^n and u^{n-1} kAhead planes
// ahead, so a DRAM round trip overlaps the computation of several planes; the x and y neighbours of the first level come through the read-only
// cache. The ring holds 2R + 2 planes of u^{n+1}, one more than the second level
// reads, so the plane written next is one nobody reads in this iteration and one
// barrier per plane suffices.
template <class T, int R, bool SRC, bool WALLS>
__global__ void __launch_bounds__(kMaxThreads<R>, kMinBlocks<R>) temporal_2step_kernel(T* __restrict__ c_out, T* __restrict__ d_out,
                                                              const T* __restrict__ a, const T* __restrict__ b,
                                                              FieldLayout L, LeggyCoeffs<T> c, int chunk,
                                                              PassSources<T> s, PassWalls<T> walls) {
  static_assert(R >= 1 && (R == 1 || !WALLS), "walls other than fixed ones run the 7-point stencil only");
  constexpr int kRing = 2 * R + 2;
  const int bx = blockDim.x, by = blockDim.y;
  const int area = bx * by;
  T* ring = shared_tile<T>();  // kRing planes of bx * by
  const int i = blockIdx.x * (bx - 2 * R) + (int)threadIdx.x - R;
  const int j = blockIdx.y * (by - 2 * R) + (int)threadIdx.y - R;
  const int k0 = blockIdx.z * chunk, k1 = min(k0 + chunk, L.nz);
  const int e = (int)threadIdx.x + bx * (int)threadIdx.y;
  const bool inside = i >= 0 && i < L.nx && j >= 0 && j < L.ny;  // a column of the interior
  const bool owner = inside && (int)threadIdx.x >= R && (int)threadIdx.x < bx - R && (int)threadIdx.y >= R &&
                     (int)threadIdx.y < by - R;
  const int64_t col = inside ? L.index(i, j, 0) : 0;
  bool near_source = false;
  if constexpr (SRC) near_source = sources_in_block(s, L, i - (int)threadIdx.x, j - (int)threadIdx.y, bx, by, k0 - R, k1 + R);
  // u^n and u^{n-1} of the column at plane z, 0 beyond the halo planes (never used there).
  auto load_a = [&](int z) { return inside && z >= -R && z < L.nz + R ? __ldg(a + col + (int64_t)z * L.plane) : T(0); };
  auto load_b = [&](int z) { return inside && z >= 0 && z < L.nz ? __ldg(b + col + (int64_t)z * L.plane) : T(0); };
  auto slot_of = [&](int z) { return ring + ((z - k0 + 2 * R + 2) % kRing) * area; };
  const int kfirst = k0 - R, klast = k1 + R;  // the first level's planes [kfirst, klast)
  T qa[2 * R + 1];
#pragma unroll
  for (int m = 0; m < 2 * R; ++m) qa[m] = load_a(kfirst - R + m);
  // pa[d] = u^n at plane k + R + d and pb[d] = u^{n-1} at plane k + d, for the plane k
  // about to start: kAhead planes of loads in flight behind the one being computed.
  constexpr int D = kAhead<T>;
  T pa[D], pb[D];
#pragma unroll
  for (int d = 0; d < D; ++d) {
    pa[d] = load_a(kfirst + R + d);
    pb[d] = load_b(kfirst + d);
  }
  for (int k = kfirst; k < klast; ++k) {
    qa[2 * R] = pa[0];  // qa[m] = u^n at plane k - R + m
    const T bk = pb[0];
#pragma unroll
    for (int d = 0; d + 1 < D; ++d) {
      pa[d] = pa[d + 1];
      pb[d] = pb[d + 1];
    }
    pa[D - 1] = load_a(k + R + D);
    pb[D - 1] = load_b(k + D);
    // First level: u^{n+1} at plane k (0 outside the interior: the fixed halo).
    T v = T(0);
    if (inside && k >= 0 && k < L.nz) {
      const int64_t q = col + (int64_t)k * L.plane;
      const int bn = WALLS ? wall_node(walls, L, i, j, k) : -1;
      if (bn >= 0) {
        v = boundary_node_value(a, bk, q, walls.mask[bn], walls.nfixed[bn], walls.cd[bn], walls.cl[bn], L);
      } else {
        const int64_t off[4] = {-1, 1, -L.pitch, L.pitch};
        v = point_update<T, R>(qa[R], bk, c, [&](int d, int m) {
          return d < 4 ? __ldg(a + q + m * off[d]) : qa[d == 4 ? R - m : R + m];
        });
      }
      if constexpr (SRC)
        if (near_source) v = add_sources(v, q, s, 0);
    }
    slot_of(k)[e] = v;
    __syncthreads();
    // Second level: u^{n+2} at plane kk = k - R, from the ring's planes kk - R .. k.
    const int kk = k - R;
    if (owner && kk >= k0) {
      const T* mid = slot_of(kk);
      const int64_t q = col + (int64_t)kk * L.plane;
      const T u1 = mid[e];
      const T u0 = qa[0];  // u^n at plane kk
      const int bn = WALLS ? wall_node(walls, L, i, j, kk) : -1;
      T u2;
      if (bn >= 0) {
        const T nb[6] = {mid[e - 1], mid[e + 1], mid[e - bx], mid[e + bx], slot_of(kk - 1)[e], slot_of(kk + 1)[e]};
        u2 = boundary_value(u1, nb, u0, walls.mask[bn], walls.nfixed[bn], walls.cd[bn], walls.cl[bn]);
      } else {
        u2 = point_update<T, R>(u1, u0, c, [&](int d, int m) {
          switch (d) {
            case 0: return mid[e - m];
            case 1: return mid[e + m];
            case 2: return mid[e - m * bx];
            case 3: return mid[e + m * bx];
            case 4: return slot_of(kk - m)[e];
            default: return slot_of(kk + m)[e];
          }
        });
      }
      if constexpr (SRC)
        if (near_source) u2 = add_sources(u2, q, s, 1);
      d_out[q] = u1;
      c_out[q] = u2;
    }
#pragma unroll
    for (int m = 0; m < 2 * R; ++m) qa[m] = qa[m + 1];
  }
}

// The block is the grown tile: its inner (x - 2R) x (y - 2R) threads own the output.
std::string block_error_2step(const Stencil& st, Precision, const BlockShape& b) {
  const int r = st.radius;
  const int most = r <= 1 ? kMaxThreads<1> : kMaxThreads<2>;
  if (b.x < 2 * r + 1 || b.y < 2 * r + 1 || b.x * b.y > most)
    return "block " + std::to_string(b.x) + "x" + std::to_string(b.y) + " is not allowed with radius " +
           std::to_string(r) + ": each side >= " + std::to_string(2 * r + 1) +
           " (the block is the output tile grown by the radius on every side), at most " + std::to_string(most) +
           " threads";
  return "";
}

// 32 x 16 for the 7-point stencil: the tile grown by 1 recomputes 22% of the first
// level (64 x 8: 38%); of the blocks measured on the H100 it ran fastest most
// consistently (docs/benchmarks.md). The leggy radii take 1024 threads, 32 x 32, so
// that the ring of 2R points around the output tile stays a fraction of it.
BlockShape block_for_2step(const Stencil& st, Precision) {
  return st.radius <= 1 ? BlockShape{32, 16, 1} : BlockShape{32, 32, 1};
}

bool supports_2step(const Stencil& s) {
  return s.is_seven_point() || (supports_leggy_1_to_8(s) && s.radius <= 4);
}

template <class T, int R>
int run_passes(const MultiStepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream, const LeggyCoeffs<T>& c) {
  const FieldLayout& L = a.layout;
  const TiledStepData<T>* io = a.io;
  const bool src = io && io->nsrc > 0;
  const bool wl = io && io->bnd_count > 0;
  if (wl && R != 1) throw std::invalid_argument("kernel 'temporal_2step': walls other than fixed ones need the 7-point stencil");
  PassWalls<T> walls;
  if (wl) walls = PassWalls<T>{io->face_node, io->bnd_mask, io->bnd_nfixed, io->bnd_cd, io->bnd_cl};

  const int bx = o.block.x, by = o.block.y;
  const size_t smem = (size_t)(2 * R + 2) * bx * by * sizeof(T);
  const int ox = bx - 2 * R, oy = by - 2 * R;  // the output tile
  const long long xy = (long long)((L.nx + ox - 1) / ox) * ((L.ny + oy - 1) / oy);
  using Kernel = void (*)(T*, T*, const T*, const T*, FieldLayout, LeggyCoeffs<T>, int, PassSources<T>, PassWalls<T>);
  constexpr bool kWalls = R == 1;  // the wall instantiations exist for the 7-point stencil only
  const Kernel kfn = src ? (wl && kWalls ? temporal_2step_kernel<T, R, true, kWalls> : temporal_2step_kernel<T, R, true, false>)
                         : (wl && kWalls ? temporal_2step_kernel<T, R, false, kWalls> : temporal_2step_kernel<T, R, false, false>);
  allow_dynamic_smem((const void*)kfn, smem, "temporal_2step");
  const int resident = resident_blocks_per_sm((const void*)kfn, bx * by, smem) * device_sm_count();
  const int chunks = z_chunks_for(xy, resident, L.nz, kTargetWaves, kMinChunkPlanes);
  const int chunk = (L.nz + chunks - 1) / chunks;
  const dim3 grid = checked_grid((L.nx + ox - 1) / ox, (L.ny + oy - 1) / oy, (L.nz + chunk - 1) / chunk, "temporal_2step");

  return run_pass_pairs<T, R>(a, o, stream, c, walls, "temporal_2step",
                              [&](T* out_cur, T* out_prev, const T* in_cur, const T* in_prev, const PassSources<T>& s) {
    kfn<<<grid, dim3(bx, by), smem, stream>>>(out_cur, out_prev, in_cur, in_prev, L, c, chunk, s, walls);
    return 1;
  });
}

// Calls f(std::integral_constant<int, R>) for the stencil's radius (1..4).
template <class F>
void dispatch_radius(const Stencil& st, F&& f) {
  if (!supports_2step(st))
    throw std::invalid_argument("kernel 'temporal_2step' runs the 7-point stencil and leggy:1..4, not '" + st.name + "'");
  switch (st.radius) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    default: return f(std::integral_constant<int, 4>{});
  }
}

template <class T>
int launch_multi(const MultiStepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  if (a.steps <= 0) return 0;
  const std::string why = block_error_2step(*a.stencil, precision_of<T>(), o.block);
  if (!why.empty()) throw std::invalid_argument("kernel 'temporal_2step': " + why);
  check_pass_args(a, "temporal_2step");
  const LeggyCoeffs<T> c = pass_coeffs<T>(*a.stencil, a.lambda2, a.layout, "temporal_2step");
  int launches = 0;
  dispatch_radius(*a.stencil, [&](auto r) { launches = run_passes<T, decltype(r)::value>(a, o, stream, c); });
  return launches;
}

template <class T>
void launch_one(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  const std::string why = block_error_2step(*a.stencil, precision_of<T>(), o.block);
  if (!why.empty()) throw std::invalid_argument("kernel 'temporal_2step': " + why);
  const LeggyCoeffs<T> c = pass_coeffs<T>(*a.stencil, a.lambda2, a.layout, "temporal_2step");
  dispatch_radius(*a.stencil,
                  [&](auto r) {
                    launch_single<T, decltype(r)::value>(a.u_next, a.u_cur, a.layout, c, o, stream, "temporal_2step");
                  });
}

}  // namespace

void register_temporal_2step_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "temporal_2step";
  v.name = "temporal blocking, two steps per pass over DRAM (7pt, leggy:1..4)";
  v.family = "ours";
  v.stencils = "7pt, leggy:1..4";
  v.supports = supports_2step;
  v.default_block = {32, 16, 1};
  v.block_error = block_error_2step;
  v.block_for = block_for_2step;
  v.block_uses_z = false;
  v.has_readonly_toggle = false;
  v.graph_capturable = true;  // its single steps (with walls) replay in the step graph
  v.launch_float = launch_one<float>;
  v.launch_double = launch_one<double>;
  v.multi_float = launch_multi<float>;
  v.multi_double = launch_multi<double>;
  v.multi_scratch_fields = 2;
  v.multi_walls = KernelVariant::MultiWalls::BoxFaces;
  r.add(v);
}

}  // namespace ws
