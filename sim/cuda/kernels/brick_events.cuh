#pragma once
// brick_onchip's events form (brick_kernel.cuh): the listing of a block's own events in
// slots, the prefix sum that places them, the slots' finishing at the start of every step
// and the z loop of an inner column that leaves them, and the host's count of the most
// events a brick of a cut holds (how much shared memory the slots take).
#include <algorithm>
#include <climits>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "boundary/boundary_node.cuh"
#include "core/cuda_check.hpp"
#include "cuda/column_events.hpp"
#include "cuda/kernels/brick_layout.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/fused_steps.cuh"
#include "cuda/tiled_step.hpp"

namespace ws {
namespace brick {

// The events form (obstacles, and walls whose face classes get some nodes wrong) reads the
// step's column events (column_events.hpp, listed per column). Events read from global
// memory as the passes meet them would be chains of dependent loads, and the step waits for
// the block's slowest warp: a column along an obstacle's side has an event at every plane.
// So once per launch a block lists its nodes' own events (boundary, solid, plain; the
// sources' stay with add_sources) in slots (EventSlots): each node's cell, kind, mask and
// fixed count in one int, its coefficients, and an inner node's plane; in the shared memory
// its brick leaves (`cap` slots at smem_offset) or, for a brick with more events than that,
// in a region of the global slots (`global`, as many slots as the step has such events,
// handed out by an atomic counter; the shared memory's slots are as many as the fullest
// brick of the cut needs, most_events_in_a_brick, so that L1 keeps the rest). At the start
// of every step the block's threads finish the listed nodes side by side, writing u^{n+1}
// before anything else overwrites u^{n-1}; the shell pass skips them (a flag in the shell
// point's index) and the z loops leave them.
// Each inner column's range of slots lives in shared memory where there is room (at
// ranges_offset, a thread's column i at [i * threads + t]), else in `ranges`. The listing's
// count and where its slots are (-1: shared memory, else the global region's first slot)
// are two ints of the block's shared memory (the header after the faces' steps), read each
// step rather than held in registers: this form is at the 1024-thread blocks' 64 registers,
// and a register it spills is a local load in every step (docs/benchmarks.md, "Obstacles
// in the bricks").
template <class T>
struct EventSlots {
  T* cd;
  T* cl;
  int* node;
  short* plane;
};
template <class T, bool kEvents>
struct BrickEvents {
  EventListView<T> cols;
  int cap = 0;
  int smem_offset = 0;
  int ranges_offset = -1;
  int2* ranges = nullptr;
  EventSlots<T> global{};
  int* counter = nullptr;
};
template <class T>
struct BrickEvents<T, false> {};

// Bytes a listed event takes (EventSlots); the most a block lists in shared memory.
template <class T>
constexpr size_t kEventSlotBytes = 2 * sizeof(T) + sizeof(int) + sizeof(short);
constexpr int kMaxListedEvents = 16384;
constexpr int kSlotBoundary = 0, kSlotSolid = 1, kSlotPlain = 2;

// The slots of `cap` events at `offset` of the block's shared memory.
template <class T>
__device__ __forceinline__ EventSlots<T> smem_slots(unsigned char* smem, int offset, int cap) {
  EventSlots<T> s;
  s.cd = reinterpret_cast<T*>(smem + offset);
  s.cl = s.cd + cap;
  s.node = reinterpret_cast<int*>(s.cl + cap);
  s.plane = reinterpret_cast<short*>(s.node + cap);
  return s;
}
// The block's slots: in shared memory (base < 0) or from slot `base` of the global ones.
template <class T>
__device__ __forceinline__ EventSlots<T> block_slots(const BrickEvents<T, true>& ev, unsigned char* smem, int base) {
  if (base < 0) return smem_slots<T>(smem, ev.smem_offset, ev.cap);
  return EventSlots<T>{ev.global.cd + base, ev.global.cl + base, ev.global.node + base, ev.global.plane + base};
}

// The exclusive prefix sum of v over the block's threads and its total (`sums`: 32 ints of
// shared memory); every thread of the block calls it.
template <int kThreads>
__device__ __forceinline__ int block_exclusive_sum(int v, int* sums, int& total) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  constexpr int kWarps = kThreads / 32;
  int x = v;
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const int y = __shfl_up_sync(0xffffffffu, x, d);
    if (lane >= d) x += y;
  }
  if (lane == 31) sums[warp] = x;
  __syncthreads();
  if (warp == 0) {
    int w = lane < kWarps ? sums[lane] : 0;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const int y = __shfl_up_sync(0xffffffffu, w, d);
      if (lane >= d) w += y;
    }
    sums[lane] = w;
  }
  __syncthreads();
  total = sums[kWarps - 1];
  const int before = (warp > 0 ? sums[warp - 1] : 0) + x - v;
  __syncthreads();  // the sums are read before anyone reuses them
  return before;
}

// Inner column i's range of events (then of slots) of this thread: in shared memory where
// there is room, else in the scratch.
template <int kThreads, int kColsPerThread, class Events>
__device__ __forceinline__ int2* column_ranges(const Events& ev, unsigned char* smem, int r, int t) {
  if (ev.ranges_offset >= 0) return reinterpret_cast<int2*>(smem + ev.ranges_offset) + t;
  return ev.ranges + (size_t)r * kColsPerThread * kThreads + t;
}

// An inner column of the events form, its listed events in slots [range.x, range.y) (none
// when empty) at planes `plane`: every other node's interior update (the listed ones were
// finished at the step's start).
template <class T>
__device__ __forceinline__ void inner_column_listed(const T* A, T* B, int o, const BrickGrid& g, int bz, T w,
                                                    const short* plane, int2 range) {
  int k = range.x;
  int next = k < range.y ? plane[k] : INT_MAX;
  T below = A[o - g.PS], u = A[o];
  for (int z = 1; z < bz - 1; ++z) {
    const T above = A[o + g.PS];
    if (z != next) {
      B[o] = ex::seven_point_update(u, B[o], A[o - 1], A[o + 1], A[o - g.PX], A[o + g.PX], below, above, w);
    } else {
      ++k;
      next = k < range.y ? plane[k] : INT_MAX;
    }
    below = u;
    u = above;
    o += g.PS;
  }
}

// Slot k's node finished: its new value into u^{n+1} (B) from u^n (A) and its u^{n-1},
// by the expressions of the other whole-step kernels (boundary_node.cuh, exact_update.cuh).
template <class T>
__device__ __forceinline__ void finish_slot(const T* A, T* B, const BrickGrid& g, T w, const EventSlots<T>& slots,
                                            int k) {
  const int info = slots.node[k];
  const int o = info & 0xfffff, kind = info >> 29;
  T v = T(0);
  if (kind != kSlotSolid) {
    const T nb[6] = {A[o - 1], A[o + 1], A[o - g.PX], A[o + g.PX], A[o - g.PS], A[o + g.PS]};
    if (kind == kSlotPlain)
      v = ex::seven_point_update(A[o], B[o], nb[0], nb[1], nb[2], nb[3], nb[4], nb[5], w);
    else
      v = boundary_value(A[o], nb, B[o], (uint8_t)((info >> 20) & 63), (uint8_t)((info >> 26) & 7), slots.cd[k],
                         slots.cl[k]);
  }
  B[o] = v;
}

// Event er's node at cell o into slot k (plane z for an inner node).
template <class T>
__device__ __forceinline__ void fill_slot(const EventSlots<T>& slots, int k, int o, int z, const EventRecord<T>& er) {
  const int kind = er.code >= 0 ? kSlotBoundary : er.code == kEventSolid ? kSlotSolid : kSlotPlain;
  slots.node[k] = o | (er.flags & 63) << 20 | ((er.flags >> 8) & 7) << 26 | kind << 29;
  slots.cd[k] = er.cd;
  slots.cl[k] = er.cl;
  slots.plane[k] = (short)z;
}

// The most node events (boundary, solid, plain) one brick of cut g holds, from the step's
// column events copied to the host once per listing (TiledStepData::listing_id) and cut.
// The events form takes no more shared memory for its slots than that: what it leaves goes
// to L1, which holds the form's few spilled registers (each step reads them).
template <class T>
int most_events_in_a_brick(const EventListView<T>& cols, long long listing_id, const FieldLayout& L,
                           const BrickGrid& g) {
  static std::mutex m;
  static std::map<std::tuple<long long, int, int, int, int, int, int, int>, int> cache;
  const auto key = std::make_tuple(listing_id, L.nx, L.ny, g.px, g.py, g.sx, g.sy, g.sz);
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  const size_t columns = (size_t)L.nx * L.ny;
  std::vector<int> start(columns + 1);
  CUDA_CHECK(cudaMemcpy(start.data(), cols.start, start.size() * sizeof(int), cudaMemcpyDeviceToHost));
  const size_t n = (size_t)start.back();
  std::vector<int> k(n);
  std::vector<EventRecord<T>> rec(n);
  if (n > 0) {
    CUDA_CHECK(cudaMemcpy(k.data(), cols.k, n * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(rec.data(), cols.rec, n * sizeof(EventRecord<T>), cudaMemcpyDeviceToHost));
  }
  std::vector<int> per_brick((size_t)g.blocks(), 0);
  for (int j = 0; j < L.ny; ++j)
    for (int i = 0; i < L.nx; ++i) {
      const size_t c = (size_t)i + (size_t)L.nx * j;
      for (int e = start[c]; e < start[c + 1]; ++e)
        if (rec[(size_t)e].code >= kEventPlain)
          ++per_brick[(size_t)(i / g.sx + g.px * (j / g.sy + g.py * (k[(size_t)e] / g.sz)))];
    }
  const int most = per_brick.empty() ? 0 : *std::max_element(per_brick.begin(), per_brick.end());
  cache.emplace(key, most);
  return most;
}

}  // namespace brick
}  // namespace ws
