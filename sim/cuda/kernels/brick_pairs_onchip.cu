// A persistent 7-point kernel for small grids that advances two steps for each exchange
// between its bricks. On grids of a few hundred thousand points brick_onchip.cu is bound by
// the trip of its faces through L2 each step, not by its updates (a 64^3 step: about 0.3 us
// of updates in 1.4-1.9 us). Here a brick keeps its halos two points deep and computes the
// first step of a pair also on a one-point ring across each face that has a neighbour (the
// neighbour's own outer cells, by the same arithmetic from the same values: the same bits);
// the second step then needs nothing from outside, and one exchange serves both.
//
// A pair of steps of a block, u^n in A (brick, two-point face halos, one-point edge halos),
// u^{n-1} in B (brick and ring):
//   1. B <- u^{n+1} on the brick and the ring (the ring's u^{n-1} is this block's own, from
//      the pair before, or loaded at the launch's start);
//   2. A <- u^{n+2} on the brick: its outer two layers first, then published (two layers of
//      each face, one line of each edge, to the up to 18 neighbours that share a face or an
//      edge), then the rest while they travel; then the neighbours' layers and lines into
//      A's halos.
// The 7-point update of a ring cell reads the edge halo (the cell beside it across the other
// face), so edges travel too; corners are never read. A brick's cells of each pass are
// listed once per launch as 16-bit offsets in shared memory, so the bricks are bound by
// shared memory, not registers: grids of up to about 1 M points in float.
//
// Faces travel in mailbox words tagged with their pair (tagged_mailbox.cuh), two parities.
// Fixed walls (the zero halo of the grid), sources and receivers run inside; a room with
// boundary nodes is stepped singly by the solver (KernelVariant::MultiWalls::None). Sources
// are added by one thread of each block whose cells (brick or ring) hold them, in source
// order, after the update of their step; taps' values are stored per step and summed after
// the run (brick_io.cuh), as in brick_onchip.
//
// The launch is cooperative: every block is resident at once, which the polling needs.
#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>

#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/brick_io.cuh"
#include "cuda/kernels/brick_layout.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/multi_step_one.hpp"
#include "cuda/kernels/onchip_planes.cuh"
#include "cuda/kernels/seven_point.hpp"
#include "cuda/kernels/tagged_mailbox.cuh"
#include "cuda/step_io.hpp"
#include "cuda/tiled_step.hpp"

namespace ws {

namespace {

using onchip::DeviceFacts;
using onchip::TaggedWord;

constexpr int kThreads = kBrickThreads;
constexpr int kListedSources = kBrickListedSources, kListedTaps = kBrickListedTaps;
constexpr int kTapRunSteps = 1024;  // even: a run's pairs never straddle two runs' taps
constexpr int kDirs = 18;           // 6 faces and 12 edges
constexpr int kRecvBatch = 8;       // received words a thread loads before polling any

// Direction d of a message: the offset (dx, dy, dz) of the brick it goes to, one or two of
// them non-zero (corners are never read by the 7-point update of a ring cell).
__host__ __device__ inline void direction(int d, int& dx, int& dy, int& dz) {
  int k = 0;
  for (int z = -1; z <= 1; ++z)
    for (int y = -1; y <= 1; ++y)
      for (int x = -1; x <= 1; ++x) {
        const int nz = (x != 0) + (y != 0) + (z != 0);
        if (nz == 0 || nz == 3) continue;
        if (k++ == d) {
          dx = x, dy = y, dz = z;
          return;
        }
      }
}

// A brick of the grid: its position in bricks, origin and size.
struct Brick {
  int cx, cy, cz, x0, y0, z0, bx, by, bz;
};

__device__ inline Brick brick_at(const BrickGrid& g, const FieldLayout& L, int cx, int cy, int cz) {
  Brick b;
  b.cx = cx, b.cy = cy, b.cz = cz;
  b.x0 = cx * g.sx, b.y0 = cy * g.sy, b.z0 = cz * g.sz;
  b.bx = min(g.sx, L.nx - b.x0), b.by = min(g.sy, L.ny - b.y0), b.bz = min(g.sz, L.nz - b.z0);
  return b;
}

__device__ inline bool has_neighbour(const BrickGrid& g, const Brick& b, int dx, int dy, int dz) {
  return b.cx + dx >= 0 && b.cx + dx < g.px && b.cy + dy >= 0 && b.cy + dy < g.py && b.cz + dz >= 0 &&
         b.cz + dz < g.pz;
}

// Elements of the message a brick of size (bx, by, bz) sends in direction (dx, dy, dz): two
// layers of a face, one line of an edge; the free axes in x-fastest order within a layer.
__device__ inline int message_length(const Brick& b, int dx, int dy, int dz) {
  const int layers = ((dx != 0) + (dy != 0) + (dz != 0)) == 1 ? 2 : 1;
  return layers * (dx == 0 ? b.bx : 1) * (dy == 0 ? b.by : 1) * (dz == 0 ? b.bz : 1);
}

// The cell of element e of that message in the sender's brick (receiver = false) or in the
// receiver's halo (receiver = true; `b` is then the receiver, whose free extents are the
// sender's). Layer l of a face is the sender's l-th layer from it and the receiver's halo l
// points out.
__device__ inline void message_cell(const Brick& b, int dx, int dy, int dz, int e, bool receiver, int& x, int& y,
                                    int& z) {
  const int fx = dx == 0 ? b.bx : 1, fy = dy == 0 ? b.by : 1, fz = dz == 0 ? b.bz : 1;
  const int ext = fx * fy * fz;
  const int l = e / ext, q = e % ext;
  const int ix = q % fx, iy = (q / fx) % fy, iz = q / (fx * fy);
  // For a receiver, (dx, dy, dz) is where the sender lies (it sent across the opposite):
  // the layers go into the halo on that side.
  auto axis = [&](int d, int free_index, int n) {
    if (d == 0) return free_index;
    if (!receiver) return d > 0 ? n - 1 - l : l;
    return d > 0 ? n + l : -1 - l;
  };
  x = axis(dx, ix, b.bx), y = axis(dy, iy, b.by), z = axis(dz, iz, b.bz);
}

// Where the message a brick sent in direction d starts in its outbox: after its messages of
// the directions before d that have a neighbour.
__device__ inline int outbox_start(const BrickGrid& g, const Brick& b, int d) {
  int start = 0;
  for (int k = 0; k < d; ++k) {
    int dx, dy, dz;
    direction(k, dx, dy, dz);
    if (has_neighbour(g, b, dx, dy, dz)) start += message_length(b, dx, dy, dz);
  }
  return start;
}

// Direction index of (dx, dy, dz).
__device__ inline int direction_index(int dx, int dy, int dz) {
  for (int k = 0; k < kDirs; ++k) {
    int x, y, z;
    direction(k, x, y, z);
    if (x == dx && y == dy && z == dz) return k;
  }
  return -1;
}

// The block appends f(i) for every i in [0, n) with pred(i) to list, in order of i, and
// returns the count: each warp counts a contiguous chunk, the chunks' offsets follow from
// the counts (`scratch`: one int a warp), then each warp writes its chunk. Every thread
// calls it (it holds barriers).
template <class Pred, class F>
__device__ inline int compact(int n, unsigned short* list, int* scratch, Pred pred, F f) {
  constexpr int kWarps = kThreads / 32;
  const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  const int chunk = (n + kWarps - 1) / kWarps;
  const int lo = min(n, warp * chunk), hi = min(n, lo + chunk);
  int count = 0;
  for (int base = lo; base < hi; base += 32) {
    const int i = base + lane;
    count += __popc(__ballot_sync(0xffffffffu, i < hi && pred(i)));
  }
  if (lane == 0) scratch[warp] = count;
  __syncthreads();
  int at = 0, total = 0;
  for (int k = 0; k < kWarps; ++k) {
    at += k < warp ? scratch[k] : 0;
    total += scratch[k];
  }
  for (int base = lo; base < hi; base += 32) {
    const int i = base + lane;
    const bool p = i < hi && pred(i);
    const unsigned mask = __ballot_sync(0xffffffffu, p);
    if (p) list[at + __popc(mask & ((1u << lane) - 1u))] = (unsigned short)f(i);
    at += __popc(mask);
  }
  __syncthreads();
  return total;
}

template <class T>
__global__ void __launch_bounds__(kThreads, 1)
    brick_pairs_kernel(T* cur, T* prev, int steps, FieldLayout L, T w, BrickGrid g, BrickIo<T> io,
                       typename TaggedWord<T>::Word* mail) {
  using Word = typename TaggedWord<T>::Word;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  const int r = blockIdx.x, t = threadIdx.x;
  const Brick me = brick_at(g, L, r % g.px, (r / g.px) % g.py, r / (g.px * g.py));
  const int bx = me.bx, by = me.by, bz = me.bz;
  const int vol = bx * by * bz;
  const int ring_max = 2 * (g.sy * g.sz + g.sx * g.sz + g.sx * g.sy);
  const int vol_max = g.sx * g.sy * g.sz;
  const int out_max = g.face_max;
  auto up16 = [](size_t b) { return (b + 15) / 16 * 16; };
  // Shared memory: the fields, then the lists (brick_pair_smem_bytes).
  T* A = reinterpret_cast<T*>(smem_raw);  // u^n
  T* B = A + g.cells;                     // u^{n-1}, then u^{n+1}
  unsigned char* p = smem_raw + up16(2 * (size_t)g.cells * sizeof(T));
  unsigned short* alpha = reinterpret_cast<unsigned short*>(p);  // step 1: brick and ring
  p += up16(2 * (size_t)(vol_max + ring_max));
  unsigned short* beta = reinterpret_cast<unsigned short*>(p);  // step 2: outer layers, then the rest
  p += up16(2 * (size_t)vol_max);
  unsigned short* pub = reinterpret_cast<unsigned short*>(p);  // published cells, outbox order
  p += up16(2 * (size_t)out_max);
  unsigned short* recv_cell = reinterpret_cast<unsigned short*>(p);  // received cells
  int* recv_word = reinterpret_cast<int*>(recv_cell + out_max);       // and their mailbox words
  p += up16(6 * (size_t)out_max);
  int* src_list = reinterpret_cast<int*>(p);            // (source, cell, kind), source order
  int* tap_list = src_list + 3 * kListedSources;        // (tap, cell)
  int* counts = tap_list + 2 * kListedTaps;             // sources, taps and kinds listed
  int* dir_len = counts + 8;                            // each direction's message (0: no neighbour)
  int* dir_from = counts + 32;                          // where the neighbour across it sent its own
  int* warp_scratch = counts + 64;                      // compact()

  // The step data's fields the lambdas read, copied (a lambda holding a reference to the
  // kernel's parameter struct would put the struct on the stack).
  const DeviceSource* const src = io.src;
  const T* const src_value = io.src_value;
  const int nsrc = io.nsrc;
  const DeviceTap* const taps = io.taps;
  const int ntaps = io.ntaps;
  T* const tap_value = io.tap_value;
  auto cell = [&](int x, int y, int z) { return (z + 2) * g.PS + (y + 2) * g.PX + (x + 2); };
  // Whether a cell (brick coordinates) is on the ring across a face with a neighbour.
  auto on_ring = [&](int x, int y, int z) {
    const int ox = x < 0 ? -1 : x >= bx ? 1 : 0, oy = y < 0 ? -1 : y >= by ? 1 : 0, oz = z < 0 ? -1 : z >= bz ? 1 : 0;
    if ((ox != 0) + (oy != 0) + (oz != 0) != 1) return false;
    if (x < -1 || x > bx || y < -1 || y > by || z < -1 || z > bz) return false;
    return has_neighbour(g, me, ox, oy, oz);
  };
  // Source kinds: bit 0 on the first step's cells (brick or ring), bit 1 in the brick's
  // outer two layers, bit 2 in the rest of the brick.
  auto source_kind = [&](int e, int& c) {
    const FieldLayout::Point q = L.point(src[e].index);
    const int x = q.i - me.x0, y = q.j - me.y0, z = q.k - me.z0;
    const bool in = x >= 0 && x < bx && y >= 0 && y < by && z >= 0 && z < bz;
    if (!in && !on_ring(x, y, z)) return 0;
    c = cell(x, y, z);
    if (!in) return 1;
    const bool outer = x < 2 || x >= bx - 2 || y < 2 || y >= by - 2 || z < 2 || z >= bz - 2;
    return 1 | (outer ? 2 : 4);
  };

  // Both fields zeroed (a halo on a wall of the grid stays 0, the fixed wall); then u^n on
  // the brick, two layers of each face and the edges' lines that have a neighbour, u^{n-1}
  // on the brick and the ring.
  for (int c = t; c < 2 * g.cells; c += kThreads) A[c] = T(0);
  __syncthreads();
  {
    const int hx = bx + 4, hy = by + 4, hz = bz + 4;
    for (int c = t; c < hx * hy * hz; c += kThreads) {
      const int x = c % hx - 2, y = (c / hx) % hy - 2, z = c / (hx * hy) - 2;
      const int ox = x < 0 ? -1 : x >= bx ? 1 : 0, oy = y < 0 ? -1 : y >= by ? 1 : 0, oz = z < 0 ? -1 : z >= bz ? 1 : 0;
      const int out = (ox != 0) + (oy != 0) + (oz != 0);
      const int far = (x < -1 || x > bx) + (y < -1 || y > by) + (z < -1 || z > bz);
      bool a = out == 0, b = out == 0;
      if (out == 1 && has_neighbour(g, me, ox, oy, oz)) a = true, b = far == 0;
      if (out == 2 && far == 0 && has_neighbour(g, me, ox, oy, oz)) a = true;
      if (!a) continue;
      const int64_t q = L.index(me.x0 + x, me.y0 + y, me.z0 + z);
      A[cell(x, y, z)] = cur[q];
      if (b) B[cell(x, y, z)] = prev[q];
    }
  }
  // The lists: the passes' cells compacted by the block; sources and taps by one thread.
  {
    const int hx = bx + 2, hy = by + 2, hz = bz + 2;
    const int na = compact(hx * hy * hz, alpha, warp_scratch,
                           [&](int c) {
                             const int x = c % hx - 1, y = (c / hx) % hy - 1, z = c / (hx * hy) - 1;
                             return (x >= 0 && x < bx && y >= 0 && y < by && z >= 0 && z < bz) || on_ring(x, y, z);
                           },
                           [&](int c) { return cell(c % hx - 1, (c / hx) % hy - 1, c / (hx * hy) - 1); });
    auto outer = [&](int c) {
      const int x = c % bx, y = (c / bx) % by, z = c / (bx * by);
      return x < 2 || x >= bx - 2 || y < 2 || y >= by - 2 || z < 2 || z >= bz - 2;
    };
    auto brick_cell = [&](int c) { return cell(c % bx, (c / bx) % by, c / (bx * by)); };
    const int nouter = compact(vol, beta, warp_scratch, outer, brick_cell);
    compact(vol, beta + nouter, warp_scratch, [&](int c) { return !outer(c); }, brick_cell);
    if (t == 0) counts[0] = na, counts[1] = nouter;
  }
  if (t == 32) {  // sources and taps listed in order, or -1 past the lists
    int n = 0, kinds = 0;
    for (int e = 0; e < nsrc; ++e) {
      int c = 0;
      const int k = source_kind(e, c);
      if (k == 0) continue;
      kinds |= k;
      if (n >= 0 && n < kListedSources) {
        src_list[3 * n] = e, src_list[3 * n + 1] = c, src_list[3 * n + 2] = k;
        ++n;
      } else {
        n = -1;
      }
    }
    counts[2] = n, counts[3] = kinds;
    int m = 0;
    for (int e = 0; e < ntaps && m >= 0; ++e) {
      const FieldLayout::Point q = L.point(taps[e].index);
      const int x = q.i - me.x0, y = q.j - me.y0, z = q.k - me.z0;
      if (x < 0 || x >= bx || y < 0 || y >= by || z < 0 || z >= bz) continue;
      if (m == kListedTaps) {
        m = -1;
        break;
      }
      tap_list[2 * m] = e, tap_list[2 * m + 1] = cell(x, y, z);
      ++m;
    }
    counts[4] = m;
  }
  // Each direction's message, by one thread each: its length, and where the neighbour
  // across it sent its own (across the opposite direction) in the mailboxes.
  if (t < kDirs) {
    int dx, dy, dz;
    direction(t, dx, dy, dz);
    dir_len[t] = 0;
    if (has_neighbour(g, me, dx, dy, dz)) {
      dir_len[t] = message_length(me, dx, dy, dz);
      const Brick nb = brick_at(g, L, me.cx + dx, me.cy + dy, me.cz + dz);
      const int nb_index = nb.cx + g.px * (nb.cy + g.py * nb.cz);
      dir_from[t] = nb_index * out_max + outbox_start(g, nb, direction_index(-dx, -dy, -dz));
    }
  }
  __syncthreads();
  // Published and received elements, direction by direction: the message sent across d in
  // the outbox's order; the one received from across d (as long) beside it.
  int npub = 0;
  for (int d = 0; d < kDirs; ++d) {
    const int len = dir_len[d];
    if (len == 0) continue;
    int dx, dy, dz;
    direction(d, dx, dy, dz);
    for (int e = t; e < len; e += kThreads) {
      int x, y, z;
      message_cell(me, dx, dy, dz, e, false, x, y, z);
      pub[npub + e] = (unsigned short)cell(x, y, z);
      message_cell(me, dx, dy, dz, e, true, x, y, z);
      recv_cell[npub + e] = (unsigned short)cell(x, y, z);
      recv_word[npub + e] = dir_from[d] + e;
    }
    npub += len;
  }
  __syncthreads();
  const int nalpha = counts[0], nouter = counts[1], nsrc_listed = counts[2], kinds = counts[3];
  const int ntap_listed = counts[4];
  const size_t half = (size_t)g.blocks() * out_max;

  // The sources of kind `kind` of step s into u (one thread, source order).
  auto add_sources = [&](int s, int kind, T* u) {
    if (t != 0) return;
    const T* v = src_value + (size_t)s * nsrc;
    if (nsrc_listed >= 0) {
      for (int n = 0; n < nsrc_listed; ++n)
        if (src_list[3 * n + 2] & kind) u[src_list[3 * n + 1]] += v[src_list[3 * n]];
      return;
    }
    for (int e = 0; e < nsrc; ++e) {
      int c = 0;
      if (source_kind(e, c) & kind) u[c] += v[e];
    }
  };
  // The taps' values of step s from u (its brick, which nothing writes meanwhile).
  auto record_taps = [&](int s, const T* u) {
    if (ntaps <= 0) return;
    T* tv = tap_value + (size_t)s * ntaps;
    if (ntap_listed >= 0) {
      for (int n = t; n < ntap_listed; n += kThreads) tv[tap_list[2 * n]] = u[tap_list[2 * n + 1]];
      return;
    }
    for (int e = t; e < ntaps; e += kThreads) {
      const FieldLayout::Point q = L.point(taps[e].index);
      const int x = q.i - me.x0, y = q.j - me.y0, z = q.k - me.z0;
      if (x >= 0 && x < bx && y >= 0 && y < by && z >= 0 && z < bz) tv[e] = u[cell(x, y, z)];
    }
  };
  const int PX = g.PX, PS = g.PS;
  auto update = [&](const unsigned short* list, int from, int to, const T* u, T* v) {
    for (int i = from + t; i < to; i += kThreads) {
      const int o = list[i];
      v[o] = ex::seven_point_update(u[o], v[o], u[o - 1], u[o + 1], u[o - PX], u[o + PX], u[o - PS], u[o + PS], w);
    }
  };

  for (int s = 0; s < steps; s += 2) {
    if (s > 0) record_taps(s - 1, A);
    // Step s: u^{n+1} into B on the brick and the ring.
    update(alpha, 0, nalpha, A, B);
    __syncthreads();
    if (kinds & 1) {
      add_sources(s, 1, B);
      __syncthreads();
    }
    if (s + 1 == steps) break;
    // Step s + 1: u^{n+2} into A on the brick, its outer layers first and published.
    update(beta, 0, nouter, B, A);
    __syncthreads();
    if (kinds & 2) {
      add_sources(s + 1, 2, A);
      __syncthreads();
    }
    const unsigned pair = (unsigned)(s / 2) + 1u;
    Word* box = mail + (size_t)(pair & 1u) * half;
    Word* out = box + (size_t)r * out_max;
    for (int i = t; i < npub; i += kThreads) onchip::publish<T>(out + i, A[pub[i]], pair);
    record_taps(s, B);
    update(beta, nouter, vol, B, A);
    if (kinds & 4) {
      __syncthreads();
      add_sources(s + 1, 4, A);
    }
    // The neighbours' layers and lines of u^{n+2}: a batch of first loads, then each polled
    // until it carries this pair's tag. (The halo cells are read by no one until the barrier.)
    for (int i0 = t; i0 < npub; i0 += kRecvBatch * kThreads) {
      Word v[kRecvBatch];
#pragma unroll
      for (int k = 0; k < kRecvBatch; ++k) {
        const int i = i0 + k * kThreads;
        if (i < npub) v[k] = onchip::load_relaxed(box + recv_word[i]);
      }
#pragma unroll
      for (int k = 0; k < kRecvBatch; ++k) {
        const int i = i0 + k * kThreads;
        if (i >= npub) continue;
        while (!TaggedWord<T>::tagged(v[k], pair)) v[k] = onchip::load_relaxed(box + recv_word[i]);
        A[recv_cell[i]] = TaggedWord<T>::value(v[k]);
      }
    }
    __syncthreads();
  }
  // After an even run u^{n+steps} is in A and u^{n+steps-1} in B; after an odd one the
  // reverse. The two-grid scheme leaves the newest in `prev` after an odd run.
  const bool odd = steps & 1;
  if (steps > 0) record_taps(steps - 1, odd ? B : A);
  const T* newest = odd ? B : A;
  const T* older = odd ? A : B;
  T* newest_out = odd ? prev : cur;
  T* older_out = odd ? cur : prev;
  for (int c = t; c < vol; c += kThreads) {
    const int x = c % bx, y = (c / bx) % by, z = c / (bx * by);
    const int64_t q = L.index(me.x0 + x, me.y0 + y, me.z0 + z);
    newest_out[q] = newest[cell(x, y, z)];
    older_out[q] = older[cell(x, y, z)];
  }
}

constexpr int kScratchFields = 2;  // KernelVariant::multi_scratch_fields

// A launch's memory besides the fields (onchip::LaunchScratch): both parities of every
// brick's outbox in tagged words, and a run's tap values.
template <class T>
struct PairScratch {
  using Word = typename TaggedWord<T>::Word;
  static size_t mail_bytes(const BrickGrid& g) { return 2 * (size_t)g.blocks() * g.face_max * sizeof(Word); }

  PairScratch(const MultiStepArgs<T>& a, const BrickGrid& g, int ntaps, cudaStream_t stream)
      : mem(a.scratch, kScratchFields * (size_t)a.layout.total * sizeof(T),
            {mail_bytes(g), (size_t)kTapRunSteps * ntaps * sizeof(T)}, stream),
        mail(mem.part<Word>(0)),
        tap_value(mem.part<T>(1)) {}

  onchip::LaunchScratch mem;
  Word* mail;
  T* tap_value;
};

std::string block_error_pairs(const Stencil&, Precision, const BlockShape& b) {
  if (b.x != 32 || b.y != 32 || b.z != 1)
    return "block " + std::to_string(b.x) + "x" + std::to_string(b.y) + "x" + std::to_string(b.z) +
           " is not allowed: brick_pairs_onchip runs blocks of 32x32x1 (1024 threads; the bricks, not the block, "
           "shape its work)";
  return "";
}

std::string grid_error_pairs(int nx, int ny, int nz, Precision p) {
  try {
    const DeviceFacts dev = onchip::device_facts();
    FieldLayout L;
    L.nx = nx, L.ny = ny, L.nz = nz;
    (void)brick_pair_layout(L, p, dev.sms, dev.smem_optin);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// The cut, found once per grid, precision and device (a launch comes with every advance).
BrickGrid cached_pair_layout(const FieldLayout& L, Precision p, const DeviceFacts& dev) {
  static std::mutex m;
  static std::map<std::tuple<int, int, int, int, int, size_t>, BrickGrid> cache;
  const auto key = std::make_tuple(L.nx, L.ny, L.nz, (int)p, dev.sms, dev.smem_optin);
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, brick_pair_layout(L, p, dev.sms, dev.smem_optin)).first;
  return it->second;
}

template <class T>
int launch_multi(const MultiStepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  if (a.steps <= 0) return 0;
  const std::string why = block_error_pairs(*a.stencil, precision_of<T>(), o.block);
  if (!why.empty()) throw std::invalid_argument("kernel 'brick_pairs_onchip': " + why);
  if (a.io && (a.io->solid_count > 0 || a.io->bnd_count > 0))
    throw std::invalid_argument("kernel 'brick_pairs_onchip': it runs fixed walls only; a room with boundary nodes "
                                "is stepped singly (KernelVariant::MultiWalls::None)");
  const DeviceFacts dev = onchip::device_facts();
  const BrickGrid g = cached_pair_layout(a.layout, precision_of<T>(), dev);
  if ((long long)g.blocks() * g.face_max * 2 >= (1LL << 31))
    throw std::invalid_argument("kernel 'brick_pairs_onchip': the mailboxes pass 32-bit offsets");
  const T w = seven_point_coeffs(StepArgs<T>{a.prev, a.cur, a.layout, a.stencil, a.lambda2}).neighbour;
  TiledStepData<T> io;
  if (a.io) io = *a.io;
  const bool values = io.nsrc > 0;
  if (values && (!io.src_value || io.src_value_steps <= 0))
    throw std::invalid_argument("kernel 'brick_pairs_onchip': the step data has no room for the sources' values");
  const int ntaps = io.nrec > 0 ? io.ntaps : 0;
  if (io.nrec > 0 && ntaps <= 0)
    throw std::invalid_argument(
        "kernel 'brick_pairs_onchip': the step data's receivers do not say how many taps they have");

  auto kernel_fn = brick_pairs_kernel<T>;
  const size_t smem = brick_pair_smem_bytes(g, (int)sizeof(T));
  onchip::ensure_resident((const void*)kernel_fn, kThreads, smem, g.blocks(), dev, "brick_pairs_onchip");
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeCooperative;
  attr[0].val.cooperative = 1;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3((unsigned)g.blocks());
  cfg.blockDim = dim3((unsigned)kThreads);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  const PairScratch<T> parts(a, g, ntaps, stream);
  int launches = 0;
  for (int s0 = 0; s0 < a.steps; s0 += kTapRunSteps) {
    MultiStepArgs<T> part = a;
    part.steps = std::min(kTapRunSteps, a.steps - s0);
    TiledStepData<T> d = io;
    d.step0 = io.step0 + s0;
    d.slot0 = io.slot0 + s0;
    launches += onchip::launch_source_runs(part, d, values, stream, [&](const TiledStepData<T>& rd, T* c, T* p,
                                                                        int run) {
      // Every word zeroed: no tag left from another launch or another use of the memory.
      CUDA_CHECK(cudaMemsetAsync(parts.mail, 0, PairScratch<T>::mail_bytes(g), stream));
      BrickIo<T> bio;
      bio.src = rd.src;
      bio.src_value = rd.src_value;
      bio.nsrc = values ? rd.nsrc : 0;
      bio.taps = rd.taps;
      bio.ntaps = ntaps;
      bio.tap_value = parts.tap_value;
      CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel_fn, c, p, run, a.layout, w, g, bio, parts.mail));
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

}  // namespace

void register_brick_pairs_onchip_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "brick_pairs_onchip";
  v.name = "persistent, the grid in bricks in every SM's shared memory, two steps per exchange of faces and edges";
  v.family = "ours";
  v.stencils = "7pt";
  v.supports = supports_seven_point;
  v.default_block = {32, 32, 1};
  v.block_error = block_error_pairs;
  v.grid_error = grid_error_pairs;
  v.block_uses_z = false;
  v.has_readonly_toggle = false;
  v.graph_capturable = false;  // it replaces the step graph: a launch is already many steps
  v.launch_float = one_step_through_multi<float, launch_multi<float>>;
  v.launch_double = one_step_through_multi<double, launch_multi<double>>;
  v.multi_float = launch_multi<float>;
  v.multi_double = launch_multi<double>;
  v.multi_scratch_fields = kScratchFields;
  v.multi_walls = KernelVariant::MultiWalls::None;
  v.multi_uses_tiles = false;
  r.add(v);
}

}  // namespace ws
