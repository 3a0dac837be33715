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
// What it runs inside: fixed walls (the zero halo of the grid), the box's walls when each
// face class's nodes share their coefficients (KernelVariant::MultiWalls::ClassFaces,
// box_wall_classes: a shell node on a face of the box takes its class's boundary value, the
// table in the walls form's parameters), sources and receivers; a room with obstacles or
// walls its classes cannot hold is stepped singly by the solver, around its boundary-node
// kernels. Sources add the values a small kernel computed before each run
// (onchip::launch_source_runs), one thread of the owning block in source order, to the
// shell's nodes before it is published and to the inner ones after the inside. Receivers:
// each tap's value of u^{n+1} is stored by the block owning its node for every step of the
// run (at the start of the next step, which needs no barrier of its own), and a small
// kernel after the run sums each receiver's taps in tap order in double, the expression of
// receiver_sample (step_io.hpp): the same bits as every other kernel, whichever bricks the
// taps fall in.
//
// The launch is cooperative: every block is resident at once, which the polling needs.
#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>

#include "boundary/boundary_node.cuh"
#include "core/cuda_check.hpp"
#include "cuda/column_events.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/brick_layout.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/multi_step_one.hpp"
#include "cuda/kernels/onchip_planes.cuh"
#include "cuda/kernels/seven_point.hpp"
#include "cuda/kernels/tagged_mailbox.cuh"
#include "cuda/step_graph.hpp"
#include "cuda/step_io.hpp"
#include "cuda/tiled_step.hpp"

namespace ws {

namespace {

using onchip::DeviceFacts;
using onchip::TaggedWord;

constexpr BrickReach kSmall = kBrickSmall, kLarge = kBrickLarge;
constexpr int kListedSources = kBrickListedSources, kListedTaps = kBrickListedTaps;
constexpr int kFaceShift = 28;   // face f in bits 28-30 of a mailbox offset
constexpr int kClassShift = 20;  // a shell node's face class in bits 20-24 of its cell
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

template <class T, int kThreads, int kShellPerThread, int kColsPerThread, int kFacePerThread, bool kWalls>
__global__ void __launch_bounds__(kThreads, 1)
    brick_onchip_kernel(T* cur, T* prev, int steps, FieldLayout L, T w, BrickGrid g, BrickIo<T> io,
                        BrickClasses<T, kWalls> classes, typename TaggedWord<T>::Word* mail) {
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
#pragma unroll
    for (int i = 0; i < kShellPerThread; ++i) {
      if (shell[i] < 0) continue;
      if constexpr (kWalls) {
        const int o = shell[i] & ((1 << kClassShift) - 1), cls = shell[i] >> kClassShift;
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

// Receiver q's sample of step s of the run into slot slot0 + s: its taps' values summed in
// tap order in double, as receiver_sample (step_io.hpp) sums them from the field.
template <class T>
__global__ void brick_tap_sums_kernel(const T* tap_value, int run, int ntaps, const DeviceTap* taps,
                                      const int* tap_start, int nrec, T* rec_buf, long long slot0,
                                      const StepCounter* counter) {
  const long long slot = (counter ? counter->slot : 0) + slot0;
  for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < run * nrec; x += blockDim.x * gridDim.x) {
    const int s = x / nrec, q = x % nrec;
    const T* u = tap_value + (size_t)s * ntaps;
    double v = 0.0;
    for (int e = tap_start[q]; e < tap_start[q + 1]; ++e) v += taps[e].weight * (double)u[e];
    rec_buf[(slot + s) * nrec + q] = T(v);
  }
}

// A launch's memory besides the fields (onchip::LaunchScratch): both parities of every
// brick's faces in tagged words and a run's tap values.
constexpr int kScratchFields = 2;  // KernelVariant::multi_scratch_fields

template <class T>
struct BrickScratch {
  BrickScratch(const MultiStepArgs<T>& a, const BrickGrid& g, int ntaps, cudaStream_t stream)
      : mem(a.scratch, kScratchFields * (size_t)a.layout.total * sizeof(T),
            {mail_bytes(g), (size_t)kTapRunSteps * ntaps * sizeof(T)}, stream),
        mail(mem.part<Word>(0)),
        tap_value(mem.part<T>(1)) {}

  using Word = typename TaggedWord<T>::Word;
  static size_t mail_bytes(const BrickGrid& g) { return 2 * (size_t)g.blocks() * 6 * g.face_max * sizeof(Word); }

  onchip::LaunchScratch mem;
  Word* mail;
  T* tap_value;
};

std::string block_error_brick(const Stencil&, Precision, const BlockShape& b) {
  if (b.x != 32 || b.y != 32 || b.z != 1)
    return "block " + std::to_string(b.x) + "x" + std::to_string(b.y) + "x" + std::to_string(b.z) +
           " is not allowed: brick_onchip runs blocks of 32x32x1 (1024 threads; the bricks, not the block, shape "
           "its work)";
  return "";
}

std::string grid_error_brick(int nx, int ny, int nz, Precision p) {
  try {
    const DeviceFacts dev = onchip::device_facts();
    FieldLayout L;
    L.nx = nx, L.ny = ny, L.nz = nz;
    (void)brick_layout(L, p, dev.sms, dev.smem_optin);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}


// brick_layout's cut, found once per grid, precision and device: the search goes over every
// cut of up to one brick per SM, and a launch comes with every advance (each frame of the
// GUI's loop). A grid no cut holds throws each time, uncached.
BrickGrid cached_layout(const FieldLayout& L, Precision p, const DeviceFacts& dev) {
  static std::mutex m;
  static std::map<std::tuple<int, int, int, int, int, size_t>, BrickGrid> cache;
  const auto key = std::make_tuple(L.nx, L.ny, L.nz, (int)p, dev.sms, dev.smem_optin);
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, brick_layout(L, p, dev.sms, dev.smem_optin)).first;
  return it->second;
}

// Queues the runs of `a` with one form of the kernel: its shared memory set, its residency
// checked, the mailboxes' words zeroed before each run (no tag left from before), the sources' values before it and the taps'
// sums after it. Returns the launches queued.
template <class T, class Kernel, class Classes>
int run_bricks(Kernel kernel_fn, const Classes& classes, const MultiStepArgs<T>& a, const TiledStepData<T>& io,
               const BrickGrid& g, T w, bool values, int ntaps, const DeviceFacts& dev, cudaStream_t stream) {
  const void* kernel = (const void*)kernel_fn;
  const size_t smem = brick_smem_bytes(g, (int)sizeof(T));
  onchip::ensure_resident(kernel, g.threads, smem, g.blocks(), dev, "brick_onchip");
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeCooperative;
  attr[0].val.cooperative = 1;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3((unsigned)g.blocks());
  cfg.blockDim = dim3((unsigned)g.threads);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  const BrickScratch<T> parts(a, g, ntaps, stream);
  // Runs of at most kTapRunSteps steps when receivers record (the scratch holds a run's
  // tap values), each as long as the sources' values allow.
  int launches = 0;
  for (int s0 = 0; s0 < a.steps; s0 += kTapRunSteps) {
    MultiStepArgs<T> part = a;
    part.steps = std::min(kTapRunSteps, a.steps - s0);
    if (s0 % 2) std::swap(part.cur, part.prev);  // kTapRunSteps is even: never
    TiledStepData<T> d = io;
    d.step0 = io.step0 + s0;
    d.slot0 = io.slot0 + s0;
    launches += onchip::launch_source_runs(part, d, values, stream, [&](const TiledStepData<T>& rd, T* c, T* p,
                                                                        int run) {
      CUDA_CHECK(cudaMemsetAsync(parts.mail, 0, BrickScratch<T>::mail_bytes(g), stream));
      BrickIo<T> bio;
      bio.src = rd.src;
      bio.src_value = rd.src_value;
      bio.nsrc = values ? rd.nsrc : 0;
      bio.taps = rd.taps;
      bio.ntaps = ntaps;
      bio.tap_value = parts.tap_value;
      CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel_fn, c, p, run, a.layout, w, g, bio, classes, parts.mail));
      if (ntaps > 0) {
        const int n = run * rd.nrec;
        brick_tap_sums_kernel<T><<<std::min((n + 255) / 256, 1024), 256, 0, stream>>>(
            parts.tap_value, run, ntaps, rd.taps, rd.tap_start, rd.nrec, rd.rec_buf, rd.slot0, rd.counter);
        CUDA_CHECK_LAUNCH();
      }
    });
  }
  return launches;
}

template <class T>
int launch_multi(const MultiStepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  if (a.steps <= 0) return 0;
  const std::string why = block_error_brick(*a.stencil, precision_of<T>(), o.block);
  if (!why.empty()) throw std::invalid_argument("kernel 'brick_onchip': " + why);
  const DeviceFacts dev = onchip::device_facts();
  const BrickGrid g = cached_layout(a.layout, precision_of<T>(), dev);
  if ((long long)g.blocks() * 6 * g.face_max >= (1LL << kFaceShift))
    throw std::invalid_argument("kernel 'brick_onchip': " + std::to_string(g.blocks()) + " bricks' mailboxes of " +
                                std::to_string(g.face_max) + " points a face pass its offsets' bits");
  const T w = seven_point_coeffs(StepArgs<T>{a.prev, a.cur, a.layout, a.stencil, a.lambda2}).neighbour;
  // The solver gives it only rooms whose walls its face classes hold (MultiWalls::ClassFaces,
  // box_wall_classes); what the step data can tell of that is checked here.
  if (a.io && (a.io->solid_count > 0 || (a.io->bnd_count > 0 && a.io->wall_faces < 0)))
    throw std::invalid_argument("kernel 'brick_onchip': it runs the box's walls as whole faces by face class and no "
                                "obstacles; such a room is stepped singly (KernelVariant::MultiWalls::ClassFaces)");
  TiledStepData<T> io;
  if (a.io) io = *a.io;
  const bool values = io.nsrc > 0;
  if (values && (!io.src_value || io.src_value_steps <= 0))
    throw std::invalid_argument("kernel 'brick_onchip': the step data has no room for the sources' values");
  const int ntaps = io.nrec > 0 ? io.ntaps : 0;
  if (io.nrec > 0 && ntaps <= 0)
    throw std::invalid_argument("kernel 'brick_onchip': the step data's receivers do not say how many taps they have");
  const bool walls = a.io && a.io->bnd_count > 0;
  BrickClasses<T, true> classes;
  if (walls)
    for (int c = 0; c < kFaceClasses; ++c) classes.table[c] = io.class_table[c];
  // The form the bricks need (small or large) with or without the walls' classes.
  if (g.large)
    return walls ? run_bricks(brick_onchip_kernel<T, kBrickThreads, kLarge.shell, kLarge.cols, kLarge.faces, true>,
                              classes, a, io, g, w, values, ntaps, dev, stream)
                 : run_bricks(brick_onchip_kernel<T, kBrickThreads, kLarge.shell, kLarge.cols, kLarge.faces, false>,
                              BrickClasses<T, false>{}, a, io, g, w, values, ntaps, dev, stream);
  if (g.threads == kBrickFewThreads)
    return walls ? run_bricks(brick_onchip_kernel<T, kBrickFewThreads, kSmall.shell, kSmall.cols, kSmall.faces, true>,
                              classes, a, io, g, w, values, ntaps, dev, stream)
                 : run_bricks(brick_onchip_kernel<T, kBrickFewThreads, kSmall.shell, kSmall.cols, kSmall.faces, false>,
                              BrickClasses<T, false>{}, a, io, g, w, values, ntaps, dev, stream);
  return walls ? run_bricks(brick_onchip_kernel<T, kBrickThreads, kSmall.shell, kSmall.cols, kSmall.faces, true>,
                            classes, a, io, g, w, values, ntaps, dev, stream)
               : run_bricks(brick_onchip_kernel<T, kBrickThreads, kSmall.shell, kSmall.cols, kSmall.faces, false>,
                            BrickClasses<T, false>{}, a, io, g, w, values, ntaps, dev, stream);
}

}  // namespace

void register_brick_onchip_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "brick_onchip";
  v.name = "persistent, the grid in bricks in the shared memory of every SM, brick faces through L2";
  v.family = "ours";
  v.stencils = "7pt";
  v.supports = supports_seven_point;
  v.default_block = {32, 32, 1};
  v.block_error = block_error_brick;
  v.grid_error = grid_error_brick;
  v.block_uses_z = false;
  v.has_readonly_toggle = false;
  v.graph_capturable = false;  // it replaces the step graph: a launch is already many steps
  v.launch_float = one_step_through_multi<float, launch_multi<float>>;
  v.launch_double = one_step_through_multi<double, launch_multi<double>>;
  v.multi_float = launch_multi<float>;
  v.multi_double = launch_multi<double>;
  v.multi_scratch_fields = kScratchFields;
  v.multi_walls = KernelVariant::MultiWalls::ClassFaces;
  v.multi_uses_tiles = false;
  r.add(v);
}

}  // namespace ws
