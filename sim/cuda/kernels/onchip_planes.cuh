#pragma once
// What the kernels that hold the whole grid in shared memory share (cluster_onchip.cu: one
// thread-block cluster, neighbours read through distributed shared memory;
// spread_onchip.cu: up to one block per SM, neighbours' edge planes through L2): the
// planes' layout on chip, the vectorised interior update of a block's planes, the copies
// between the field arrays and the chip, and the walls, obstacles and sources of a block's
// planes. The arithmetic of each node is the solver's other path (boundary_node.cuh,
// step_io.hpp, exact_update.cuh): the same bits.
//
// The walls, obstacles and sources come grouped by tiles of LaunchOptions::block (its z
// side 1, so each plane's tiles follow one another and a block's planes own a contiguous
// range of tiles); block.x * block.y is the number of threads per block.
#include <cuda_runtime.h>

#include <algorithm>
#include <initializer_list>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>

#include "boundary/boundary_node.cuh"
#include "core/cuda_check.hpp"
#include "core/field_layout.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/leggy_vec.cuh"
#include "cuda/step_io.hpp"
#include "cuda/tiled_step.hpp"

namespace ws {
namespace onchip {

// Threads per block: at most 512, so that a thread may have the 128 registers the step
// needs without spilling (a 1024-thread block allows 64).
constexpr int kMaxThreads = 512;

template <class T>
constexpr int kVec = 16 / (int)sizeof(T);

// Where a block's planes lie in its shared memory: plane p, row j (-1 .. ny), column i
// (-1 .. nx) of one field at p * plane + (j + 1) * pitch + kVec + i; the two fields
// (the launch's cur, then prev) one after the other. spread_onchip's edge planes in global
// memory have the same layout per plane.
struct OnChipLayout {
  int vx = 0;       // vectors per row: ceil(nx / kVec)
  int pitch = 0;    // elements per row: (vx + 2) * kVec (the halo columns and the last vector's tail inside)
  int plane = 0;    // elements per plane: pitch * (ny + 2)
  int planes = 0;   // planes per block (P)
  int blocks = 0;   // blocks of the launch: ceil(nz / P)
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

// The block's view of u^n for one step: its own planes, the plane below its first (the
// block below's last, or the zero halo) and the one above its last (in the neighbours'
// shared memory for cluster_onchip, in global memory for spread_onchip).
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
// held on chip has far fewer than 2^31 elements), a few instructions where the
// 64-bit divisions cost a hundred on every boundary node, source and tap of every step.
__device__ __forceinline__ FieldLayout::Point local_point(const FieldLayout& L, int64_t q) {
  const uint32_t u = (uint32_t)q, plane = (uint32_t)L.plane, pitch = (uint32_t)L.pitch;
  const uint32_t k = u / plane, r = u - k * plane, j = r / pitch;
  return {(int)(r - j * pitch) - L.x0, (int)j - L.halo, (int)k - L.halo};
}

// A receiver tap resolved once per launch: the block whose planes hold it, the offset in
// them, the weight.
struct CachedTap {
  int owner, offset;
  double weight;
};
constexpr int kCachedTaps = 64;

// The interior update of every point of the block's planes [pb, pe): u^{n+1} into un
// (which holds u^{n-1}). Lanes past the grid's last column write the halo's zero. Only the
// first plane (pb = 0) reads the block below and only the last (pe = np) the block above.
// Publish: the vectors of the block's first and last planes are also stored into `edges`
// (global memory, plane k0 + p at (k0 + p) * plane, spread_onchip's view for its
// neighbours); a row past the grid's last is stored in neither.
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
//
// Hook: which rows the pass leaves to another and what the room changes in a row's new
// values before they are stored (spread_onchip's slow rows and z face planes); NoRoom:
// nothing. hook.strip(vx, j0, k, store) at a strip's start (k: its first global plane; the
// hook may clear store[r] to leave row j0 + r to another pass: it is then neither written
// nor published, and its u^{n-1} stays as it was), and
// hook.row(r, k, i0, j, nw, u, old, xm, xp, ym, yp, zm, zp) for each of its rows with a
// grid row (zm: the row's u^n in the plane below, kept in registers from the plane before
// only where a hook reads it; a load of it from the block below would put L2's latency on
// every row of the block's first plane).
constexpr int kStripRows = 2;

struct NoRoom {
  template <class... A>
  __device__ __forceinline__ void strip(A&&...) {}
  template <class... A>
  __device__ __forceinline__ void row(A&&...) {}
};

template <class T, bool Publish, class Hook>
__device__ __forceinline__ void interior_update_hooked(const StepView<T>& sv, T* un, const OnChipLayout& g,
                                                       const FieldLayout& L, T w, int pb, int pe, T* edges, int k0,
                                                       Hook& hook) {
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
    // The planes before pb and after pe - 1 come from the blocks below and above
    // (distributed shared memory, or L2 for spread_onchip). The plane after the one being
    // updated is loaded a plane ahead (zn), so that the first plane's neighbours on both
    // sides are loaded together: a strip of one plane waits for the far memory once, not
    // twice.
    const T* after = pe < sv.np ? sv.uc + pe * g.plane : sv.above;
    const T* before = pb > 0 ? sv.uc + (pb - 1) * g.plane : sv.below;
    auto plane_after = [&](int p) -> const T* {
      return p + 1 < pe ? sv.uc + (p + 1) * g.plane + o : after ? after + o : nullptr;
    };
    hook.strip(vx, j0, k0 + pb, store);
    Vec<T> zc[R], zm[R], zn[R], dzm[R];  // u^n of planes p, p - 1 and p + 1; u(p) - u(p-1)
    {
      const T* first_after = plane_after(pb);
#pragma unroll
      for (int r = 0; r < R; ++r) {
        zm[r] = before ? load_vec(before + o + r * g.pitch) : zero_vec<T>();
        zc[r] = load_vec(sv.uc + pb * g.plane + o + r * g.pitch);
        zn[r] = first_after ? load_vec(first_after + r * g.pitch) : zero_vec<T>();
      }
    }
#pragma unroll
    for (int r = 0; r < R; ++r)
#pragma unroll
      for (int l = 0; l < V; ++l) dzm[r].v[l] = zc[r].v[l] - zm[r].v[l];
#pragma unroll 2
    for (int p = pb; p < pe; ++p) {
      const T* base = sv.uc + p * g.plane + o;
      Vec<T> zp[R], old[R];
#pragma unroll
      for (int r = 0; r < R; ++r) zp[r] = zn[r];
      if (p + 1 < pe) {
        const T* next = plane_after(p + 1);
#pragma unroll
        for (int r = 0; r < R; ++r) zn[r] = next ? load_vec(next + r * g.pitch) : zero_vec<T>();
      }
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
        if (store[r]) hook.row(r, k0 + p, vx * V, j0 + r, nw, zc[r], old[r], xm, xp, ym, yp, zm[r], zp[r]);
        if (store[r]) {
          store_vec(out + r * g.pitch, nw);
          if (Publish && (p == 0 || p == sv.np - 1))
            store_vec(edges + (size_t)(k0 + p) * g.plane + o + r * g.pitch, nw);
        }
        dzm[r] = dzp;
      }
#pragma unroll
      for (int r = 0; r < R; ++r) {
        zm[r] = zc[r];
        zc[r] = zp[r];
      }
    }
  }
}

template <class T, bool Publish = false>
__device__ __forceinline__ void interior_update(const StepView<T>& sv, T* un, const OnChipLayout& g,
                                                const FieldLayout& L, T w, int pb, int pe, T* edges = nullptr,
                                                int k0 = 0) {
  NoRoom none;
  interior_update_hooked<T, Publish>(sv, un, g, L, w, pb, pe, edges, k0, none);
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


// The block's ranges in the step data's tile-ordered arrays (boundary nodes, solid nodes,
// sources), and the thread's first source: its value of each step is loaded at the step's
// start, so that the load's latency passes during the interior update.
struct BlockNodes {
  int b0 = 0, b1 = 0, s0 = 0, s1 = 0, q0 = 0, q1 = 0;
  int my_src = 0, my_src_at = 0;  // q0 + threadIdx.x, and its offset in the block's planes
};

template <class T, bool IO>
__device__ __forceinline__ BlockNodes block_nodes(const TiledStepData<T>& io, const OnChipLayout& g,
                                                  const FieldLayout& L, int k0, int np) {
  BlockNodes n;
  if constexpr (IO) {
    const int per_plane = io.tiles.nx * io.tiles.ny;  // tiles are one plane deep
    const int t0 = k0 * per_plane, t1 = (k0 + np) * per_plane;
    if (io.bnd_start) n.b0 = io.bnd_start[t0], n.b1 = io.bnd_start[t1];
    if (io.solid_start) n.s0 = io.solid_start[t0], n.s1 = io.solid_start[t1];
    if (io.src_start) n.q0 = io.src_start[t0], n.q1 = io.src_start[t1];
    n.my_src = n.q0 + (int)threadIdx.x;
    if (n.my_src < n.q1) {
      const FieldLayout::Point pt = local_point(L, io.src[n.my_src].index);
      n.my_src_at = (pt.k - k0) * g.plane + local_offset<T>(g, pt.i, pt.j);
    }
  }
  return n;
}

// The addition of source x in step s of the launch: precomputed, or from its signal.
template <class T>
__device__ __forceinline__ T source_of_step(const TiledStepData<T>& io, int x, int s) {
  return io.src_value ? io.src_value[(size_t)s * io.nsrc + x] : source_addition<T>(io.src[x], io.step0 + s, io.dt);
}

// The boundary nodes' u^{n+1} of the block's planes into the side buffer, before the
// interior update overwrites the u^{n-1} they read.
template <class T>
__device__ __forceinline__ void boundary_side_values(const StepView<T>& sv, const T* uc, const T* un,
                                                     const OnChipLayout& g, const FieldLayout& L,
                                                     const TiledStepData<T>& io, const BlockNodes& n, int k0) {
  if (n.b1 <= n.b0) return;
  for (int b = n.b0 + (int)threadIdx.x; b < n.b1; b += (int)blockDim.x) {
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

// After the interior update: the boundary nodes' values from the side buffer, the solid
// nodes' zero and the sources' additions of step s (my_add: the thread's first source's)
// into un. Publish: the final values on the block's first and last planes also into `edges`
// (as interior_update<T, true>).
template <class T, bool Publish = false>
__device__ __forceinline__ void finish_nodes(T* un, const OnChipLayout& g, const FieldLayout& L,
                                             const TiledStepData<T>& io, const BlockNodes& n, int k0, int np, int s,
                                             T my_add, T* edges = nullptr) {
  const int tid = (int)threadIdx.x, nth = (int)blockDim.x;
  auto publish = [&](int p, int o, T v) {
    if (Publish && (p == 0 || p == np - 1)) edges[(size_t)(k0 + p) * g.plane + o] = v;
  };
  if (n.b1 > n.b0 || n.s1 > n.s0) {
    __syncthreads();  // the interior values of those nodes are written before they are replaced
    for (int b = n.b0 + tid; b < n.b1; b += nth) {
      const FieldLayout::Point pt = local_point(L, io.bnd_node[b]);
      const int o = local_offset<T>(g, pt.i, pt.j);
      const T v = io.side[b];
      un[(pt.k - k0) * g.plane + o] = v;
      publish(pt.k - k0, o, v);
    }
    for (int x = n.s0 + tid; x < n.s1; x += nth) {
      const FieldLayout::Point pt = local_point(L, io.solid[x]);
      const int o = local_offset<T>(g, pt.i, pt.j);
      un[(pt.k - k0) * g.plane + o] = T(0);
      publish(pt.k - k0, o, T(0));
    }
  }
  if (n.q1 > n.q0) {
    __syncthreads();  // a source adds to the node's final value
    if (n.my_src < n.q1) atomicAdd(un + n.my_src_at, my_add);
    for (int x = n.my_src + nth; x < n.q1; x += nth) {
      const FieldLayout::Point pt = local_point(L, io.src[x].index);
      atomicAdd(un + (pt.k - k0) * g.plane + local_offset<T>(g, pt.i, pt.j), source_of_step(io, x, s));
    }
    if constexpr (Publish) {
      __syncthreads();  // every addition to a node is in before its sum is published
      for (int x = n.q0 + tid; x < n.q1; x += nth) {
        const FieldLayout::Point pt = local_point(L, io.src[x].index);
        const int o = local_offset<T>(g, pt.i, pt.j);
        publish(pt.k - k0, o, un[(pt.k - k0) * g.plane + o]);
      }
    }
  }
}

// A block of the on-chip kernels: z 1, x * y a multiple of 32 and at most kMaxThreads.
inline std::string block_error(const BlockShape& b) {
  if (b.x < 1 || b.y < 1 || b.z != 1 || b.threads() > kMaxThreads || b.threads() % 32 != 0)
    return "block " + std::to_string(b.x) + "x" + std::to_string(b.y) + "x" + std::to_string(b.z) +
           " is not allowed: z 1, x * y a multiple of 32 and at most " + std::to_string(kMaxThreads) +
           " (the threads of each block; the walls and sources are grouped by its x and y)";
  return "";
}

// A block's flag of the steps it has published, as the persistent kernels that meet
// through flags instead of a grid barrier read and raise it (spread_onchip, brick_onchip):
// the acquire orders the reader's later loads after it, the release the writer's earlier
// stores before it.
__device__ __forceinline__ int load_acquire(const int* p) {
  int v;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__device__ __forceinline__ void store_release(int* p, int v) {
  asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// Stream-ordered memory for one launch of a persistent kernel, cut into parts of the given
// sizes (each from a 256-byte boundary): the caller's scratch fields (`fields`, of
// `fields_bytes`; KernelVariant::multi_scratch_fields) when they hold every part, else
// memory allocated on the stream for the launch and freed after it (a single step, or a
// run too short for the solver to have made its scratch).
class LaunchScratch {
 public:
  static constexpr int kMaxParts = 4;
  LaunchScratch(void* fields, size_t fields_bytes, std::initializer_list<size_t> parts, cudaStream_t stream)
      : stream_(stream) {
    size_t need = 0;
    int n = 0;
    for (size_t bytes : parts) {
      if (n == kMaxParts) throw std::logic_error("LaunchScratch: more than 4 parts");
      offset_[n++] = need;
      need += (bytes + 255) / 256 * 256;
    }
    base_ = static_cast<unsigned char*>(fields);
    if (!base_ || need > fields_bytes) {
      CUDA_CHECK(cudaMallocAsync(&own_, need, stream));
      base_ = static_cast<unsigned char*>(own_);
    }
  }
  ~LaunchScratch() {
    if (own_) (void)cudaFreeAsync(own_, stream_);  // a destructor does not throw; the stream reports later errors
  }
  LaunchScratch(const LaunchScratch&) = delete;
  LaunchScratch& operator=(const LaunchScratch&) = delete;

  template <class U>
  U* part(int i) const {
    return reinterpret_cast<U*>(base_ + offset_[i]);
  }

 private:
  cudaStream_t stream_;
  unsigned char* base_ = nullptr;
  size_t offset_[kMaxParts] = {};
  void* own_ = nullptr;
};

// The device facts the launches need, cached per device.
struct DeviceFacts {
  int major = 0;
  int sms = 0;
  size_t smem_optin = 0;
};

inline std::mutex& facts_mutex() {
  static std::mutex m;
  return m;
}

inline DeviceFacts device_facts() {
  static std::map<int, DeviceFacts> cache;
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  std::lock_guard<std::mutex> lock(facts_mutex());
  auto it = cache.find(dev);
  if (it != cache.end()) return it->second;
  DeviceFacts f;
  int optin = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&f.major, cudaDevAttrComputeCapabilityMajor, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&f.sms, cudaDevAttrMultiProcessorCount, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  f.smem_optin = (size_t)optin;
  return cache[dev] = f;
}

// Sets `kernel`'s dynamic shared memory to `smem` bytes and checks that `blocks` blocks of
// `threads` threads can be resident at once, as a cooperative launch needs (the occupancy
// is cached per device, kernel, block and shared memory); throws std::invalid_argument
// naming the kernel `id` and the sizes when they cannot.
inline void ensure_resident(const void* kernel, int threads, size_t smem, int blocks, const DeviceFacts& dev,
                            const char* id) {
  static std::mutex m;
  static std::map<std::tuple<int, const void*, int, size_t>, int> per_sm_cache;
  int devno = 0;
  CUDA_CHECK(cudaGetDevice(&devno));
  std::lock_guard<std::mutex> lock(m);
  CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  const auto key = std::make_tuple(devno, kernel, threads, smem);
  auto it = per_sm_cache.find(key);
  if (it == per_sm_cache.end()) {
    int per_sm = 0;
    CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
    it = per_sm_cache.emplace(key, per_sm).first;
  }
  if ((long long)it->second * dev.sms < blocks)
    throw std::invalid_argument(std::string("kernel '") + id + "': this device cannot keep " + std::to_string(blocks) +
                                " blocks of " + std::to_string(threads) + " threads and " +
                                std::to_string(smem >> 10) + " KiB of shared memory resident at once");
}

// The row layout of the grid's planes on chip (OnChipLayout's vx, pitch and plane).
template <class T>
OnChipLayout row_layout(const FieldLayout& L) {
  OnChipLayout g;
  g.vx = (L.nx + kVec<T> - 1) / kVec<T>;
  g.pitch = (g.vx + 2) * kVec<T>;
  g.plane = g.pitch * (L.ny + 2);
  return g;
}

// Steps `a.steps` as runs of at most src_value_steps steps when `values` (the sources'
// additions computed by a small kernel before each run, so that the signals' double
// arithmetic stays out of the step), else as one run; launch(d, cur, prev, run) queues one
// run's kernel with d's step0 and slot0 set. A run ends with the fields written back, the
// next loads them again. Returns the launches queued.
template <class T, class Launch>
int launch_source_runs(const MultiStepArgs<T>& a, TiledStepData<T> io, bool values, cudaStream_t stream,
                       Launch&& launch) {
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
    launch(d, c, p, run);
    CUDA_CHECK_LAUNCH();
    ++launches;
    if (run % 2) std::swap(c, p);  // u^n of the next run is where this one left it
  }
  return launches;
}

}  // namespace onchip
}  // namespace ws
