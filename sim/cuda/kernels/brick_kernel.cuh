#pragma once
// A persistent 7-point kernel for grids whose two fields fit in the shared memory of the
// whole GPU, like spread_onchip.cu, with the grid cut into 3-D bricks instead of slabs of
// z planes: one block per SM owns a brick (both fields, u^n with a one-point halo on its
// six faces) for every step of a launch. A block that owns whole planes exchanges two
// planes with its neighbours for every plane it updates, and at 128^3 that traffic through
// L2 bounds it; a brick of 32 x 32 x 16 exchanges its six faces, a quarter of its points.
//
// A step of a block: the brick's shell (every point on its six faces) first, its faces
// into the brick's mailbox in global memory (two parities: a face of u^{n+1} never
// overwrites the u^n a neighbour may still read), each value in a word tagged with its step
// (tagged_mailbox.cuh); then the inside while the faces travel; then the (up to six)
// neighbours' faces into the halo, each word polled until it carries this step's tag. No
// flag and no fence: on the H200 that took 64^3 from 95 to 145 Gpoints/s and 128^3 from
// 455 to 501 (docs/benchmarks.md). Blocks of 512 threads where the small form holds the
// brick at that many (BrickGrid::threads), else 1024. Every per-step index (the thread's
// shell points, inner column and face elements) is found once per launch and kept in
// registers: no integer division in the step loop. A warp of the inner pass takes a patch
// of columns that meets no shared-memory bank twice: a row of 32 where the rows fill the
// warps (padded; the padding made 128^3 on the H200 go from 411 to 504 Gpoints/s), else
// patches such as 4 x 8 columns at a row pitch of 28 (inner_patch; 130^3 from 416 to 446).
//
// What it runs inside: every room (KernelVariant::MultiWalls::All). Fixed walls are the
// zero halo of the grid. The box's walls go by face class: a shell node on a face of the
// box takes its class's boundary value, the table in the walls form's parameters (every
// node of the box's faces lies on some brick's shell). The nodes the classes get wrong
// (near obstacles, or walls whose classes' nodes differ) and the solid nodes next to air
// are the step's column events (column_events.hpp), which the events form lists once per
// launch and finishes at the start of every step (BrickEvents); enclosed solid nodes take
// the interior update, +0 from zeros. Sources add the values a small kernel computed before each run
// (onchip::launch_source_runs), one thread of the owning block in source order, to the
// shell's nodes before it is published and to the inner ones after the inside. Receivers:
// each tap's value of u^{n+1} is stored by the block owning its node for every step of the
// run (at the start of the next step, which needs no barrier of its own), and a small
// kernel after the run sums each receiver's taps in tap order in double, the expression of
// receiver_sample (step_io.hpp): the same bits as every other kernel, whichever bricks the
// taps fall in.
//
// The launch is cooperative: every block is resident at once, which the polling needs.
#include <climits>

#include "boundary/boundary_node.cuh"
#include "cuda/column_events.hpp"
#include "cuda/kernels/brick_events.cuh"
#include "cuda/kernels/brick_layout.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/fused_steps.cuh"
#include "cuda/kernels/onchip_planes.cuh"
#include "cuda/kernels/tagged_mailbox.cuh"
#include "cuda/step_io.hpp"
#include "cuda/tiled_step.hpp"

namespace ws {
namespace brick {

using onchip::TaggedWord;

constexpr BrickReach kSmall = kBrickSmall, kLarge = kBrickLarge;
constexpr int kListedSources = kBrickListedSources, kListedTaps = kBrickListedTaps;
constexpr int kFaceShift = 28;   // face f in bits 28-30 of a mailbox offset
constexpr int kClassShift = 20;  // a shell node's face class in bits 20-24 of its cell
constexpr int kClassBits = 31;
constexpr int kShellEvent = 1 << 25;  // the events form: the shell node has an event of its own
// Steps a run records receivers for before the taps are summed (the scratch holds a run's
// tap values).
constexpr int kTapRunSteps = 1024;

// Face f of a brick: 0 -x, 1 +x, 2 -y, 3 +y, 4 -z, 5 +z; its elements (a, b): x faces
// (y, z), y faces (x, z), z faces (x, y).
__host__ __device__ inline void face_dims(int f, int bx, int by, int bz, int& na, int& nb) {
  if (f < 2) na = by, nb = bz;
  else if (f < 4) na = bx, nb = bz;
  else na = bx, nb = by;
}

__device__ __forceinline__ int cell(const BrickGrid& g, int x, int y, int z) {
  return (z + 1) * g.PS + (y + 1) * g.PX + (x + 1);
}

// Face element (a, b) at `layer` along the face's axis (-1: halo below, n: halo above).
__device__ __forceinline__ int face_cell(const BrickGrid& g, int f, int a, int b, int layer) {
  if (f < 2) return cell(g, layer, a, b);
  if (f < 4) return cell(g, a, layer, b);
  return cell(g, a, b, layer);
}

// What a run reads besides the fields: the sources' node indices and this run's values
// (value[s * nsrc + e]), the receivers' taps, and where the taps' values go
// (tap_value[s * ntaps + t]).
template <class T>
struct BrickIo {
  const DeviceSource* src = nullptr;
  const T* src_value = nullptr;
  int nsrc = 0;
  const DeviceTap* taps = nullptr;
  int ntaps = 0;
  T* tap_value = nullptr;
};

// The box's walls by face class (MultiWalls::ClassFaces): a shell node on a face of the box
// whose class is `on` takes its class's boundary value. The table travels in the walls
// form's parameters (read through the constant cache); the form without walls has none,
// which leaves its registers as they were (its parameters' size changed their allocation).
template <class T, bool kWalls>
struct BrickClasses {
  ClassCoeffs<T> table[kFaceClasses] = {};
};
template <class T>
struct BrickClasses<T, false> {};

template <class T, int kThreads, int kShellPerThread, int kColsPerThread, int kFacePerThread, bool kWalls,
          bool kEvents>
__global__ void __launch_bounds__(kThreads, 1)
    brick_onchip_kernel(T* cur, T* prev, int steps, FieldLayout L, T w, BrickGrid g, BrickIo<T> io,
                        BrickClasses<T, kWalls> classes, BrickEvents<T, kEvents> events,
                        typename TaggedWord<T>::Word* mail) {
  static_assert(kWalls || !kEvents, "the events form updates the walls by face class too");
  using Word = typename TaggedWord<T>::Word;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* A = reinterpret_cast<T*>(smem_raw);  // u^n, with the face halos
  T* B = A + g.cells;                     // u^{n-1}, then u^{n+1}
  int* src_list = reinterpret_cast<int*>(B + g.cells);  // (source, cell, on the shell), source order
  int* tap_list = src_list + 3 * kListedSources;        // (tap, cell) pairs
  // Listed sources and taps (-1: too many), whether any source lies on the shell, inside.
  int* counts = tap_list + 2 * kListedTaps;
  // Per face, from an element of this brick's face to the halo cell it fills and from its
  // offset in this brick's mailbox to the neighbour's matching one.
  int* halo_step = counts + 4;
  int* mail_step = halo_step + 6;
  // The events form's listing: its count and where its slots are (BrickEvents).
  int* listing = mail_step + 6;
  const int r = blockIdx.x, t = threadIdx.x;
  const int bricks = g.blocks();
  const int cx = r % g.px, cy = (r / g.px) % g.py, cz = r / (g.px * g.py);
  const int x0 = cx * g.sx, y0 = cy * g.sy, z0 = cz * g.sz;
  const int bx = min(g.sx, L.nx - x0), by = min(g.sy, L.ny - y0), bz = min(g.sz, L.nz - z0);
  int nb[6];
  nb[0] = cx > 0 ? r - 1 : -1;
  nb[1] = cx + 1 < g.px ? r + 1 : -1;
  nb[2] = cy > 0 ? r - g.px : -1;
  nb[3] = cy + 1 < g.py ? r + g.px : -1;
  nb[4] = cz > 0 ? r - g.px * g.py : -1;
  nb[5] = cz + 1 < g.pz ? r + g.px * g.py : -1;

  // Both fields zeroed (a halo on a wall of the grid stays 0, the fixed wall), then u^n
  // with its face halos and u^{n-1} without (the 7-point update reads no edge or corner).
  for (int c = t; c < 2 * g.cells; c += kThreads) A[c] = T(0);
  if (t == 0) {
    int n = 0, on_shell = 0, inside = 0;
    for (int e = 0; e < io.nsrc; ++e) {
      const FieldLayout::Point q = L.point(io.src[e].index);
      const int x = q.i - x0, y = q.j - y0, z = q.k - z0;
      if (x < 0 || x >= bx || y < 0 || y >= by || z < 0 || z >= bz) continue;
      const bool shell_node = x == 0 || x == bx - 1 || y == 0 || y == by - 1 || z == 0 || z == bz - 1;
      (shell_node ? on_shell : inside) = 1;
      if (n >= 0 && n < kListedSources) {
        src_list[3 * n] = e;
        src_list[3 * n + 1] = cell(g, x, y, z);
        src_list[3 * n + 2] = shell_node;
        ++n;
      } else {
        n = -1;
      }
    }
    counts[0] = n;
    counts[2] = on_shell;
    counts[3] = inside;
    int m = 0;
    for (int e = 0; e < io.ntaps && m >= 0; ++e) {
      const FieldLayout::Point q = L.point(io.taps[e].index);
      if (q.i < x0 || q.i >= x0 + bx || q.j < y0 || q.j >= y0 + by || q.k < z0 || q.k >= z0 + bz) continue;
      if (m == kListedTaps) {
        m = -1;
        break;
      }
      tap_list[2 * m] = e;
      tap_list[2 * m + 1] = cell(g, q.i - x0, q.j - y0, q.k - z0);
      ++m;
    }
    counts[1] = m;
  }
  __syncthreads();
  const int hx = bx + 2, hy = by + 2, hz = bz + 2;
  for (int c = t; c < hx * hy * hz; c += kThreads) {
    const int x = c % hx - 1, y = (c / hx) % hy - 1, z = c / (hx * hy) - 1;
    const int inside = (x >= 0 && x < bx) + (y >= 0 && y < by) + (z >= 0 && z < bz);
    if (inside < 2) continue;
    const int64_t q = L.index(x0 + x, y0 + y, z0 + z);
    A[cell(g, x, y, z)] = cur[q];  // the grid's halo holds 0 at the walls
    if (inside == 3) B[cell(g, x, y, z)] = prev[q];
  }

  // This thread's shell points: the planes z = 0 and bz - 1, then the perimeter of the
  // planes between.
  const int per = 2 * bx + 2 * (by - 2);
  const int nshell = 2 * bx * by + per * (bz - 2);
  int shell[kShellPerThread];
  int shell_event[kEvents ? kShellPerThread : 1];  // the events form's setup: each point's event
#pragma unroll
  for (int i = 0; i < kShellPerThread; ++i) {
    const int e = t + i * kThreads;
    shell[i] = -1;
    if (e < nshell) {
      int x, y, z;
      if (e < 2 * bx * by) {
        const int q = e % (bx * by);
        x = q % bx, y = q / bx, z = e < bx * by ? 0 : bz - 1;
      } else {
        const int d = e - 2 * bx * by, c = d % per;
        z = 1 + d / per;
        if (c < bx) x = c, y = 0;
        else if (c < 2 * bx) x = c - bx, y = by - 1;
        else x = ((c - 2 * bx) & 1) ? bx - 1 : 0, y = 1 + ((c - 2 * bx) >> 1);
      }
      // The node's face class of the box in the bits above its cell (a brick's cells are
      // fewer than 2^20), 0 off the box's faces.
      shell[i] = cell(g, x, y, z) | (kWalls ? face_class(L, x0 + x, y0 + y, z0 + z) << kClassShift : 0);
      if constexpr (kEvents) {
        // The node's own event (boundary, solid or plain), the first of its events; its
        // sources' events come after it and are added by add_sources. Skipped by the shell
        // pass; its slot's event (-1: none, a solid node's +0 kept, BrickEvents).
        int e, e_end;
        const int gz = z0 + z;
        listed_events_at(events.cols, (x0 + x) + L.nx * (y0 + y), gz, e, e_end);
        shell_event[i] = -1;
        if (e < e_end && __ldg(events.cols.k + e) == gz && __ldg(&events.cols.rec[e].code) >= kEventPlain) {
          shell[i] |= kShellEvent;
          if (slot_of_event(events.cols, e, e_end, gz)) shell_event[i] = e;
        }
      }
    }
  }
  // Its inner column (z = 1 .. bz - 2), a warp's columns a patch that meets no bank twice
  // (inner_patch; whole rows of 32 where they fill the warps).
  int col[kColsPerThread];
#pragma unroll
  for (int i = 0; i < kColsPerThread; ++i) {
    // (Padded rows by their own expression: through inner_column the large form spilled 28
    // bytes where it spills 8, and 140^3 ran 400 Gpoints/s where it runs 430.)
    const int c = t + i * kThreads;
    int xi = c % padded_row(bx), yi = c / padded_row(bx);
    const bool in = g.patch == 32 ? xi < bx - 2 && yi < by - 2 : inner_column(c, bx - 2, by - 2, g.patch, xi, yi);
    col[i] = in ? cell(g, 1 + xi, 1 + yi, 1) : -1;
  }
  // The events form's listing (BrickEvents): the slots placed by a prefix sum over the
  // block, in shared memory if they fit, else in a region of the global slots; each inner
  // column's mask of the planes its z loop leaves.
  if constexpr (kEvents) {
    // Inner column i's events at planes 1 .. bz - 2 of the brick: [e0, e1) of column gc.
    auto column_events = [&](int i, int& gc, int& e0, int& e1) {
      gc = -1, e0 = e1 = 0;
      if (col[i] < 0 || bz <= 2) return;
      const int o = col[i] - cell(g, 0, 0, 1);
      gc = (x0 + o % g.PX) + L.nx * (y0 + o / g.PX);
      int e_end;
      listed_events_at(events.cols, gc, z0 + 1, e0, e_end);
      listed_events_at(events.cols, gc, z0 + bz - 1, e1, e_end);
    };
    int mine = 0;
#pragma unroll
    for (int i = 0; i < kShellPerThread; ++i) mine += shell[i] >= 0 && shell_event[i] >= 0;
#pragma unroll
    for (int i = 0; i < kColsPerThread; ++i) {
      int gc, e0, e1;
      column_events(i, gc, e0, e1);
      const int e_end = gc >= 0 ? __ldg(events.cols.start + gc + 1) : 0;
      for (int e = e0; e < e1; ++e) mine += slot_of_event(events.cols, e, e_end, __ldg(events.cols.k + e));
    }
    int total = 0;
    int k = block_exclusive_sum<kThreads>(mine, listing + 4, total);
    if (t == 0) {
      listing[0] = total;
      listing[1] = total <= events.cap ? -1 : atomicAdd(events.counter, total);
    }
    __syncthreads();
    const EventSlots<T> slots = block_slots(events, smem_raw, listing[1]);
#pragma unroll
    for (int i = 0; i < kShellPerThread; ++i)
      if (shell[i] >= 0 && shell_event[i] >= 0)
        fill_slot(slots, k++, shell[i] & ((1 << kClassShift) - 1), load_event_record(events.cols.rec + shell_event[i]));
    unsigned* masks = column_masks<kThreads, kColsPerThread>(events, smem_raw, r, t);
#pragma unroll
    for (int i = 0; i < kColsPerThread; ++i) {
      int gc, e0, e1;
      column_events(i, gc, e0, e1);
      const int e_end = gc >= 0 ? __ldg(events.cols.start + gc + 1) : 0;
      unsigned m = 0;
      int word = 0;
      for (int e = e0; e < e1; ++e) {
        const EventRecord<T> er = load_event_record(events.cols.rec + e);
        if (er.code < kEventPlain) continue;
        const int z = __ldg(events.cols.k + e) - z0;  // 1 .. bz - 2
        while ((z - 1) / 32 > word) masks[(word++ * kColsPerThread + i) * kThreads] = m, m = 0;
        m |= 1u << ((z - 1) & 31);
        if (slot_of_event(events.cols, e, e_end, z + z0)) fill_slot(slots, k++, col[i] + (z - 1) * g.PS, er);
      }
      for (; word < events.mask_words; ++word) masks[(word * kColsPerThread + i) * kThreads] = m, m = 0;
    }
  }
  // Its face elements: this brick's into its mailbox, the neighbours' into its halo.
  const int slot = g.face_max;
  int fsize[6], nface = 0;
  for (int f = 0; f < 6; ++f) {
    int na, nbb;
    face_dims(f, bx, by, bz, na, nbb);
    fsize[f] = nb[f] >= 0 ? na * nbb : 0;
    nface += fsize[f];
  }
  if (t < 6) {
    halo_step[t] = t == 0 ? -1 : t == 1 ? 1 : t == 2 ? -g.PX : t == 3 ? g.PX : t == 4 ? -g.PS : g.PS;
    mail_step[t] = nb[t] >= 0 ? ((nb[t] - r) * 6 + ((t ^ 1) - t)) * slot : 0;
  }
  int out_cell[kFacePerThread], out_mail[kFacePerThread];
#pragma unroll
  for (int i = 0; i < kFacePerThread; ++i) {
    const int e = t + i * kThreads;
    out_cell[i] = out_mail[i] = -1;
    if (e < nface) {
      int f = 0, base = 0;
      while (e >= base + fsize[f]) base += fsize[f++];
      const int d = e - base;
      int na, nbb;
      face_dims(f, bx, by, bz, na, nbb);
      const int n_axis = f < 2 ? bx : f < 4 ? by : bz;
      out_cell[i] = face_cell(g, f, d % na, d / na, (f & 1) ? n_axis - 1 : 0);
      out_mail[i] = ((r * 6 + f) * slot + d) | (f << kFaceShift);
    }
  }
  __syncthreads();
  const int nsrc_listed = counts[0], ntap_listed = counts[1];
  const bool shell_sources = counts[2] != 0, inner_sources = counts[3] != 0;  // the same in every thread
  const size_t half = (size_t)bricks * 6 * slot;

  // The block's sources on the shell (on_shell) or inside, added by one thread in source
  // order (the order the other kernels add two sources of one node in).
  // (The step data's fields it reads are copied first: a lambda holding a reference to the
  // kernel's parameter struct would put the struct on the stack.)
  const T* const src_value = io.src_value;
  const DeviceSource* const src = io.src;
  const int nsrc = io.nsrc;
  // The taps' values of u^{n+1} of step s (after the sources), read from `u` (the A of the
  // next step, which nothing writes during it), for the sums after the run.
  const DeviceTap* const taps = io.taps;
  const int ntaps = io.ntaps;
  T* const tap_value = io.tap_value;
  auto record_taps = [=](int s, const T* u) {
    if (ntaps <= 0) return;
    T* tv = tap_value + (size_t)s * ntaps;
    if (ntap_listed >= 0) {
      for (int n = t; n < ntap_listed; n += kThreads) tv[tap_list[2 * n]] = u[tap_list[2 * n + 1]];
      return;
    }
    for (int e = t; e < ntaps; e += kThreads) {
      const FieldLayout::Point q = L.point(taps[e].index);
      if (q.i >= x0 && q.i < x0 + bx && q.j >= y0 && q.j < y0 + by && q.k >= z0 && q.k < z0 + bz)
        tv[e] = u[cell(g, q.i - x0, q.j - y0, q.k - z0)];
    }
  };
  auto add_sources = [=, &B](int s, bool on_shell) {
    if (t != 0) return;
    const T* v = src_value + (size_t)s * nsrc;
    if (nsrc_listed >= 0) {
      for (int n = 0; n < nsrc_listed; ++n)
        if ((src_list[3 * n + 2] != 0) == on_shell) B[src_list[3 * n + 1]] += v[src_list[3 * n]];
      return;
    }
    for (int e = 0; e < nsrc; ++e) {
      const FieldLayout::Point q = L.point(src[e].index);
      const int x = q.i - x0, y = q.j - y0, z = q.k - z0;
      if (x < 0 || x >= bx || y < 0 || y >= by || z < 0 || z >= bz) continue;
      const bool shell_node = x == 0 || x == bx - 1 || y == 0 || y == by - 1 || z == 0 || z == bz - 1;
      if (shell_node == on_shell) B[cell(g, x, y, z)] += v[e];
    }
  };

  for (int s = 0; s < steps; ++s) {
    if (s > 0) record_taps(s - 1, A);
    const unsigned tag = (unsigned)s + 1u;
    if constexpr (kEvents) {
      // The listed nodes finished, from u^n and the u^{n-1} nothing has overwritten yet.
      const int listed = listing[0];
      if (listed > 0) {
        const EventSlots<T> slots = block_slots(events, smem_raw, listing[1]);
        // From the block's last thread down: the first threads hold the shell's extra points.
        for (int k = kThreads - 1 - t; k < listed; k += kThreads) finish_slot(A, B, g, w, slots, k);
      }
    }
#pragma unroll
    for (int i = 0; i < kShellPerThread; ++i) {
      if (shell[i] < 0) continue;
      if constexpr (kEvents) {
        if (shell[i] & kShellEvent) continue;  // finished at the step's start
      }
      if constexpr (kWalls) {
        const int o = shell[i] & ((1 << kClassShift) - 1), cls = (shell[i] >> kClassShift) & kClassBits;
        const T nb[6] = {A[o - 1], A[o + 1], A[o - g.PX], A[o + g.PX], A[o - g.PS], A[o + g.PS]};
        T v = ex::seven_point_update(A[o], B[o], nb[0], nb[1], nb[2], nb[3], nb[4], nb[5], w);
        if (cls != 0) {
          const ClassCoeffs<T> cc = classes.table[cls];
          if (cc.on) v = boundary_value(A[o], nb, B[o], cc.mask, cc.n_fixed, cc.cd, cc.cl);
        }
        B[o] = v;
      } else {
        const int o = shell[i];
        B[o] = ex::seven_point_update(A[o], B[o], A[o - 1], A[o + 1], A[o - g.PX], A[o + g.PX], A[o - g.PS],
                                      A[o + g.PS], w);
      }
    }
    __syncthreads();
    if (shell_sources) {  // before the shell is published
      add_sources(s, true);
      __syncthreads();
    }
    Word* out = mail + (size_t)((s + 1) & 1) * half;
#pragma unroll
    for (int i = 0; i < kFacePerThread; ++i)
      if (out_cell[i] >= 0)
        onchip::publish<T>(out + (out_mail[i] & ((1 << kFaceShift) - 1)), B[out_cell[i]], tag);
#pragma unroll
    for (int i = 0; i < kColsPerThread; ++i) {
      int o = col[i];
      if (o < 0) continue;
      if constexpr (kEvents) {
        // Every column of the events form takes this loop, with or without events: a warp
        // whose lanes took two loops would run both one after the other.
        inner_column_masked(A, B, o, g, bz, w, column_masks<kThreads, kColsPerThread>(events, smem_raw, r, t) + i * kThreads,
                            kColsPerThread * kThreads);
        continue;
      }
      T below = A[o - g.PS], u = A[o];
      for (int z = 1; z < bz - 1; ++z) {
        const T above = A[o + g.PS];
        B[o] = ex::seven_point_update(u, B[o], A[o - 1], A[o + 1], A[o - g.PX], A[o + g.PX], below, above, w);
        below = u;
        u = above;
        o += g.PS;
      }
    }
    if (inner_sources) {
      __syncthreads();
      add_sources(s, false);
    }
    // The neighbours' faces of u^{n+1}: a chunk of words' first loads issued before any is
    // polled again (the large form in chunks of three: six words' registers at once spilled
    // its indices). The neighbour across face f published its opposite face, f ^ 1. (The
    // halo cells these fill are read by no one until the barrier below.)
    constexpr int kChunk = kFacePerThread > 4 ? 3 : kFacePerThread;
#pragma unroll
    for (int i0 = 0; i0 < kFacePerThread; i0 += kChunk) {
      Word v[kChunk];
#pragma unroll
      for (int k = 0; k < kChunk; ++k) {
        const int i = i0 + k;
        if (i < kFacePerThread && out_cell[i] >= 0)
          v[k] = onchip::load_relaxed(out + (out_mail[i] & ((1 << kFaceShift) - 1)) +
                                      mail_step[out_mail[i] >> kFaceShift]);
      }
#pragma unroll
      for (int k = 0; k < kChunk; ++k) {
        const int i = i0 + k;
        if (i >= kFacePerThread || out_cell[i] < 0) continue;
        const Word* in = out + (out_mail[i] & ((1 << kFaceShift) - 1)) + mail_step[out_mail[i] >> kFaceShift];
        while (!TaggedWord<T>::tagged(v[k], tag)) v[k] = onchip::load_relaxed(in);
        B[out_cell[i] + halo_step[out_mail[i] >> kFaceShift]] = TaggedWord<T>::value(v[k]);
      }
    }
    __syncthreads();
    T* tmp = A;
    A = B;
    B = tmp;
  }
  if (steps > 0) record_taps(steps - 1, A);
  // A = u^{n+steps}, B = u^{n+steps-1}, back where the two-grid scheme leaves them: each
  // step writes u^{n+1} over u^{n-1}, so after an odd run the newest field is in `prev`.
  T* newest = (steps & 1) ? prev : cur;
  T* older = (steps & 1) ? cur : prev;
  for (int c = t; c < bx * by * bz; c += kThreads) {
    const int x = c % bx, y = (c / bx) % by, z = c / (bx * by);
    const int64_t q = L.index(x0 + x, y0 + y, z0 + z);
    newest[q] = A[cell(g, x, y, z)];
    older[q] = B[cell(g, x, y, z)];
  }
}

}  // namespace brick
}  // namespace ws
