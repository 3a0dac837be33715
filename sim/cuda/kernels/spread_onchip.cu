// A persistent 7-point kernel for grids whose two fields fit in the shared memory of the
// whole GPU (up to one block per SM, 227 KiB each on compute capability 9.0: about 3.7 M
// points in float on 132 SMs): the fields are loaded once per launch, stay on chip for
// every step of it, and are written back at its end. Where cluster_onchip.cu puts the
// grid into the 16 SMs of one cluster, this kernel spreads it over every SM, so each SM
// updates a tenth of the points per step; the price is that neighbouring blocks exchange
// their edge planes through L2 instead of distributed shared memory, and meet through
// flags instead of a hardware barrier.
//
// Block r owns the z planes [r P, r P + P) (the last block fewer), both fields of them, in
// onchip_planes.cuh's layout (the update is that file's). Walls, obstacles and sources go
// by face class and column events apart from the bare update where the solver built them
// (Room::Faces, below), else by the tiles' lists of onchip_planes.cuh.
// Each step it also stores its first and last planes of u^{n+1} into `edges` (global
// memory, two parities: the planes of u^{n+1} never overwrite those of u^n a neighbour may
// still read), then raises its flag to the number of steps published. A block starts a
// step once both neighbours' flags say their u^n planes are out: a wait on two flags, not
// on the grid, so blocks run up to a step apart and no grid-wide barrier lies on the path.
// The parity suffices: a block writes parity (n+1) % 2 only after both neighbours have
// published u^n, that is, finished the step that read parity (n-1) % 2.
//
// Receivers: a receiver is recorded by the block that owns the lowest plane of its taps, at
// the start of the next step, from its own planes and the block above's first plane in
// `edges`. A receiver whose taps span more than two planes cannot be read so, and the
// launch refuses it (trilinear taps span two).
//
// The launch is cooperative: every block is resident at once, which the flags need.
#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>

#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/column_events.hpp"
#include "cuda/kernels/fused_steps.cuh"
#include "cuda/kernels/multi_step_one.hpp"
#include "cuda/kernels/onchip_planes.cuh"
#include "cuda/kernels/seven_point.hpp"
#include "cuda/step_io.hpp"
#include "cuda/tiled_step.hpp"

namespace ws {

namespace {

using namespace onchip;

__device__ __forceinline__ int load_acquire(const int* p) {
  int v;
  asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}

__device__ __forceinline__ void store_release(int* p, int v) {
  asm volatile("st.release.gpu.global.s32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// Waits until the blocks below and above have published `published` steps (their planes of
// u^n for n = published - 1 are in `edges`). Two warps poll, one per neighbour (one warp
// both in a block of 32 threads); their acquires and the block barrier order every
// thread's later loads after the flags.
__device__ __forceinline__ void wait_for_neighbours(const int* flags, int rank, int blocks, int published) {
  if (threadIdx.x == 0 && rank > 0)
    while (load_acquire(flags + rank - 1) < published) {
    }
  if (threadIdx.x == (blockDim.x > 32 ? 32u : 0u) && rank + 1 < blocks)
    while (load_acquire(flags + rank + 1) < published) {
    }
  __syncthreads();
}

// After the block barrier, every thread's stores to `edges` are ordered before the release.
__device__ __forceinline__ void publish_steps(int* flags, int rank, int published) {
  __syncthreads();
  if (threadIdx.x == 0) store_release(flags + rank, published);
}

// The block's first and last planes of field f into `edges` (at launch start, for u^n).
template <class T>
__device__ void copy_edge_planes(const T* f, T* edges, const OnChipLayout& g, const FieldLayout& L, int k0, int np) {
  const int per_plane = g.vx * L.ny;
  const int planes = np > 1 ? 2 : 1;
  for (int e = (int)threadIdx.x; e < planes * per_plane; e += (int)blockDim.x) {
    const int p = e < per_plane ? 0 : np - 1;
    const int v = e % per_plane;
    const int o = local_offset<T>(g, (v % g.vx) * kVec<T>, v / g.vx);
    store_vec(edges + (size_t)(k0 + p) * g.plane + o, load_vec(f + p * g.plane + o));
  }
}

// The receivers a block records: those whose lowest tap plane is one of its planes (a
// receiver without taps: block 0, its sum 0). Resolved once per launch into shared memory,
// each tap as its offset in the block's planes or, for the plane above its last, in the
// block above's first plane in `edges` (CachedTap::owner 0 or 1); a step then costs a
// shared-memory read per tap and, for taps above, one L2 load, not the chain of dependent
// loads through the step data that put about 5 us on the recording block's every step.
// Blocks whose receivers have more than kCachedTaps taps in all resolve them every step.
struct BlockReceivers {
  int count, taps, overflow;
  int q[kCachedTaps], first[kCachedTaps], n[kCachedTaps];
  CachedTap tap[kCachedTaps];
};

__device__ __forceinline__ int lowest_tap_plane(const FieldLayout& L, const DeviceTap* taps, int t0, int t1) {
  int lowest = t0 < t1 ? L.nz : 0;
  for (int t = t0; t < t1; ++t) lowest = min(lowest, local_point(L, taps[t].index).k);
  return lowest;
}

template <class T>
__device__ void cache_receivers(BlockReceivers& br, const OnChipLayout& g, const FieldLayout& L,
                                const TiledStepData<T>& io, int k0, int np) {
  if (threadIdx.x == 0) br.count = br.taps = br.overflow = 0;
  __syncthreads();
  for (int q = (int)threadIdx.x; q < io.nrec; q += (int)blockDim.x) {
    const int t0 = io.tap_start[q], t1 = io.tap_start[q + 1];
    const int lowest = lowest_tap_plane(L, io.taps, t0, t1);
    if (lowest < k0 || lowest >= k0 + np) continue;
    const int first = atomicAdd(&br.taps, t1 - t0), r = atomicAdd(&br.count, 1);
    if (first + (t1 - t0) > kCachedTaps || r >= kCachedTaps) {
      br.overflow = 1;
      continue;
    }
    br.q[r] = q;
    br.first[r] = first;
    br.n[r] = t1 - t0;
    for (int t = t0; t < t1; ++t) {
      const FieldLayout::Point pt = local_point(L, io.taps[t].index);
      const bool above = pt.k >= k0 + np;
      br.tap[first + t - t0] = {above ? 1 : 0, (above ? 0 : (pt.k - k0) * g.plane) + local_offset<T>(g, pt.i, pt.j),
                                io.taps[t].weight};
    }
  }
  __syncthreads();
}

// receiver_sample's sum (weights in double, in tap order) of each of the block's receivers
// over u^n (uc, the block's planes; above, u^n's plane above them in `edges`).
template <class T>
__device__ void record_receivers(const BlockReceivers& br, const T* uc, const T* above, const OnChipLayout& g,
                                 const FieldLayout& L, const TiledStepData<T>& io, int k0, int np, long long slot) {
  if (!br.overflow) {
    for (int r = (int)threadIdx.x; r < br.count; r += (int)blockDim.x) {
      double v = 0.0;
      for (int t = br.first[r]; t < br.first[r] + br.n[r]; ++t) {
        const CachedTap c = br.tap[t];
        v += c.weight * (double)(c.owner ? above[c.offset] : uc[c.offset]);
      }
      io.rec_buf[slot * io.nrec + br.q[r]] = T(v);
    }
    return;
  }
  for (int q = (int)threadIdx.x; q < io.nrec; q += (int)blockDim.x) {
    const int t0 = io.tap_start[q], t1 = io.tap_start[q + 1];
    const int lowest = lowest_tap_plane(L, io.taps, t0, t1);
    if (lowest < k0 || lowest >= k0 + np) continue;
    double v = 0.0;
    for (int t = t0; t < t1; ++t) {
      const FieldLayout::Point pt = local_point(L, io.taps[t].index);
      const int o = local_offset<T>(g, pt.i, pt.j);
      v += io.taps[t].weight * (double)(pt.k < k0 + np ? uc[(pt.k - k0) * g.plane + o] : above[o]);
    }
    io.rec_buf[slot * io.nrec + q] = T(v);
  }
}

// The block's has_events bits: bit kStripRows c + r says that row r of strip c (vector
// column c % vx, rows from (c / vx) kStripRows) has column events (column_events.hpp,
// TiledStepData::grp: the events of each group of a vector's columns) in the block's
// planes. Their number of words:
__host__ __device__ inline int event_words(const OnChipLayout& g) {
  const int ny = g.plane / g.pitch - 2;
  return (g.vx * ((ny + kStripRows - 1) / kStripRows) * kStripRows + 31) / 32;
}

// Sets the block's has_events bits (the words zeroed before).
template <class T>
__device__ void mark_event_rows(uint32_t* has_events, const TiledStepData<T>& io, const OnChipLayout& g,
                                const FieldLayout& L, int k0, int np) {
  const int strips = g.vx * ((L.ny + kStripRows - 1) / kStripRows);
  for (int c = (int)threadIdx.x; c < strips; c += (int)blockDim.x) {
    const int vx = c % g.vx, j0 = (c / g.vx) * kStripRows;
    for (int r = 0; r < kStripRows && j0 + r < L.ny; ++r) {
      int e = 0, e_end = 0;
      listed_events_at(io.grp, vx + g.vx * (j0 + r), k0, e, e_end);
      const int bit = c * kStripRows + r;
      if (e < e_end && __ldg(io.grp.k + e) < k0 + np) atomicOr(has_events + (bit >> 5), 1u << (bit & 31));
    }
  }
}

// The room apart from the bare update (Room::Faces). A row of a vector column (vx, j) is
// slow when it lies on a face of the box (vx the first or last vector of a row, j the
// first or last row) or has column events in the block's planes; every other row of every
// plane that is not a z face runs the bare update, whose stores skip the slow rows
// (SlowRows below); the z face planes run the same update with the face class's boundary
// coefficients on every lane (FacePlane); and the slow rows run one vector column at a
// time over the block's planes with the whole room's arithmetic (slow_column). The three
// write disjoint nodes of u^{n+1} and read u^n, which no one writes during the step, and
// each node's own u^{n-1}: no barrier between them. Every node's arithmetic is the
// solver's per-step path's (boundary_node.cuh, step_io.hpp: the same bits), and the
// update of the rows without a face or an event carries none of its code.
//
// A thread meets the same strips in the same order in every pass of every step
// (interior_update_hooked's loop), so the slow rows of its first kMaskRounds strips are
// bits of a register, set at launch start (mask_rounds), and a strip costs a shift, not
// loads from shared memory ahead of the strip's first loads; `round` counts the strips of
// the pass (a hook is made for each pass).
template <class T>
struct SlowRows {
  static constexpr int R = kStripRows, kMaskRounds = 64 / R;
  const uint32_t* has_events;  // the block's has_events bits
  int vx_last, ny, gvx;
  uint64_t mask = 0;  // bit R round + r: row r of the thread's strip of that round is slow
  int round = 0;

  __device__ __forceinline__ bool has_event(int vx, int j) const {
    const int bit = (vx + gvx * (j / R)) * R + j % R;
    return (has_events[bit >> 5] >> (bit & 31)) & 1u;
  }
  __device__ __forceinline__ bool slow(int vx, int j) const {
    return vx == 0 || vx == vx_last || j == 0 || j == ny - 1 || has_event(vx, j);
  }
  __device__ __forceinline__ void strip(int vx, int j0, int, bool (&store)[R]) {
    if (round < kMaskRounds) {
      const uint64_t bits = mask >> (R * round);
#pragma unroll
      for (int r = 0; r < R; ++r)
        if ((bits >> r) & 1u) store[r] = false;
    } else {
#pragma unroll
      for (int r = 0; r < R; ++r)
        if (store[r] && slow(vx, j0 + r)) store[r] = false;
    }
    ++round;
  }
  template <class... A>
  __device__ __forceinline__ void row(A&&...) const {}

  // The mask of the thread's strips, as interior_update_hooked walks them.
  __device__ void mask_rounds() {
    const int strips = gvx * ((ny + R - 1) / R), lane = (int)(threadIdx.x & 31u);
    mask = 0;
    int n = 0;
    for (int c0 = (int)(threadIdx.x & ~31u); c0 < strips && n < kMaskRounds; c0 += (int)blockDim.x, ++n) {
      const int c = min(c0 + lane, strips - 1), vx = c % gvx, j0 = (c / gvx) * R;
      for (int r = 0; r < R; ++r)
        if (j0 + r < ny && slow(vx, j0 + r)) mask |= uint64_t(1) << (R * n + r);
    }
  }
};

// A z face plane's rows that are not slow: each lane a node of the face class `cc`
// (9: z = 0, 18: z = nz - 1; no x or y face), its boundary value. Mask: the class's
// neighbours known at compile time (all but the one outside, no fixed-wall neighbour:
// what a z face of an absorbing or rigid wall has), so that the value's arithmetic is
// boundary_value's without a test per neighbour and the interior value the update
// computed first is dead code; Mask 0: cc's own mask and fixed-wall count.
template <class T, int Mask>
struct FacePlane : SlowRows<T> {
  static constexpr int V = kVec<T>;
  ClassCoeffs<T> cc;
  int nx;

  __device__ __forceinline__ void row(int, int, int i0, int, Vec<T>& nw, const Vec<T>& u, const Vec<T>& old, T xm,
                                      T xp, const Vec<T>& ym, const Vec<T>& yp, const Vec<T>& zm,
                                      const Vec<T>& zp) const {
#pragma unroll
    for (int l = 0; l < V; ++l) {
      const T nb[6] = {l == 0 ? xm : u.v[l - 1], l == V - 1 ? xp : u.v[l + 1], ym.v[l], yp.v[l], zm.v[l], zp.v[l]};
      if constexpr (Mask != 0)
        nw.v[l] = i0 + l < nx ? boundary_value(u.v[l], nb, old.v[l], (uint8_t)Mask, (uint8_t)0, cc.cd, cc.cl) : T(0);
      else if (i0 + l < nx)
        nw.v[l] = boundary_value(u.v[l], nb, old.v[l], cc.mask, cc.n_fixed, cc.cd, cc.cl);
    }
  }
};

// The z face plane p of the block (face class cc) by FacePlane, or by the plain update
// where the class has no boundary coefficients (a fixed wall lies on the halo).
template <class T, int Mask>
__device__ __forceinline__ void face_plane(const StepView<T>& sv, T* un, const OnChipLayout& g, const FieldLayout& L,
                                           T w, int p, T* edges, int k0, const SlowRows<T>& rows,
                                           const ClassCoeffs<T>& cc) {
  if (!cc.on) {
    SlowRows<T> plain = rows;
    interior_update_hooked<T, true>(sv, un, g, L, w, p, p + 1, edges, k0, plain);
  } else if (cc.mask == Mask && cc.n_fixed == 0) {
    FacePlane<T, Mask> face{rows, cc, L.nx};
    interior_update_hooked<T, true>(sv, un, g, L, w, p, p + 1, edges, k0, face);
  } else {
    FacePlane<T, 0> face{rows, cc, L.nx};
    interior_update_hooked<T, true>(sv, un, g, L, w, p, p + 1, edges, k0, face);
  }
}

// Vector column (vx, j) of every plane of the block: the interior update, the face class's
// boundary value (from `classes`, the table in shared memory), the column's events, stored
// and, on the block's
// first and last planes, published.
template <class T>
__device__ void slow_column(const StepView<T>& sv, T* un, const OnChipLayout& g, const FieldLayout& L, T w,
                            const TiledStepData<T>& io, const ClassCoeffs<T>* classes, const T* src_value,
                            bool events, int vx, int j, T* edges, int k0) {
  constexpr int V = kVec<T>;
  const int i0 = vx * V, o = local_offset<T>(g, i0, j);
  int e = 0, e_end = 0, next_k = INT_MAX;
  if (events) {
    listed_events_at(io.grp, vx + g.vx * j, k0, e, e_end);
    if (e < e_end) next_k = __ldg(io.grp.k + e);
  }
  const int fy3 = 3 * (j == 0 ? 1 : j == L.ny - 1 ? 2 : 0);
  Vec<T> zm = sv.below ? load_vec(sv.below + o) : zero_vec<T>();
  Vec<T> zc = load_vec(sv.uc + o);
  for (int p = 0; p < sv.np; ++p) {
    const T* base = sv.uc + p * g.plane + o;
    const Vec<T> zp = p + 1 < sv.np ? load_vec(base + g.plane) : sv.above ? load_vec(sv.above + o) : zero_vec<T>();
    const Vec<T> ym = load_vec(base - g.pitch), yp = load_vec(base + g.pitch);
    const T xm = vx == 0 ? T(0) : base[-1], xp = vx == g.vx - 1 ? T(0) : base[V];
    T* out = un + p * g.plane + o;
    const Vec<T> old = load_vec(out);
    const int k = k0 + p, fz9 = k == 0 ? 9 : k == L.nz - 1 ? 18 : 0;
    auto neighbours = [&](int l, T (&nb)[6]) {
      nb[0] = l == 0 ? xm : zc.v[l - 1];
      nb[1] = l == V - 1 ? xp : zc.v[l + 1];
      nb[2] = ym.v[l];
      nb[3] = yp.v[l];
      nb[4] = zm.v[l];
      nb[5] = zp.v[l];
    };
    Vec<T> nw;
#pragma unroll
    for (int l = 0; l < V; ++l) {
      T nb[6];
      neighbours(l, nb);
      nw.v[l] = i0 + l < L.nx ? ex::seven_point_update(zc.v[l], old.v[l], nb[0], nb[1], nb[2], nb[3], nb[4], nb[5], w)
                              : T(0);
      const int cls = (i0 + l == 0 ? 1 : i0 + l == L.nx - 1 ? 2 : 0) + fy3 + fz9;  // as face_class
      if (i0 + l < L.nx && cls != 0) {
        const ClassCoeffs<T>& cc = classes[cls];
        if (cc.on) nw.v[l] = boundary_value(zc.v[l], nb, old.v[l], cc.mask, cc.n_fixed, cc.cd, cc.cl);
      }
    }
    if (k == next_k) {
      do {
        const EventRecord<T> rec = load_event_record(io.grp.rec + e);
        const int lane = (rec.flags >> 16) & 0xff;
#pragma unroll
        for (int l = 0; l < V; ++l) {
          if (l != lane) continue;
          T nb[6];
          neighbours(l, nb);
          const T v_int = ex::seven_point_update(zc.v[l], old.v[l], nb[0], nb[1], nb[2], nb[3], nb[4], nb[5], w);
          nw.v[l] = apply_event(rec.code, nw.v[l], v_int, zc.v[l], nb, old.v[l], src_value, [&] {
            return EventCoeffs<T>{(uint8_t)(rec.flags & 0xff), (uint8_t)((rec.flags >> 8) & 0xff), rec.cd, rec.cl};
          });
        }
        ++e;
      } while (e < e_end && __ldg(io.grp.k + e) == k);
      next_k = e < e_end ? __ldg(io.grp.k + e) : INT_MAX;
    }
    store_vec(out, nw);
    if (p == 0 || p == sv.np - 1) store_vec(edges + (size_t)k * g.plane + o, nw);
    zm = zc;
    zc = zp;
  }
}

// The block's slow rows: the x faces' vector columns (vx 0 and the last) of every row, the
// y faces' rows (j 0 and ny - 1) between them, then the rows with events listed at launch
// start (list_rows, `rows` of them, as vx + vx_count * j).
struct SlowTasks {
  int xcols, x_tasks, yrows, y_tasks, rows;
  const int* list;

  __device__ __forceinline__ int count() const { return x_tasks + y_tasks + rows; }
  __device__ __forceinline__ void at(int t, const OnChipLayout& g, int ny, int& vx, int& j) const {
    if (t < x_tasks) {
      vx = t % xcols ? g.vx - 1 : 0;
      j = t / xcols;
    } else if (t < x_tasks + y_tasks) {
      t -= x_tasks;
      vx = 1 + t / yrows;
      j = t % yrows ? ny - 1 : 0;
    } else {
      const int col = list[t - x_tasks - y_tasks];
      vx = col % g.vx;
      j = col / g.vx;
    }
  }
};

__device__ __forceinline__ SlowTasks slow_tasks(const OnChipLayout& g, int ny, const int* list, int rows) {
  SlowTasks t;
  t.xcols = g.vx > 1 ? 2 : 1;
  t.x_tasks = t.xcols * ny;
  t.yrows = ny > 1 ? 2 : 1;
  t.y_tasks = max(g.vx - 2, 0) * t.yrows;
  t.rows = rows;
  t.list = list;
  return t;
}

// Lists the rows with events that are not on an x or y face (those run anyway) into `list`
// (the block's part of the scratch, vx_count * ny entries); returns their number to every
// thread. The order does not matter: each row's nodes are its own.
__device__ int list_event_rows(const uint32_t* has_events, int* list, int* count, const OnChipLayout& g, int ny) {
  if (threadIdx.x == 0) *count = 0;
  __syncthreads();
  const int bits = g.vx * ((ny + kStripRows - 1) / kStripRows) * kStripRows;
  for (int x = (int)threadIdx.x; x < (bits + 31) / 32; x += (int)blockDim.x) {
    uint32_t word = has_events[x];
    while (word) {
      const int b = x * 32 + __ffs(word) - 1;
      word &= word - 1;
      const int c = b / kStripRows, vx = c % g.vx, j = (c / g.vx) * kStripRows + b % kStripRows;
      if (vx == 0 || vx == g.vx - 1 || j == 0 || j >= ny - 1) continue;
      list[atomicAdd(count, 1)] = vx + g.vx * j;
    }
  }
  __syncthreads();
  return *count;
}

// How a launch runs the room: none (the bare interior), the walls, solids and sources of
// the block's tiles (onchip_planes.cuh: side buffer, scatter, atomic sources), or face
// classes and column events apart from the bare update (SlowRows, FacePlane,
// slow_column), where the solver built them.
enum class Room { Bare, Tiles, Faces };

template <class T, Room M>
__global__ void __launch_bounds__(kMaxThreads, 1)
    spread_onchip_kernel(T* cur, T* prev, int steps, FieldLayout L, T w, OnChipLayout g, TiledStepData<T> io,
                         T* edges, int* flags, int* lists) {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const int rank = (int)blockIdx.x;
  T* f0 = reinterpret_cast<T*>(smem_raw);   // cur's planes
  T* f1 = f0 + (size_t)g.planes * g.plane;  // prev's
  BlockReceivers& br = *reinterpret_cast<BlockReceivers*>(f1 + (size_t)g.planes * g.plane);
  ClassCoeffs<T>* classes = reinterpret_cast<ClassCoeffs<T>*>(&br + 1);
  uint32_t* has_events = reinterpret_cast<uint32_t*>(classes + kFaceClasses);
  int* event_count = reinterpret_cast<int*>(has_events + event_words(g));
  const int k0 = rank * g.planes;
  const int np = min(g.planes, L.nz - k0);
  const int tid = (int)threadIdx.x, nth = (int)blockDim.x;
  const size_t parity = (size_t)L.nz * g.plane;  // elements of one parity of `edges`

  // Both fields of the block's planes, the halo ring zero; u^n's edge planes published.
  for (int e = tid; e < 2 * g.planes * g.plane; e += nth) f0[e] = T(0);
  __syncthreads();
  copy_planes<T, true>(f0, f1, cur, prev, g, L, k0, np);
  __syncthreads();
  copy_edge_planes<T>(f0, edges, g, L, k0, np);
  if constexpr (M == Room::Faces)
    for (int c = tid; c < kFaceClasses; c += nth) classes[c] = load_class_coeffs(io.class_coeffs + c);
  if constexpr (M == Room::Faces) {
    for (int x = tid; x < event_words(g); x += nth) has_events[x] = 0u;
    __syncthreads();
    mark_event_rows<T>(has_events, io, g, L, k0, np);
  }
  publish_steps(flags, rank, 1);

  constexpr bool IO = M != Room::Bare;
  const BlockNodes n = block_nodes<T, M == Room::Tiles>(io, g, L, k0, np);
  const bool receivers = IO && io.nrec > 0;
  if (receivers) cache_receivers<T>(br, g, L, io, k0, np);
  int* const row_list = lists + (size_t)rank * g.vx * L.ny;
  int event_rows = 0;
  SlowRows<T> slow_rows{has_events, g.vx - 1, L.ny, g.vx};
  // The slow rows go first to the warps with one strip fewer in the update's last round,
  // which would otherwise wait for the others at the step's end.
  const int heavy = ((g.vx * ((L.ny + kStripRows - 1) / kStripRows)) % nth + 31) / 32 * 32;
  const int first_task = (tid - heavy + nth) % nth;
  if constexpr (M == Room::Faces) {
    event_rows = list_event_rows(has_events, row_list, event_count, g, L.ny);
    slow_rows.mask_rounds();
  }
  for (int s = 0; s < steps; ++s) {
    const bool even = s % 2 == 0;
    T* uc = even ? f0 : f1;
    T* un = even ? f1 : f0;
    const T* edges_c = edges + (even ? 0 : parity);  // u^n's edge planes
    T* edges_n = edges + (even ? parity : 0);        // u^{n+1}'s
    wait_for_neighbours(flags, rank, g.blocks, s + 1);
    StepView<T> sv;
    sv.uc = uc;
    sv.np = np;
    sv.below = rank > 0 ? edges_c + (size_t)(k0 - 1) * g.plane : nullptr;
    sv.above = rank + 1 < g.blocks ? edges_c + (size_t)(k0 + np) * g.plane : nullptr;
    if constexpr (IO) {
      if (s > 0 && receivers) record_receivers<T>(br, uc, sv.above, g, L, io, k0, np, io.slot0 + s - 1);
    }
    if constexpr (M == Room::Faces) {
      // The z faces' planes (a one-plane grid's only plane is the bottom's, as face_class
      // has it), the rest of the block's planes, then the slow rows of all of them.
      const bool bottom = k0 == 0, top = k0 + np == L.nz && !(bottom && np == 1);
      const int pb = bottom ? 1 : 0, pe = top ? np - 1 : np;
      if (pb < pe) {
        SlowRows<T> rows = slow_rows;
        interior_update_hooked<T, true>(sv, un, g, L, w, pb, pe, edges_n, k0, rows);
      }
      if (bottom) face_plane<T, 0x3f & ~16>(sv, un, g, L, w, 0, edges_n, k0, slow_rows, classes[9]);
      if (top) face_plane<T, 0x3f & ~32>(sv, un, g, L, w, np - 1, edges_n, k0, slow_rows, classes[18]);
      const T* src = io.src_value ? io.src_value + (size_t)s * io.nsrc : nullptr;
      const SlowTasks tasks = slow_tasks(g, L.ny, row_list, event_rows);
      for (int t = first_task; t < tasks.count(); t += nth) {
        int vx, j;
        tasks.at(t, g, L.ny, vx, j);
        slow_column<T>(sv, un, g, L, w, io, classes, src, slow_rows.has_event(vx, j), vx, j, edges_n, k0);
      }
    } else {
      T my_add = T(0);
      if constexpr (M == Room::Tiles) {
        if (n.my_src < n.q1) my_add = source_of_step(io, n.my_src, s);
        boundary_side_values<T>(sv, uc, un, g, L, io, n, k0);
      }
      interior_update<T, true>(sv, un, g, L, w, 0, np, edges_n, k0);
      if constexpr (M == Room::Tiles) finish_nodes<T, true>(un, g, L, io, n, k0, np, s, my_add, edges_n);
    }
    publish_steps(flags, rank, s + 2);
  }
  if constexpr (IO) {
    if (steps > 0 && receivers) {
      wait_for_neighbours(flags, rank, g.blocks, steps + 1);
      const T* edges_last = edges + (steps % 2 == 1 ? parity : 0);
      record_receivers<T>(br, steps % 2 == 1 ? f1 : f0,
                          rank + 1 < g.blocks ? edges_last + (size_t)(k0 + np) * g.plane : nullptr, g, L, io, k0, np,
                          io.slot0 + steps - 1);
    }
  }
  copy_planes<T, false>(f0, f1, cur, prev, g, L, k0, np);
}

std::string block_error_spread(const Stencil&, Precision, const BlockShape& b) { return onchip::block_error(b); }

BlockShape block_for_spread(const Stencil&, Precision) { return BlockShape{32, 16, 1}; }

// A block's dynamic shared memory: both fields of its planes, its receivers, the face
// classes' table, the has_events bits, the count of its rows with events.
static_assert(sizeof(BlockReceivers) % 16 == 0, "the face classes' table follows the receivers, 16-byte aligned");
template <class T>
size_t spread_smem_bytes(const OnChipLayout& g) {
  return 2 * (size_t)g.planes * g.plane * sizeof(T) + sizeof(BlockReceivers) + kFaceClasses * sizeof(ClassCoeffs<T>) +
         (size_t)event_words(g) * sizeof(uint32_t) + sizeof(int);
}

// One block per SM at most, each with the fewest planes that make that many blocks enough;
// throws std::invalid_argument naming the sizes when their shared memory does not hold them.
template <class T>
OnChipLayout spread_layout(const FieldLayout& L, const DeviceFacts& dev) {
  OnChipLayout g = row_layout<T>(L);
  g.planes = (L.nz + dev.sms - 1) / dev.sms;
  g.blocks = (L.nz + g.planes - 1) / g.planes;
  const size_t bytes = spread_smem_bytes<T>(g);
  if (bytes > dev.smem_optin) {
    const size_t per_plane = 2 * (size_t)g.plane * sizeof(T);
    const long long max_nz = (long long)(dev.smem_optin / per_plane) * dev.sms;
    throw std::invalid_argument(
        "kernel 'spread_onchip': the grid's " + std::to_string(L.nx) + "x" + std::to_string(L.ny) + "x" +
        std::to_string(L.nz) + " points need " + std::to_string(bytes >> 10) + " KiB of shared memory per block (" +
        std::to_string(g.planes) + " planes of both fields, one block on each of the device's " +
        std::to_string(dev.sms) + " SMs), more than the " + std::to_string(dev.smem_optin >> 10) +
        " KiB a block may have; with planes of " + std::to_string(L.nx) + "x" + std::to_string(L.ny) +
        " it runs at most " + std::to_string(max_nz) + " planes in " + to_string(precision_of<T>()));
  }
  return g;
}

// Why the grid cannot run here ("" when it can): the shared memory of the device's SMs.
std::string grid_error_spread(int nx, int ny, int nz, Precision p) {
  try {
    const DeviceFacts dev = device_facts();
    FieldLayout L;
    L.nx = nx, L.ny = ny, L.nz = nz;
    if (p == Precision::Float) (void)spread_layout<float>(L, dev);
    else (void)spread_layout<double>(L, dev);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// The flags, both parities of every plane in the on-chip layout and each block's list of
// rows with events (Room::Faces), in the caller's scratch fields when they hold them, else
// in memory allocated on the stream for the launch (a single step, or a run too short for
// the solver to have made its scratch) and freed after it.
constexpr int kScratchFields = 3;  // KernelVariant::multi_scratch_fields

template <class T>
class EdgeScratch {
 public:
  EdgeScratch(const MultiStepArgs<T>& a, const OnChipLayout& g, bool lists_needed, cudaStream_t stream)
      : stream_(stream) {
    const size_t flag_bytes = ((size_t)g.blocks * sizeof(int) + 255) / 256 * 256;
    const size_t edge_bytes = (2 * (size_t)a.layout.nz * g.plane * sizeof(T) + 255) / 256 * 256;
    const size_t list_bytes = lists_needed ? (size_t)g.blocks * g.vx * a.layout.ny * sizeof(int) : 0;
    const size_t need = flag_bytes + edge_bytes + list_bytes;
    void* base = a.scratch;
    if (!base || need > kScratchFields * (size_t)a.layout.total * sizeof(T)) {
      CUDA_CHECK(cudaMallocAsync(&own_, need, stream));
      base = own_;
    }
    flags = reinterpret_cast<int*>(base);
    edges = reinterpret_cast<T*>(reinterpret_cast<unsigned char*>(base) + flag_bytes);
    lists = reinterpret_cast<int*>(reinterpret_cast<unsigned char*>(base) + flag_bytes + edge_bytes);
  }
  ~EdgeScratch() {
    if (own_) (void)cudaFreeAsync(own_, stream_);  // a destructor does not throw; the stream reports later errors
  }
  EdgeScratch(const EdgeScratch&) = delete;
  EdgeScratch& operator=(const EdgeScratch&) = delete;

  int* flags = nullptr;
  T* edges = nullptr;
  int* lists = nullptr;

 private:
  cudaStream_t stream_;
  void* own_ = nullptr;
};

std::mutex fits_mutex;
std::map<std::tuple<int, const void*, int, size_t>, int> fits_cache;  // (dev, kernel, threads, smem): blocks per SM

template <class T>
int launch_multi(const MultiStepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  if (a.steps <= 0) return 0;
  const std::string why = block_error_spread(*a.stencil, precision_of<T>(), o.block);
  if (!why.empty()) throw std::invalid_argument("kernel 'spread_onchip': " + why);
  const DeviceFacts dev = device_facts();
  const OnChipLayout g = spread_layout<T>(a.layout, dev);
  const T w = seven_point_coeffs(StepArgs<T>{a.prev, a.cur, a.layout, a.stencil, a.lambda2}).neighbour;
  TiledStepData<T> io;
  if (a.io) io = *a.io;
  else io.tiles = make_tile_grid(a.layout, TileShape{o.block.x, o.block.y, o.block.z});
  if (io.tiles.shape.x != o.block.x || io.tiles.shape.y != o.block.y || io.tiles.shape.z != 1)
    throw std::invalid_argument("kernel 'spread_onchip': the step data is grouped by tiles of another block");
  if (a.io && a.io->nrec > 0 && a.io->tap_planes > 2)
    throw std::invalid_argument("kernel 'spread_onchip': a receiver's taps span " + std::to_string(a.io->tap_planes) +
                                " z planes; it records a receiver from at most two (nearest or trilinear taps)");
  const bool with_io =
      a.io && (a.io->bnd_count > 0 || a.io->solid_count > 0 || a.io->nsrc > 0 || a.io->nrec > 0);
  const bool values = with_io && io.nsrc > 0 && io.src_value && io.src_value_steps > 0;
  // The faces need the face classes, the events listed per vector group and, for sources,
  // their values computed before each run. A room without boundary or solid nodes (fixed
  // walls) keeps the tiles' path: its few sources cost a barrier in their blocks, where the
  // slow rows of the faces cost every step (run 309: the fixed-wall 24 kHz shoebox at
  // 89,810 steps/s by the faces, 126,590 by the tiles).
  const bool faces = with_io && (io.bnd_count > 0 || io.solid_count > 0) && io.class_coeffs && io.grp.rec &&
                     io.grp.width == kVec<T> && (io.nsrc == 0 || values);
  const Room mode = !with_io ? Room::Bare : faces ? Room::Faces : Room::Tiles;
  const void* kernel = mode == Room::Bare    ? (const void*)spread_onchip_kernel<T, Room::Bare>
                       : mode == Room::Tiles ? (const void*)spread_onchip_kernel<T, Room::Tiles>
                                             : (const void*)spread_onchip_kernel<T, Room::Faces>;
  const size_t smem = spread_smem_bytes<T>(g);
  const int threads = o.block.threads();
  {
    int devno = 0;
    CUDA_CHECK(cudaGetDevice(&devno));
    std::lock_guard<std::mutex> lock(fits_mutex);
    const auto key = std::make_tuple(devno, kernel, threads, smem);
    auto it = fits_cache.find(key);
    CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    if (it == fits_cache.end()) {
      int per_sm = 0;
      CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, smem));
      it = fits_cache.emplace(key, per_sm).first;
    }
    if ((long long)it->second * dev.sms < g.blocks)
      throw std::invalid_argument("kernel 'spread_onchip': this device cannot keep " + std::to_string(g.blocks) +
                                  " blocks of " + std::to_string(threads) + " threads and " +
                                  std::to_string(smem >> 10) + " KiB of shared memory resident at once");
  }
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeCooperative;
  attr[0].val.cooperative = 1;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3((unsigned)g.blocks);
  cfg.blockDim = dim3((unsigned)threads);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  const EdgeScratch<T> parts(a, g, mode == Room::Faces, stream);
  // Each run starts its flags at 0.
  return launch_source_runs(a, io, values, stream, [&](const TiledStepData<T>& d, T* c, T* p, int run) {
    CUDA_CHECK(cudaMemsetAsync(parts.flags, 0, (size_t)g.blocks * sizeof(int), stream));
    auto go = [&](auto kernel_fn) {
      CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel_fn, c, p, run, a.layout, w, g, d, parts.edges, parts.flags,
                                    parts.lists));
    };
    if (mode == Room::Faces) go(spread_onchip_kernel<T, Room::Faces>);
    else if (mode == Room::Tiles) go(spread_onchip_kernel<T, Room::Tiles>);
    else go(spread_onchip_kernel<T, Room::Bare>);
  });
}

}  // namespace

void register_spread_onchip_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "spread_onchip";
  v.name = "persistent, the whole grid in the shared memory of every SM, edge planes through L2";
  v.family = "ours";
  v.stencils = "7pt";
  v.supports = supports_seven_point;
  v.default_block = {32, 16, 1};
  v.block_for = block_for_spread;
  v.block_error = block_error_spread;
  v.grid_error = grid_error_spread;
  v.block_uses_z = false;
  v.has_readonly_toggle = false;
  v.graph_capturable = false;  // it replaces the step graph: a launch is already many steps
  v.launch_float = one_step_through_multi<float, launch_multi<float>>;
  v.launch_double = one_step_through_multi<double, launch_multi<double>>;
  v.multi_float = launch_multi<float>;
  v.multi_double = launch_multi<double>;
  v.multi_scratch_fields = kScratchFields;  // the flags, both parities of the edge planes, the rows with events
  v.multi_event_vector_bytes = 16;  // the column events per group of a vector's columns
  v.multi_uses_column_events = true;
  v.room_blocks = {{32, 16, 1}, {32, 8, 1}};
  r.add(v);
}

}  // namespace ws
