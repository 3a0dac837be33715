// A persistent 7-point kernel for small grids whose two fields fit in the shared memory
// of one thread-block cluster (compute capability 9.0: up to 16 blocks of up to 227 KiB,
// about 450 k points in float, 230 k in double): the fields are loaded once per launch,
// stay on chip for every step of it, and are written back at its end. A step costs no
// launch, no grid-wide barrier and no load from L2 or DRAM: the blocks exchange their
// edge planes through distributed shared memory and meet at one cluster barrier per step.
//
// Block r of the cluster owns the z planes [r P, r P + P) (the last block fewer), both
// fields of them, each plane padded by the zero halo ring (rows -1 and ny, columns -1 and
// nx) so that a 16-byte vector of V = 16 / sizeof(T) points always lies inside it. Each
// thread streams strips of two rows of a vector column through the block's planes, keeping
// the strip's u^n planes k-1, k, k+1 in registers; the vector's y neighbours come from the
// strip's other row and from shared memory,
// its x neighbours from the vector itself and, at its ends, from the neighbouring lanes
// (shuffles), and its z neighbours at the block's first and last plane from the blocks
// below and above (distributed shared memory). u^{n+1} overwrites u^{n-1} in place, as in
// the solver's two-field scheme, so the field the neighbours read during a step is never
// written during it and one barrier per step suffices.
//
// Walls, obstacles, sources and receivers run inside, as in persistent_l2.cu: a block
// computes its boundary nodes' values into the side buffer before its interior update
// (they read u^{n-1} at the node), then scatters them, zeroes its solid nodes and adds
// its sources; block 0 reads the receivers at the start of the next step (through
// distributed shared memory). The arithmetic of each node is the solver's other path
// (boundary_node.cuh, step_io.hpp, exact_update.cuh): the same bits.
//
// The walls, obstacles and sources come grouped by tiles of LaunchOptions::block (its z
// side 1, so each plane's tiles follow one another and a block's planes own a contiguous
// range of tiles); block.x * block.y is the number of threads per block.
#include <cooperative_groups.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>

#include "boundary/boundary_node.cuh"
#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/launch_geometry.hpp"
#include "cuda/kernels/leggy_vec.cuh"
#include "cuda/kernels/multi_step_one.hpp"
#include "cuda/kernels/seven_point.hpp"
#include "cuda/step_io.hpp"
#include "cuda/tiled_step.hpp"

namespace ws {

namespace {

namespace cg = cooperative_groups;

// Threads per block: at most 512, so that a thread may have the 128 registers the step
// needs without spilling (a 1024-thread block allows 64).
constexpr int kMaxThreads = 512;
constexpr int kMaxCluster = 16;  // non-portable cluster size (compute capability 9.0)

template <class T>
constexpr int kVec = 16 / (int)sizeof(T);

// Where a block's planes lie in its shared memory: plane p, row j (-1 .. ny), column i
// (-1 .. nx) of one field at p * plane + (j + 1) * pitch + kVec + i; the two fields
// (the launch's cur, then prev) one after the other.
struct OnChipLayout {
  int vx = 0;       // vectors per row: ceil(nx / kVec)
  int pitch = 0;    // elements per row: (vx + 2) * kVec (the halo columns and the last vector's tail inside)
  int plane = 0;    // elements per plane: pitch * (ny + 2)
  int planes = 0;   // planes per block (P)
  int blocks = 0;   // blocks of the cluster: ceil(nz / P)
};

template <class T>
__device__ __forceinline__ int local_offset(const OnChipLayout& g, int i, int j) {
  return (j + 1) * g.pitch + kVec<T> + i;
}

// A thread's 16-byte vector of a row (leggy_vec.cuh's packs and loads).
template <class T>
using Vec = lv::Pack<T, kVec<T>>;

template <class T>
__device__ __forceinline__ Vec<T> load_vec(const T* p) {
  return lv::ld<T, kVec<T>>(p);
}

template <class T>
__device__ __forceinline__ void store_vec(T* p, const Vec<T>& r) {
  if constexpr (sizeof(T) == 4) *reinterpret_cast<float4*>(p) = make_float4(r.v[0], r.v[1], r.v[2], r.v[3]);
  else *reinterpret_cast<double2*>(p) = make_double2(r.v[0], r.v[1]);
}

template <class T>
__device__ __forceinline__ Vec<T> zero_vec() {
  Vec<T> r;
#pragma unroll
  for (int l = 0; l < kVec<T>; ++l) r.v[l] = T(0);
  return r;
}

// The block's view of the cluster's u^n for one step: its own planes, the plane below its
// first (the block below's last, or the zero halo) and the one above its last.
template <class T>
struct StepView {
  const T* uc;     // own planes of u^n
  const T* below;  // plane k0 - 1 of u^n in the block below, null at the grid's bottom
  const T* above;  // plane k0 + np of u^n in the block above, null at the top
  int np;          // planes this block owns

  __device__ __forceinline__ T at(const OnChipLayout& g, int i, int j, int p) const {
    const int o = local_offset<T>(g, i, j);
    if (p < 0) return below ? below[o] : T(0);
    if (p >= np) return above ? above[o] : T(0);
    return uc[p * g.plane + o];
  }
};

// The interior coordinates of index q: FieldLayout::point in 32-bit arithmetic (a grid
// that fits in one cluster has far fewer than 2^31 elements), a few instructions where the
// 64-bit divisions cost a hundred on every boundary node, source and tap of every step.
__device__ __forceinline__ FieldLayout::Point local_point(const FieldLayout& L, int64_t q) {
  const uint32_t u = (uint32_t)q, plane = (uint32_t)L.plane, pitch = (uint32_t)L.pitch;
  const uint32_t k = u / plane, r = u - k * plane, j = r / pitch;
  return {(int)(r - j * pitch) - L.x0, (int)j - L.halo, (int)k - L.halo};
}

// u^n (field f of the launch) at global index q, from the block that owns it.
template <class T>
__device__ __forceinline__ T cluster_value(cg::cluster_group& cluster, T* field_local, const OnChipLayout& g,
                                           const FieldLayout& L, int64_t q) {
  const FieldLayout::Point pt = local_point(L, q);
  const int owner = pt.k / g.planes;
  const T* f = cluster.map_shared_rank(field_local, (unsigned)owner);
  return f[(pt.k - owner * g.planes) * g.plane + local_offset<T>(g, pt.i, pt.j)];
}

// A receiver tap as block 0 reads it every step: the owning block, the offset in its
// planes, the weight. Up to kCachedTaps taps are resolved once per launch into shared
// memory; more are resolved from the step data every step. Block 0 records the receivers
// of step n at the start of step n + 1, through distributed shared memory: the loads'
// latency then passes while its other warps update their columns. (Recording each
// receiver in the block that holds its taps, at the end of the step, from its own planes,
// measured slower: the block's extra barrier lies on every step's critical path.)
struct CachedTap {
  int owner, offset;
  double weight;
};
constexpr int kCachedTaps = 64;

template <class T>
__device__ __forceinline__ CachedTap resolve_tap(const OnChipLayout& g, const FieldLayout& L, const DeviceTap& t) {
  const FieldLayout::Point pt = local_point(L, t.index);
  const int owner = pt.k / g.planes;
  return {owner, (pt.k - owner * g.planes) * g.plane + local_offset<T>(g, pt.i, pt.j), t.weight};
}

// receiver_sample's sum (weights in double, in tap order) over u^n in the cluster's shared
// memory (field_local: the field's planes in this block; the same offset in every block).
template <class T>
__device__ void record_receivers(cg::cluster_group& cluster, T* field_local, const OnChipLayout& g,
                                 const FieldLayout& L, const TiledStepData<T>& io, const CachedTap* cached,
                                 long long slot) {
  for (int q = (int)threadIdx.x; q < io.nrec; q += (int)blockDim.x) {
    double v = 0.0;
    for (int t = io.tap_start[q]; t < io.tap_start[q + 1]; ++t) {
      const CachedTap c = cached ? cached[t] : resolve_tap<T>(g, L, io.taps[t]);
      v += c.weight * (double)cluster.map_shared_rank(field_local, (unsigned)c.owner)[c.offset];
    }
    io.rec_buf[slot * io.nrec + q] = T(v);
  }
}

// The interior update of every point of the block's planes [pb, pe): u^{n+1} into un
// (which holds u^{n-1}). Lanes past the grid's last column write the halo's zero. Only the
// first plane (pb = 0) reads the block below and only the last (pe = np) the block above.
//
// A thread streams a strip of kStripRows rows of one vector column: the rows' u^n are
// each other's y neighbours, so a plane of the strip loads kStripRows + 2 rows of u^n
// instead of 3 kStripRows, and the rows' independent chains of arithmetic interleave.
// A strip that reaches past the grid's last row computes that row (the halo's) without
// storing it. (Strips of 4 rows measured slower than 2 at 32^3-64^3: 127 registers a
// thread, and half the threads of a 512-thread block without a strip at 64^3. The plane
// loop unrolled twice: +4% at 64^3; four times: -2%.)
//
// The arithmetic is seven_point_update's, with each difference between two neighbours
// taken once: (u(x-1) - u(x)) is -(u(x) - u(x-1)) exactly in IEEE arithmetic, so a
// vector's V + 1 x differences serve its V points twice each, and the z difference
// towards plane p + 1 serves plane p + 1 again (negated) as its difference towards p.
// The negation is an operand modifier of the addition: the same bits in fewer instructions.
constexpr int kStripRows = 2;

template <class T>
__device__ __forceinline__ void interior_update(const StepView<T>& sv, T* un, const OnChipLayout& g,
                                                const FieldLayout& L, T w, int pb, int pe) {
  constexpr int V = kVec<T>, R = kStripRows;
  const int lane = (int)(threadIdx.x & 31u);
  const int strips = g.vx * ((L.ny + R - 1) / R);
  // Warp-uniform trip counts: every lane takes part in the shuffles.
  for (int c0 = (int)(threadIdx.x & ~31u); c0 < strips; c0 += (int)blockDim.x) {
    const int c = c0 + lane;
    const bool active = c < strips;
    const int cc = active ? c : strips - 1;
    const int vx = cc % g.vx, j0 = (cc / g.vx) * R;
    const int o = local_offset<T>(g, vx * V, j0);  // row j0's vector; row j0 + r at o + r * pitch
    const int above_rows = min(R, L.ny - j0) * g.pitch;  // the row after the strip's last (the halo at most)
    const bool first_in_row = vx == 0, last_in_row = vx == g.vx - 1;
    // A neighbouring lane holds the same row's next vector unless the row or the warp ends.
    const bool left_in_warp = lane > 0 && !first_in_row, right_in_warp = lane < 31 && !last_in_row;
    bool store[R];  // rows of the grid, by an active lane
#pragma unroll
    for (int r = 0; r < R; ++r) store[r] = active && j0 + r < L.ny;
    // The planes before pb and after pe - 1, loaded first: from the blocks below and above
    // (distributed shared memory) their latency overlaps the column's first planes.
    const T* after = pe < sv.np ? sv.uc + pe * g.plane : sv.above;
    const T* before = pb > 0 ? sv.uc + (pb - 1) * g.plane : sv.below;
    Vec<T> zc[R], dzm[R];  // u^n of the plane being updated; u(p) - u(p-1)
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const Vec<T> zb = before ? load_vec(before + o + r * g.pitch) : zero_vec<T>();
      zc[r] = load_vec(sv.uc + pb * g.plane + o + r * g.pitch);
#pragma unroll
      for (int l = 0; l < V; ++l) dzm[r].v[l] = zc[r].v[l] - zb.v[l];
    }
#pragma unroll 2
    for (int p = pb; p < pe; ++p) {
      const T* base = sv.uc + p * g.plane + o;
      const T* next = p + 1 < pe ? base + g.plane : (after ? after + o : nullptr);
      Vec<T> zp[R], old[R];
#pragma unroll
      for (int r = 0; r < R; ++r) zp[r] = next ? load_vec(next + r * g.pitch) : zero_vec<T>();
      const Vec<T> ym0 = load_vec(base - g.pitch), ypR = load_vec(base + above_rows);
      T* out = un + p * g.plane + o;
      // A lane or row not stored (past the last column or row) reads u^n there instead of
      // the u^{n-1} another lane overwrites.
#pragma unroll
      for (int r = 0; r < R; ++r) old[r] = load_vec<T>((store[r] ? out : base) + r * g.pitch);
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const Vec<T>& ym = r == 0 ? ym0 : zc[r - 1];
        const Vec<T>& yp = r == R - 1 ? ypR : zc[r + 1];
        const T* row = base + r * g.pitch;
        T xm = __shfl_up_sync(0xffffffffu, zc[r].v[V - 1], 1);
        T xp = __shfl_down_sync(0xffffffffu, zc[r].v[0], 1);
        if (!left_in_warp) xm = first_in_row ? T(0) : row[-1];
        if (!right_in_warp) xp = last_in_row ? T(0) : row[V];
        T dx[V + 1];  // dx[l] = u(l) - u(l-1) within the vector, dx[0] from xm, dx[V] to xp
        dx[0] = zc[r].v[0] - xm;
#pragma unroll
        for (int l = 1; l < V; ++l) dx[l] = zc[r].v[l] - zc[r].v[l - 1];
        dx[V] = xp - zc[r].v[V - 1];
        Vec<T> nw, dzp;
#pragma unroll
        for (int l = 0; l < V; ++l) {
          const T u = zc[r].v[l];
          dzp.v[l] = zp[r].v[l] - u;
          // axis_shell_diff: (((xm - u) + (xp - u)) + ((ym - u) + (yp - u))) + ((zm - u) + (zp - u))
          const T s = ((-dx[l] + dx[l + 1]) + ((ym.v[l] - u) + (yp.v[l] - u))) + (-dzm[r].v[l] + dzp.v[l]);
          const T v = fma(w, s, ex::leapfrog(u, old[r].v[l]));
          nw.v[l] = vx * V + l < L.nx ? v : T(0);
        }
        if (store[r]) store_vec(out + r * g.pitch, nw);
        dzm[r] = dzp;
      }
#pragma unroll
      for (int r = 0; r < R; ++r) zc[r] = zp[r];
    }
  }
}

// The interior points of the block's np planes from k0 on, both fields: from the field
// arrays into shared memory (ToChip) or back.
template <class T, bool ToChip>
__device__ __forceinline__ void copy_planes(T* f0, T* f1, T* cur, T* prev, const OnChipLayout& g,
                                            const FieldLayout& L, int k0, int np) {
  for (int e = (int)threadIdx.x; e < np * L.nx * L.ny; e += (int)blockDim.x) {
    const int i = e % L.nx, j = (e / L.nx) % L.ny, p = e / (L.nx * L.ny);
    const int64_t q = L.index(i, j, k0 + p);
    const int s = p * g.plane + local_offset<T>(g, i, j);
    if constexpr (ToChip) {
      f0[s] = cur[q];
      f1[s] = prev[q];
    } else {
      cur[q] = f0[s];
      prev[q] = f1[s];
    }
  }
}

template <class T, bool IO>
__global__ void __launch_bounds__(kMaxThreads, 1)
    cluster_onchip_kernel(T* cur, T* prev, int steps, FieldLayout L, T w, OnChipLayout g, TiledStepData<T> io) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ __align__(16) unsigned char smem_raw[];
  cg::cluster_group cluster = cg::this_cluster();
  const int rank = (int)cluster.block_rank();
  T* f0 = reinterpret_cast<T*>(smem_raw);  // cur's planes
  T* f1 = f0 + (size_t)g.planes * g.plane;  // prev's
  CachedTap* taps = reinterpret_cast<CachedTap*>(f1 + (size_t)g.planes * g.plane);  // kCachedTaps, block 0
  const int k0 = rank * g.planes;
  const int np = min(g.planes, L.nz - k0);
  const int tid = (int)threadIdx.x, nth = (int)blockDim.x;

  // Both fields of the block's planes, the halo ring zero.
  for (int e = tid; e < 2 * g.planes * g.plane; e += nth) f0[e] = T(0);
  __syncthreads();
  copy_planes<T, true>(f0, f1, cur, prev, g, L, k0, np);
  cluster.sync();  // every block's planes are loaded before any is read

  T* lower = rank > 0 ? cluster.map_shared_rank(f0, (unsigned)(rank - 1)) : nullptr;
  T* upper = rank + 1 < g.blocks ? cluster.map_shared_rank(f0, (unsigned)(rank + 1)) : nullptr;
  const size_t field = (size_t)g.planes * g.plane;  // the second field's offset, the same in every block

  // The tiles of the block's planes (tiles are one plane deep).
  const int per_plane = io.tiles.nx * io.tiles.ny;
  const int t0 = k0 * per_plane, t1 = (k0 + np) * per_plane;
  const int b0 = IO && io.bnd_start ? io.bnd_start[t0] : 0, b1 = IO && io.bnd_start ? io.bnd_start[t1] : 0;
  const int s0 = IO && io.solid_start ? io.solid_start[t0] : 0, s1 = IO && io.solid_start ? io.solid_start[t1] : 0;
  const int q0 = IO && io.src_start ? io.src_start[t0] : 0, q1 = IO && io.src_start ? io.src_start[t1] : 0;
  // This thread's first source (q0 + tid) and where it lies; its value of each step is
  // loaded at the step's start, so the load's latency passes during the interior update.
  const int my_src = q0 + tid;
  int my_src_at = 0;
  if (IO && my_src < q1) {
    const FieldLayout::Point pt = local_point(L, io.src[my_src].index);
    my_src_at = (pt.k - k0) * g.plane + local_offset<T>(g, pt.i, pt.j);
  }
  const int ntaps = IO && io.nrec > 0 ? io.tap_start[io.nrec] : 0;
  const bool taps_cached = ntaps <= kCachedTaps;
  if (IO && rank == 0 && taps_cached)
    for (int t = tid; t < ntaps; t += nth) taps[t] = resolve_tap<T>(g, L, io.taps[t]);
  __syncthreads();
  const CachedTap* cached = taps_cached ? taps : nullptr;
  const bool receivers = IO && rank == 0 && io.nrec > 0;

  // One cluster barrier per step. (Splitting it, the planes that read only the block's own
  // planes updated between the block's arrival and its wait, measured slower: a third of
  // the column set-up again for the first and last planes, 63 against 69 Gpoints/s at 64^3.)
  for (int s = 0; s < steps; ++s) {
    const bool even = s % 2 == 0;
    T* uc = even ? f0 : f1;
    T* un = even ? f1 : f0;
    StepView<T> sv;
    sv.uc = uc;
    sv.np = np;
    sv.below = lower ? lower + (even ? 0 : field) + (size_t)(g.planes - 1) * g.plane : nullptr;
    sv.above = upper ? upper + (even ? 0 : field) : nullptr;
    T my_add = T(0);
    if constexpr (IO) {
      if (my_src < q1)
        my_add = io.src_value ? io.src_value[(size_t)s * io.nsrc + my_src]
                              : source_addition<T>(io.src[my_src], io.step0 + s, io.dt);
      if (s > 0 && receivers) record_receivers<T>(cluster, uc, g, L, io, cached, io.slot0 + s - 1);
      if (b1 > b0) {
        for (int b = b0 + tid; b < b1; b += nth) {
          const FieldLayout::Point pt = local_point(L, io.bnd_node[b]);
          const int p = pt.k - k0;
          const uint8_t m = io.bnd_mask[b];
          const T nb[6] = {(m & 1u) ? sv.at(g, pt.i - 1, pt.j, p) : T(0), (m & 2u) ? sv.at(g, pt.i + 1, pt.j, p) : T(0),
                           (m & 4u) ? sv.at(g, pt.i, pt.j - 1, p) : T(0), (m & 8u) ? sv.at(g, pt.i, pt.j + 1, p) : T(0),
                           (m & 16u) ? sv.at(g, pt.i, pt.j, p - 1) : T(0), (m & 32u) ? sv.at(g, pt.i, pt.j, p + 1) : T(0)};
          const int o = p * g.plane + local_offset<T>(g, pt.i, pt.j);
          io.side[b] = boundary_value(uc[o], nb, un[o], m, io.bnd_nfixed[b], io.bnd_cd[b], io.bnd_cl[b]);
        }
        __syncthreads();  // the side values read u^{n-1} at nodes the interior update overwrites
      }
    }
    interior_update<T>(sv, un, g, L, w, 0, np);
    if constexpr (IO) {
      if (b1 > b0 || s1 > s0) {
        __syncthreads();  // the interior values of those nodes are written before they are replaced
        for (int b = b0 + tid; b < b1; b += nth) {
          const FieldLayout::Point pt = local_point(L, io.bnd_node[b]);
          un[(pt.k - k0) * g.plane + local_offset<T>(g, pt.i, pt.j)] = io.side[b];
        }
        for (int x = s0 + tid; x < s1; x += nth) {
          const FieldLayout::Point pt = local_point(L, io.solid[x]);
          un[(pt.k - k0) * g.plane + local_offset<T>(g, pt.i, pt.j)] = T(0);
        }
      }
      if (q1 > q0) {
        __syncthreads();  // a source adds to the node's final value
        if (my_src < q1) atomicAdd(un + my_src_at, my_add);
        for (int x = my_src + nth; x < q1; x += nth) {
          const FieldLayout::Point pt = local_point(L, io.src[x].index);
          atomicAdd(un + (pt.k - k0) * g.plane + local_offset<T>(g, pt.i, pt.j),
                    io.src_value ? io.src_value[(size_t)s * io.nsrc + x] : source_addition<T>(io.src[x], io.step0 + s, io.dt));
        }
      }
    }
    cluster.sync();  // u^{n+1} of every block is final before the next step reads it
  }
  if constexpr (IO) {
    if (steps > 0 && receivers) record_receivers<T>(cluster, steps % 2 == 1 ? f1 : f0, g, L, io, cached, io.slot0 + steps - 1);
    cluster.sync();  // no block leaves while block 0 reads its planes
  }
  copy_planes<T, false>(f0, f1, cur, prev, g, L, k0, np);
#endif
}

std::string block_error_onchip(const Stencil&, Precision, const BlockShape& b) {
  if (b.x < 1 || b.y < 1 || b.z != 1 || b.threads() > kMaxThreads || b.threads() % 32 != 0)
    return "block " + std::to_string(b.x) + "x" + std::to_string(b.y) + "x" + std::to_string(b.z) +
           " is not allowed: z 1, x * y a multiple of 32 and at most " + std::to_string(kMaxThreads) +
           " (the threads of each block; the walls and sources are grouped by its x and y)";
  return "";
}

BlockShape block_for_onchip(const Stencil&, Precision) { return BlockShape{32, 16, 1}; }

// The device facts the launch needs, cached per device.
struct DeviceFacts {
  int major = 0;
  size_t smem_optin = 0;
};
std::mutex facts_mutex;
std::map<int, DeviceFacts> facts_cache;
std::map<std::tuple<int, const void*, int, size_t, int>, bool> fits_cache;  // (dev, kernel, threads, smem, cluster)

DeviceFacts device_facts() {
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  std::lock_guard<std::mutex> lock(facts_mutex);
  auto it = facts_cache.find(dev);
  if (it != facts_cache.end()) return it->second;
  DeviceFacts f;
  int optin = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&f.major, cudaDevAttrComputeCapabilityMajor, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  f.smem_optin = (size_t)optin;
  return facts_cache[dev] = f;
}

// A block's dynamic shared memory: both fields of its planes, then block 0's cached taps.
template <class T>
size_t onchip_smem_bytes(const OnChipLayout& g) {
  return 2 * (size_t)g.planes * g.plane * sizeof(T) + kCachedTaps * sizeof(CachedTap);
}

// The planes per block that fit the grid into one cluster of at most kMaxCluster blocks
// whose shared memory holds both fields of their planes; throws std::invalid_argument
// naming the sizes when none does.
template <class T>
OnChipLayout onchip_layout(const FieldLayout& L, size_t smem_optin) {
  OnChipLayout g;
  g.vx = (L.nx + kVec<T> - 1) / kVec<T>;
  g.pitch = (g.vx + 2) * kVec<T>;
  g.plane = g.pitch * (L.ny + 2);
  g.planes = (L.nz + kMaxCluster - 1) / kMaxCluster;
  g.blocks = (L.nz + g.planes - 1) / g.planes;
  const size_t bytes = onchip_smem_bytes<T>(g);
  if (bytes > smem_optin) {
    const size_t per_plane = 2 * (size_t)g.plane * sizeof(T);
    const long long max_nz = (long long)(smem_optin / per_plane) * kMaxCluster;
    throw std::invalid_argument(
        "kernel 'cluster_onchip': the grid's " + std::to_string(L.nx) + "x" + std::to_string(L.ny) + "x" +
        std::to_string(L.nz) + " points need " + std::to_string(bytes >> 10) + " KiB of shared memory per block (" +
        std::to_string(g.planes) + " planes of both fields), more than the " + std::to_string(smem_optin >> 10) +
        " KiB a block may have; with planes of " + std::to_string(L.nx) + "x" + std::to_string(L.ny) +
        " it runs at most " + std::to_string(max_nz) + " planes in " + to_string(precision_of<T>()) + " (one cluster of " +
        std::to_string(kMaxCluster) + " blocks)");
  }
  return g;
}

// Why the grid cannot run here ("" when it can): the device's compute capability or the
// shared memory of one cluster.
std::string grid_error_onchip(int nx, int ny, int nz, Precision p) {
  try {
    const DeviceFacts dev = device_facts();
    if (dev.major < 9)
      return "kernel 'cluster_onchip' needs thread-block clusters (compute capability 9.0 or later); this device "
             "has compute capability " + std::to_string(dev.major) + ".x";
    FieldLayout L;
    L.nx = nx, L.ny = ny, L.nz = nz;
    if (p == Precision::Float) (void)onchip_layout<float>(L, dev.smem_optin);
    else (void)onchip_layout<double>(L, dev.smem_optin);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

template <class T>
int launch_multi(const MultiStepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  if (a.steps <= 0) return 0;
  const std::string why = block_error_onchip(*a.stencil, precision_of<T>(), o.block);
  if (!why.empty()) throw std::invalid_argument("kernel 'cluster_onchip': " + why);
  const std::string grid_why = grid_error_onchip(a.layout.nx, a.layout.ny, a.layout.nz, precision_of<T>());
  if (!grid_why.empty()) throw std::invalid_argument(grid_why);
  const OnChipLayout g = onchip_layout<T>(a.layout, device_facts().smem_optin);
  const T w = seven_point_coeffs(StepArgs<T>{a.prev, a.cur, a.layout, a.stencil, a.lambda2}).neighbour;
  TiledStepData<T> io;
  if (a.io) io = *a.io;
  else io.tiles = make_tile_grid(a.layout, TileShape{o.block.x, o.block.y, o.block.z});
  if (io.tiles.shape.x != o.block.x || io.tiles.shape.y != o.block.y || io.tiles.shape.z != 1)
    throw std::invalid_argument("kernel 'cluster_onchip': the step data is grouped by tiles of another block");
  const bool with_io =
      a.io && (a.io->bnd_count > 0 || a.io->solid_count > 0 || a.io->nsrc > 0 || a.io->nrec > 0);
  const void* kernel = with_io ? (const void*)cluster_onchip_kernel<T, true> : (const void*)cluster_onchip_kernel<T, false>;
  const size_t smem = onchip_smem_bytes<T>(g);
  const int threads = o.block.threads();

  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = (unsigned)g.blocks;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3((unsigned)g.blocks);
  cfg.blockDim = dim3((unsigned)threads);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  {
    int devno = 0;
    CUDA_CHECK(cudaGetDevice(&devno));
    std::lock_guard<std::mutex> lock(facts_mutex);
    const auto key = std::make_tuple(devno, kernel, threads, smem, g.blocks);
    auto it = fits_cache.find(key);
    if (it == fits_cache.end()) {
      CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
      CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
      int clusters = 0;
      CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg));
      it = fits_cache.emplace(key, clusters > 0).first;
    } else {
      CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    }
    if (!it->second)
      throw std::invalid_argument("kernel 'cluster_onchip': this device cannot run a cluster of " +
                                  std::to_string(g.blocks) + " blocks of " + std::to_string(threads) + " threads and " +
                                  std::to_string(smem >> 10) + " KiB of shared memory each");
  }
  // With sources, runs of at most src_value_steps steps, each after a small kernel that
  // computes the run's source values (the signals' double arithmetic stays out of the
  // step); a run ends with the fields written back and the next one loads them again.
  const bool values = with_io && io.nsrc > 0 && io.src_value && io.src_value_steps > 0;
  if (!values) io.src_value = nullptr;
  const int run_max = values ? io.src_value_steps : a.steps;
  T* c = a.cur;
  T* p = a.prev;
  int launches = 0;
  for (int s0 = 0; s0 < a.steps; s0 += run_max) {
    const int run = std::min(a.steps - s0, run_max);
    TiledStepData<T> d = io;
    d.step0 = io.step0 + s0;
    d.slot0 = io.slot0 + s0;
    if (values) {
      const int n = io.nsrc * run;
      source_values_kernel<T><<<(n + 255) / 256, 256, 0, stream>>>(io.src, io.nsrc, nullptr, d.step0, run, io.dt,
                                                                    io.src_value);
      CUDA_CHECK_LAUNCH();
      ++launches;
    }
    if (with_io) CUDA_CHECK(cudaLaunchKernelEx(&cfg, cluster_onchip_kernel<T, true>, c, p, run, a.layout, w, g, d));
    else CUDA_CHECK(cudaLaunchKernelEx(&cfg, cluster_onchip_kernel<T, false>, c, p, run, a.layout, w, g, d));
    CUDA_CHECK_LAUNCH();
    ++launches;
    if (run % 2) std::swap(c, p);  // u^n of the next run is where this one left it
  }
  return launches;
}

}  // namespace

void register_cluster_onchip_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "cluster_onchip";
  v.name = "persistent, the whole grid in one thread-block cluster's shared memory";
  v.family = "ours";
  v.stencils = "7pt";
  v.supports = supports_seven_point;
  v.default_block = {32, 16, 1};
  v.block_for = block_for_onchip;
  v.block_error = block_error_onchip;
  v.grid_error = grid_error_onchip;
  v.block_uses_z = false;
  v.has_readonly_toggle = false;
  v.graph_capturable = false;  // it replaces the step graph: a launch is already many steps
  v.launch_float = one_step_through_multi<float, launch_multi<float>>;
  v.launch_double = one_step_through_multi<double, launch_multi<double>>;
  v.multi_float = launch_multi<float>;
  v.multi_double = launch_multi<double>;
  v.room_blocks = {{32, 16, 1}, {32, 8, 1}};
  r.add(v);
}

}  // namespace ws
