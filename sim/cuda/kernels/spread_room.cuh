#pragma once
// spread_onchip's rooms apart from the bare update (spread_onchip.cu, Room::Faces): which
// rows of a block's planes are slow (on an x or y face of the box, or with column events in
// the block's planes), the hooks that make the on-chip update skip them (SlowRows) or run a
// z face plane with its face class (FacePlane), and the slow rows' own update, one vector
// column at a time (slow_column), with the tasks that spread them over a block's threads.
#include <cuda_runtime.h>

#include <climits>
#include <cstdint>

#include "boundary/boundary_node.cuh"
#include "cuda/column_events.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/fused_steps.cuh"
#include "cuda/kernels/onchip_planes.cuh"
#include "cuda/tiled_step.hpp"

namespace ws {
namespace onchip {

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
// and, on the block's first and last planes, published.
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
// start (list_event_rows, `rows` of them, as vx + vx_count * j).
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
__device__ inline int list_event_rows(const uint32_t* has_events, int* list, int* count, const OnChipLayout& g, int ny) {
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

}  // namespace onchip
}  // namespace ws
