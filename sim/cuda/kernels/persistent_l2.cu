// A persistent 7-point kernel for grids whose two fields fit in L2: one cooperative
// launch runs many whole steps, its blocks resident for the launch and the grid
// synchronised once per step, so a step costs no launch and its loads are served
// from L2 instead of DRAM (the fields are marked persisting in L2 through an
// access-policy window over both, when they lie in one allocation).
//
// Each block owns tiles of block.x * block.y * block.z interior points, one point
// per thread, tiles dealt round-robin over the resident blocks (on grids of a few
// hundred thousand points every tile has a block of its own). Within a step a block
// runs its tiles in batches of kBatch, every load of a batch issued before its first
// store, and finishes each batch completely:
//   1. its boundary nodes' new values into the side buffer (they read u^{n-1} at
//      the node, which step 2 overwrites in place),
//   2. the interior update of every point of the tile (exact_update.cuh),
//   3. the side buffer scattered over the boundary nodes, the solid nodes zeroed,
//   4. its sources added to u^{n+1};
// so every node of u^{n+1} is final when the grid barrier ends the step, and the
// receivers of step n are read by block 0 at the start of step n+1 (u^{n+1} is
// then the read-only u^n). The arithmetic of each node is the solver's other path
// (boundary_node.cuh, step_io.hpp, seven_point_update): the same bits.
//
// Loads are plain (not ld.global.nc): the two fields swap roles every step inside
// the launch, and the non-coherent path is only valid for data that no thread
// writes during the kernel. The grid barrier orders each step's stores before the
// next step's loads.
#include <cooperative_groups.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "boundary/boundary_node.cuh"
#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/launch_geometry.hpp"
#include "cuda/kernels/multi_step_one.hpp"
#include "cuda/kernels/seven_point.hpp"
#include "cuda/step_io.hpp"
#include "cuda/tiled_step.hpp"

namespace ws {

namespace {

namespace cg = cooperative_groups;

// At most 512 threads a block: kBatch points of 8 values each per thread need the
// registers that 1024-thread blocks could not have.
constexpr int kMaxThreads = 512;

__device__ __forceinline__ int block_thread() {
  return (int)(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}

// Tiles a block runs together: their loads are issued before any of their stores,
// so each thread has kBatch points' loads in flight instead of one L2 round trip
// per tile (registers: 8 values per point).
template <class T>
constexpr int kBatch = sizeof(T) == 4 ? 4 : 2;

// Steps 1-4 above for the tiles t0 + u * stride (u < kBatch, those below ntiles) of the
// step that produces un from uc (and un's u^{n-1}).
template <class T, bool IO>
__device__ __forceinline__ void batch_step(int t0, int stride, int ntiles, T* un, const T* uc, const FieldLayout& L,
                                           T w, const TiledStepData<T>& io, long long step) {
  constexpr int U = kBatch<T>;
  const TileGrid& g = io.tiles;
  const int tid = block_thread();
  const int nthreads = blockDim.x * blockDim.y * blockDim.z;
  // What the batch's tiles hold besides interior points (the same for every thread of
  // the block): most tiles of a room have no boundary node, obstacle or source, and
  // skip the barriers those need.
  bool bnd = false, solid = false, src = false;
  if constexpr (IO) {
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int t = t0 + u * stride;
      if (t >= ntiles) break;
      bnd |= io.bnd_start[t + 1] > io.bnd_start[t];
      solid |= io.solid_start[t + 1] > io.solid_start[t];
      src |= io.src_start[t + 1] > io.src_start[t];
    }
  }
  if (bnd) {
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int t = t0 + u * stride;
      if (t >= ntiles) break;
      for (int b = io.bnd_start[t] + tid; b < io.bnd_start[t + 1]; b += nthreads) {
        const int64_t q = io.bnd_node[b];
        io.side[b] = boundary_node_value(uc, un[q], q, io.bnd_mask[b], io.bnd_nfixed[b], io.bnd_cd[b], io.bnd_cl[b], L);
      }
    }
    __syncthreads();  // the side values read u^{n-1} at nodes the interior update overwrites
  }
  int64_t q[U];
  bool ok[U];
  T v[U][8];
#pragma unroll
  for (int u = 0; u < U; ++u) {
    const int t = t0 + u * stride;
    const int tx = t % g.nx, ty = (t / g.nx) % g.ny, tz = t / (g.nx * g.ny);
    const int i = tx * g.shape.x + (int)threadIdx.x, j = ty * g.shape.y + (int)threadIdx.y,
              k = tz * g.shape.z + (int)threadIdx.z;
    ok[u] = t < ntiles && i < L.nx && j < L.ny && k < L.nz;
    q[u] = ok[u] ? L.index(i, j, k) : 0;
    if (ok[u]) {
      const int64_t p = q[u];
      v[u][0] = uc[p];
      v[u][1] = un[p];
      v[u][2] = uc[p - 1];
      v[u][3] = uc[p + 1];
      v[u][4] = uc[p - L.pitch];
      v[u][5] = uc[p + L.pitch];
      v[u][6] = uc[p - L.plane];
      v[u][7] = uc[p + L.plane];
    }
  }
#pragma unroll
  for (int u = 0; u < U; ++u)
    if (ok[u])
      un[q[u]] = ex::seven_point_update(v[u][0], v[u][1], v[u][2], v[u][3], v[u][4], v[u][5], v[u][6], v[u][7], w);
  if (bnd || solid) {
    __syncthreads();  // the interior values of those nodes are written before they are replaced
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int t = t0 + u * stride;
      if (t >= ntiles) break;
      for (int b = io.bnd_start[t] + tid; b < io.bnd_start[t + 1]; b += nthreads) un[io.bnd_node[b]] = io.side[b];
      for (int s = io.solid_start[t] + tid; s < io.solid_start[t + 1]; s += nthreads) un[io.solid[s]] = T(0);
    }
  }
  if (src) {
    __syncthreads();  // a source adds to the node's final value
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int t = t0 + u * stride;
      if (t >= ntiles) break;
      for (int s = io.src_start[t] + tid; s < io.src_start[t + 1]; s += nthreads) {
        atomicAdd(un + io.src[s].index, source_addition<T>(io.src[s], step, io.dt));
      }
    }
  }
}

template <class T>
__device__ __forceinline__ void record_receivers(const T* u, const TiledStepData<T>& io, long long slot) {
  for (int q = block_thread(); q < io.nrec; q += blockDim.x * blockDim.y * blockDim.z)
    io.rec_buf[slot * io.nrec + q] = receiver_sample(u, io.taps, io.tap_start, q);
}

template <class T, bool IO>
__global__ void __launch_bounds__(kMaxThreads) persistent_l2_kernel(T* cur, T* prev, int steps, FieldLayout L, T w,
                                                                    TiledStepData<T> io) {
  cg::grid_group grid = cg::this_grid();
  const int ntiles = io.tiles.count();
  const int stride = (int)gridDim.x;
  for (int s = 0; s < steps; ++s) {
    T* uc = (s % 2 == 0) ? cur : prev;
    T* un = (s % 2 == 0) ? prev : cur;
    if constexpr (IO)
      if (s > 0 && blockIdx.x == 0 && io.nrec > 0) record_receivers<T>(uc, io, io.slot0 + s - 1);
    // Tiles are disjoint: a block's next batch touches none of the nodes or side
    // entries of its last, so no barrier is needed between them.
    for (int t = blockIdx.x; t < ntiles; t += kBatch<T> * stride)
      batch_step<T, IO>(t, stride, ntiles, un, uc, L, w, io, io.step0 + s);
    grid.sync();
  }
  if constexpr (IO)
    if (steps > 0 && blockIdx.x == 0 && io.nrec > 0)
      record_receivers<T>(((steps - 1) % 2 == 0) ? prev : cur, io, io.slot0 + steps - 1);
}

// Blocks resident at once on the current device: the cooperative launch's limit.
template <class T, bool IO>
int cooperative_blocks(int threads) {
  int dev = 0, coop = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  if (!coop) throw std::runtime_error("persistent_l2: this device does not support cooperative launches");
  return resident_blocks_per_sm((const void*)persistent_l2_kernel<T, IO>, threads, 0) * device_sm_count();
}

// The device's L2 facts for the access-policy window, cached per device.
struct L2Facts {
  size_t max_window = 0, persisting = 0;
};
std::mutex l2_mutex;
std::map<int, L2Facts> l2_cache;
std::map<int, bool> l2_set_aside;  // whether this process has the persisting set-aside on

L2Facts l2_facts(int dev) {
  auto it = l2_cache.find(dev);
  if (it != l2_cache.end()) return it->second;
  int win = 0, pers = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&win, cudaDevAttrMaxAccessPolicyWindowSize, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&pers, cudaDevAttrMaxPersistingL2CacheSize, dev));
  return l2_cache[dev] = L2Facts{(size_t)win, (size_t)pers};
}

// The persisting set-aside, raised to the device's maximum while this kernel runs.
// Measured on the H100: with the set-aside left on, every kernel launched afterwards in
// the process ran up to 2x slower (the single-step kernels at 24 kHz: 123 against 320
// Gpoints/s), so release_persisting_l2 takes it back to 0. Returns the persisting
// facts, persisting 0 where the limit cannot be set (MIG, MPS): no window then.
L2Facts enable_persisting_l2() {
  int dev = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  std::lock_guard<std::mutex> lock(l2_mutex);
  L2Facts f = l2_facts(dev);
  if (f.persisting == 0 || f.max_window == 0) return L2Facts{};
  if (!l2_set_aside[dev]) {
    if (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, f.persisting) != cudaSuccess) {
      (void)cudaGetLastError();
      return L2Facts{};
    }
    l2_set_aside[dev] = true;
  }
  return f;
}

std::string block_error_persistent(const Stencil&, Precision, const BlockShape& b) {
  if (b.x < 1 || b.y < 1 || b.z < 1 || b.threads() > kMaxThreads)
    return "block " + std::to_string(b.x) + "x" + std::to_string(b.y) + "x" + std::to_string(b.z) +
           " is not allowed: each side >= 1, at most " + std::to_string(kMaxThreads) + " threads";
  return "";
}

template <class T>
int launch_multi(const MultiStepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  if (a.steps <= 0) return 0;
  const std::string why = block_error_persistent(*a.stencil, precision_of<T>(), o.block);
  if (!why.empty()) throw std::invalid_argument("kernel 'persistent_l2': " + why);
  const T w = seven_point_coeffs(StepArgs<T>{a.prev, a.cur, a.layout, a.stencil, a.lambda2}).neighbour;
  TiledStepData<T> io;
  if (a.io) io = *a.io;
  else io.tiles = make_tile_grid(a.layout, TileShape{o.block.x, o.block.y, o.block.z});
  if (io.tiles.shape.x != o.block.x || io.tiles.shape.y != o.block.y || io.tiles.shape.z != o.block.z)
    throw std::invalid_argument("kernel 'persistent_l2': the step data is grouped by tiles of another block");
  const int threads = o.block.threads();
  // The launch without the I/O phases when the step data holds nothing for them.
  const bool with_io =
      a.io && (a.io->bnd_count > 0 || a.io->solid_count > 0 || a.io->nsrc > 0 || a.io->nrec > 0);
  const int resident = with_io ? cooperative_blocks<T, true>(threads) : cooperative_blocks<T, false>(threads);
  const int blocks = std::max(1, std::min(io.tiles.count(), resident));

  cudaLaunchAttribute attr[2];
  attr[0].id = cudaLaunchAttributeCooperative;
  attr[0].val.cooperative = 1;
  int nattr = 1;
  const L2Facts l2 = enable_persisting_l2();
  const size_t field = a.layout.bytes(sizeof(T));
  const char* lo = reinterpret_cast<const char*>(std::min(a.cur, a.prev));
  const char* hi = reinterpret_cast<const char*>(std::max(a.cur, a.prev)) + field;
  // One window over both fields when they are one allocation (CudaSolver's), else over u^n.
  const bool joint = (size_t)(hi - lo) == 2 * field;
  if (l2.persisting > 0) {
    attr[1].id = cudaLaunchAttributeAccessPolicyWindow;
    auto& w2 = attr[1].val.accessPolicyWindow;
    w2.base_ptr = joint ? (void*)lo : (void*)a.cur;
    w2.num_bytes = std::min(joint ? 2 * field : field, l2.max_window);
    w2.hitRatio = (float)std::min(1.0, (double)l2.persisting / (double)w2.num_bytes);
    w2.hitProp = cudaAccessPropertyPersisting;
    w2.missProp = cudaAccessPropertyStreaming;
    nattr = 2;
  }
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3((unsigned)blocks);
  cfg.blockDim = dim3((unsigned)o.block.x, (unsigned)o.block.y, (unsigned)o.block.z);
  cfg.dynamicSmemBytes = 0;
  cfg.stream = stream;
  cfg.attrs = attr;
  cfg.numAttrs = (unsigned)nattr;
  if (with_io) CUDA_CHECK(cudaLaunchKernelEx(&cfg, persistent_l2_kernel<T, true>, a.cur, a.prev, a.steps, a.layout, w, io));
  else CUDA_CHECK(cudaLaunchKernelEx(&cfg, persistent_l2_kernel<T, false>, a.cur, a.prev, a.steps, a.layout, w, io));
  CUDA_CHECK_LAUNCH();
  return 1;
}

// Back to normal L2 lines and no set-aside, so the whole L2 serves every kernel again.
void release_persisting_l2() {
  if (cudaCtxResetPersistingL2Cache() != cudaSuccess) (void)cudaGetLastError();
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) {
    (void)cudaGetLastError();
    return;
  }
  std::lock_guard<std::mutex> lock(l2_mutex);
  if (!l2_set_aside[dev]) return;
  if (cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0) != cudaSuccess) (void)cudaGetLastError();
  l2_set_aside[dev] = false;
}

}  // namespace

void register_persistent_l2_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "persistent_l2";
  v.name = "persistent, many steps per cooperative launch, fields held in L2";
  v.family = "ours";
  v.stencils = "7pt";
  v.supports = supports_seven_point;
  v.default_block = {32, 8, 2};
  v.block_error = block_error_persistent;
  v.block_uses_z = true;
  v.has_readonly_toggle = false;
  v.graph_capturable = false;  // it replaces the step graph: a launch is already many steps
  v.launch_float = one_step_through_multi<float, launch_multi<float>>;
  v.launch_double = one_step_through_multi<double, launch_multi<double>>;
  v.multi_float = launch_multi<float>;
  v.multi_double = launch_multi<double>;
  v.release = release_persisting_l2;
  r.add(v);
}

}  // namespace ws
