#pragma once
// brick_onchip's events form (brick_kernel.cuh): the listing of a block's own events in
// slots, the prefix sum that places them, the slots' finishing at the start of every step
// and the z loop of an inner column that leaves its listed planes, and the host's list of
// the room's nodes that take slots (room_slots: the cut spreads them, and the fullest
// brick's count says how much shared memory the slots take).
#include <map>
#include <memory>
#include <mutex>
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
// So once per launch a block lists its nodes' own events:
//  - a solid node next to air is only left alone: both fields hold +0 there when a launch
//    starts (the solver settles the solids first, column_events.hpp) and no pass writes it,
//    so it keeps +0 without a slot; unless a source lies at it, whose value add_sources
//    adds to the +0 that a slot writes first, as the per-step path does;
//  - a boundary or plain node gets a slot (EventSlots: its cell, kind, mask and fixed count
//    in one int, its coefficients), in the shared memory its brick leaves (`cap` slots at
//    smem_offset) or, for a brick with more than that, in a region of the global slots
//    (`global`, as many slots as the step has such events, handed out by an atomic counter;
//    the shared memory's slots are as many as the fullest brick of the cut needs, counted
//    on the host from room_slots, so that L1 keeps the rest). At the start of every step
//    the block's threads finish the slots side by side, writing u^{n+1} before anything
//    else overwrites u^{n-1};
//  - the shell pass skips both kinds (a flag in the shell point's index), and an inner
//    column skips them by a mask of its planes, one bit a plane in words of 32, so that
//    its z loop reads nothing of the listing.
// The masks live in shared memory where there is room (at masks_offset), else in `masks`:
// word w of a thread's column i at [(w * kColsPerThread + i) * threads + t]. The listing's
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
};
template <class T, bool kEvents>
struct BrickEvents {
  EventListView<T> cols;
  int cap = 0;
  int smem_offset = 0;
  int masks_offset = -1;
  int mask_words = 1;  // words of an inner column's mask: (sz - 2) / 32 rounded up
  unsigned* masks = nullptr;
  EventSlots<T> global{};
  int* counter = nullptr;
};
template <class T>
struct BrickEvents<T, false> {};

// Bytes a listed event takes (EventSlots); the most a block lists in shared memory.
template <class T>
constexpr size_t kEventSlotBytes = 2 * sizeof(T) + sizeof(int);
constexpr int kMaxListedEvents = 16384;
constexpr int kSlotBoundary = 0, kSlotSolid = 1, kSlotPlain = 2;

// The slots of `cap` events at `offset` of the block's shared memory.
template <class T>
__device__ __forceinline__ EventSlots<T> smem_slots(unsigned char* smem, int offset, int cap) {
  EventSlots<T> s;
  s.cd = reinterpret_cast<T*>(smem + offset);
  s.cl = s.cd + cap;
  s.node = reinterpret_cast<int*>(s.cl + cap);
  return s;
}
// The block's slots: in shared memory (base < 0) or from slot `base` of the global ones.
template <class T>
__device__ __forceinline__ EventSlots<T> block_slots(const BrickEvents<T, true>& ev, unsigned char* smem, int base) {
  if (base < 0) return smem_slots<T>(smem, ev.smem_offset, ev.cap);
  return EventSlots<T>{ev.global.cd + base, ev.global.cl + base, ev.global.node + base};
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

// The masks of this thread's inner columns (word w of column i at [(w * kColsPerThread + i)
// * kThreads]): in shared memory where there is room, else in the scratch.
template <int kThreads, int kColsPerThread, class Events>
__device__ __forceinline__ unsigned* column_masks(const Events& ev, unsigned char* smem, int r, int t) {
  if (ev.masks_offset >= 0) return reinterpret_cast<unsigned*>(smem + ev.masks_offset) + t;
  return ev.masks + (size_t)r * ev.mask_words * kColsPerThread * kThreads + t;
}

// An inner column of the events form: every node's interior update but those its mask's
// bits name (plane z at bit (z - 1) mod 32 of word (z - 1) / 32, `stride` apart), which are
// solid or were finished at the step's start. A word is loaded before its 32 planes, so that
// the planes' loop holds no load but the fields' (a load in it kept the loop from being
// unrolled: the events form ran 12-18% slower than with its masks left out).
template <class T>
__device__ __forceinline__ void inner_column_masked(const T* A, T* B, int o, const BrickGrid& g, int bz, T w,
                                                    const unsigned* mask, int stride) {
  T below = A[o - g.PS], u = A[o];
  for (int z0 = 1; z0 < bz - 1; z0 += 32, mask += stride) {
    unsigned m = *mask;
    const int z1 = min(bz - 1, z0 + 32);
    for (int z = z0; z < z1; ++z) {
      const T above = A[o + g.PS];
      const T v = ex::seven_point_update(u, B[o], A[o - 1], A[o + 1], A[o - g.PX], A[o + g.PX], below, above, w);
      if (!(m & 1u)) B[o] = v;
      m >>= 1;
      below = u;
      u = above;
      o += g.PS;
    }
  }
}

// Slot k's node finished: its new value into u^{n+1} (B) from u^n (A) and its u^{n-1},
// by the expressions of the other whole-step kernels (boundary_node.cuh, exact_update.cuh).
template <class T>
__device__ __forceinline__ void finish_slot(const T* A, T* B, const BrickGrid& g, T w, const EventSlots<T>& slots,
                                            int k) {
  const int info = slots.node[k];
  const int o = info & 0xfffff, kind = info >> 29;
  if (kind == kSlotSolid) {
    B[o] = T(0);
    return;
  }
  const T nb[6] = {A[o - 1], A[o + 1], A[o - g.PX], A[o + g.PX], A[o - g.PS], A[o + g.PS]};
  B[o] = kind == kSlotPlain ? ex::seven_point_update(A[o], B[o], nb[0], nb[1], nb[2], nb[3], nb[4], nb[5], w)
                            : boundary_value(A[o], nb, B[o], (uint8_t)((info >> 20) & 63), (uint8_t)((info >> 26) & 7),
                                             slots.cd[k], slots.cl[k]);
}

// Whether node event e (of code `code`) takes a slot: a boundary or plain node, or a solid
// one whose next event, a source's, is at the same plane (above); `next_k` and `next_code`
// are those of event e + 1 (any values when there is none: has_next false).
__host__ __device__ __forceinline__ bool takes_slot(int code, int k, bool has_next, int next_k, int next_code) {
  if (code != kEventSolid) return code >= kEventPlain;
  return has_next && next_k == k && next_code < kEventPlain;
}
// The same from the device's column events (e one of column c's, which end at e_end).
template <class T>
__device__ __forceinline__ bool slot_of_event(const EventListView<T>& cols, int e, int e_end, int k) {
  const int code = __ldg(&cols.rec[e].code);
  if (code != kEventSolid) return code >= kEventPlain;
  return e + 1 < e_end && __ldg(cols.k + e + 1) == k && __ldg(&cols.rec[e + 1].code) < kEventPlain;
}

// Event er's node at cell o into slot k.
template <class T>
__device__ __forceinline__ void fill_slot(const EventSlots<T>& slots, int k, int o, const EventRecord<T>& er) {
  const int kind = er.code >= 0 ? kSlotBoundary : er.code == kEventSolid ? kSlotSolid : kSlotPlain;
  slots.node[k] = o | (er.flags & 63) << 20 | ((er.flags >> 8) & 7) << 26 | kind << 29;
  slots.cd[k] = er.cd;
  slots.cl[k] = er.cl;
}

// The room's nodes that take a slot (BrickSlots), from the step's column events copied to
// the host once per listing (TiledStepData::listing_id): brick_layout cuts the grid so that
// its fullest brick holds few, and the slots take no more shared memory than that brick
// needs (what they leave goes to L1, which holds the form's few spilled registers).
template <class T>
std::shared_ptr<const BrickSlots> room_slots(const EventListView<T>& cols, long long listing_id, const FieldLayout& L) {
  static std::mutex m;
  static std::map<long long, std::shared_ptr<const BrickSlots>> cache;  // a listing has one layout
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find(listing_id);
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
  auto slots = std::make_shared<BrickSlots>();
  slots->slot_bytes = kEventSlotBytes<T>;
  for (int j = 0; j < L.ny; ++j)
    for (int i = 0; i < L.nx; ++i) {
      const size_t c = (size_t)i + (size_t)L.nx * j;
      for (int e = start[c]; e < start[c + 1]; ++e) {
        const bool next = e + 1 < start[c + 1];
        if (takes_slot(rec[(size_t)e].code, k[(size_t)e], next, next ? k[(size_t)e + 1] : 0,
                       next ? rec[(size_t)e + 1].code : 0))
          slots->node.push_back({i, j, k[(size_t)e]});
      }
    }
  // The listings of the last few rooms (a listing id is never reused).
  if (cache.size() >= 8) cache.erase(cache.begin());
  return cache.emplace(listing_id, std::move(slots)).first->second;
}

}  // namespace brick
}  // namespace ws
