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
// (Room::Faces, spread_room.cuh), else by the tiles' lists of onchip_planes.cuh.
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
#include "cuda/kernels/spread_room.cuh"
#include "cuda/step_io.hpp"
#include "cuda/tiled_step.hpp"

namespace ws {

namespace {

using namespace onchip;

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
  if constexpr (M == Room::Faces) {
    for (int c = tid; c < kFaceClasses; c += nth) classes[c] = load_class_coeffs(io.class_coeffs + c);
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

// A launch's memory besides the fields (onchip::LaunchScratch): the flags, both parities of
// every plane in the on-chip layout and each block's list of rows with events (Room::Faces).
constexpr int kScratchFields = 3;  // KernelVariant::multi_scratch_fields

template <class T>
struct EdgeScratch {
  EdgeScratch(const MultiStepArgs<T>& a, const OnChipLayout& g, bool lists_needed, cudaStream_t stream)
      : mem(a.scratch, kScratchFields * (size_t)a.layout.total * sizeof(T),
            {(size_t)g.blocks * sizeof(int), 2 * (size_t)a.layout.nz * g.plane * sizeof(T),
             lists_needed ? (size_t)g.blocks * g.vx * a.layout.ny * sizeof(int) : 0},
            stream),
        flags(mem.part<int>(0)),
        edges(mem.part<T>(1)),
        lists(mem.part<int>(2)) {}

  LaunchScratch mem;
  int* flags;
  T* edges;
  int* lists;
};


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
  ensure_resident(kernel, threads, smem, g.blocks, dev, "spread_onchip");
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
