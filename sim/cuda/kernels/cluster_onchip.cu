// A persistent 7-point kernel for small grids whose two fields fit in the shared memory
// of one thread-block cluster (compute capability 9.0: up to 16 blocks of up to 227 KiB,
// about 450 k points in float, 230 k in double): the fields are loaded once per launch,
// stay on chip for every step of it, and are written back at its end. A step costs no
// launch, no grid-wide barrier and no load from L2 or DRAM: the blocks exchange their
// edge planes through distributed shared memory and meet at one cluster barrier per step.
//
// Block r of the cluster owns the z planes [r P, r P + P) (the last block fewer), both
// fields of them, each plane padded by the zero halo ring (rows -1 and ny, columns -1 and
// nx) so that a 16-byte vector of V = 16 / sizeof(T) points always lies inside it. Each
// thread streams strips of two rows of a vector column through the block's planes, keeping
// the strip's u^n planes k-1, k, k+1 in registers; the vector's y neighbours come from the
// strip's other row and from shared memory,
// its x neighbours from the vector itself and, at its ends, from the neighbouring lanes
// (shuffles), and its z neighbours at the block's first and last plane from the blocks
// below and above (distributed shared memory). u^{n+1} overwrites u^{n-1} in place, as in
// the solver's two-field scheme, so the field the neighbours read during a step is never
// written during it and one barrier per step suffices.
//
// Walls, obstacles, sources and receivers run inside, as in persistent_l2.cu: a block
// computes its boundary nodes' values into the side buffer before its interior update
// (they read u^{n-1} at the node), then scatters them, zeroes its solid nodes and adds
// its sources (onchip_planes.cuh); block 0 reads the receivers at the start of the next
// step (through distributed shared memory).
#include <cooperative_groups.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>

#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/launch_geometry.hpp"
#include "cuda/kernels/multi_step_one.hpp"
#include "cuda/kernels/onchip_planes.cuh"
#include "cuda/kernels/seven_point.hpp"
#include "cuda/step_io.hpp"
#include "cuda/tiled_step.hpp"

namespace ws {

namespace {

namespace cg = cooperative_groups;
using namespace onchip;

constexpr int kMaxCluster = 16;  // non-portable cluster size (compute capability 9.0)

// A receiver tap as block 0 reads it every step: the owning block, the offset in its
// planes, the weight. Up to kCachedTaps taps are resolved once per launch into shared
// memory; more are resolved from the step data every step. Block 0 records the receivers
// of step n at the start of step n + 1, through distributed shared memory: the loads'
// latency then passes while its other warps update their columns. (Recording each
// receiver in the block that holds its taps, at the end of the step, from its own planes,
// measured slower: the block's extra barrier lies on every step's critical path.)

template <class T>
__device__ __forceinline__ CachedTap resolve_tap(const OnChipLayout& g, const FieldLayout& L, const DeviceTap& t) {
  const FieldLayout::Point pt = local_point(L, t.index);
  const int owner = pt.k / g.planes;
  return {owner, (pt.k - owner * g.planes) * g.plane + local_offset<T>(g, pt.i, pt.j), t.weight};
}

// receiver_sample's sum (weights in double, in tap order) over u^n in the cluster's shared
// memory (field_local: the field's planes in this block; the same offset in every block).
template <class T>
__device__ void record_receivers(cg::cluster_group& cluster, T* field_local, const OnChipLayout& g,
                                 const FieldLayout& L, const TiledStepData<T>& io, const CachedTap* cached,
                                 long long slot) {
  for (int q = (int)threadIdx.x; q < io.nrec; q += (int)blockDim.x) {
    double v = 0.0;
    for (int t = io.tap_start[q]; t < io.tap_start[q + 1]; ++t) {
      const CachedTap c = cached ? cached[t] : resolve_tap<T>(g, L, io.taps[t]);
      v += c.weight * (double)cluster.map_shared_rank(field_local, (unsigned)c.owner)[c.offset];
    }
    io.rec_buf[slot * io.nrec + q] = T(v);
  }
}

template <class T, bool IO>
__global__ void __launch_bounds__(kMaxThreads, 1)
    cluster_onchip_kernel(T* cur, T* prev, int steps, FieldLayout L, T w, OnChipLayout g, TiledStepData<T> io) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ __align__(16) unsigned char smem_raw[];
  cg::cluster_group cluster = cg::this_cluster();
  const int rank = (int)cluster.block_rank();
  T* f0 = reinterpret_cast<T*>(smem_raw);  // cur's planes
  T* f1 = f0 + (size_t)g.planes * g.plane;  // prev's
  CachedTap* taps = reinterpret_cast<CachedTap*>(f1 + (size_t)g.planes * g.plane);  // kCachedTaps, block 0
  const int k0 = rank * g.planes;
  const int np = min(g.planes, L.nz - k0);
  const int tid = (int)threadIdx.x, nth = (int)blockDim.x;

  // Both fields of the block's planes, the halo ring zero.
  for (int e = tid; e < 2 * g.planes * g.plane; e += nth) f0[e] = T(0);
  __syncthreads();
  copy_planes<T, true>(f0, f1, cur, prev, g, L, k0, np);
  cluster.sync();  // every block's planes are loaded before any is read

  T* lower = rank > 0 ? cluster.map_shared_rank(f0, (unsigned)(rank - 1)) : nullptr;
  T* upper = rank + 1 < g.blocks ? cluster.map_shared_rank(f0, (unsigned)(rank + 1)) : nullptr;
  const size_t field = (size_t)g.planes * g.plane;  // the second field's offset, the same in every block

  const BlockNodes n = block_nodes<T, IO>(io, g, L, k0, np);
  const int ntaps = IO && io.nrec > 0 ? io.tap_start[io.nrec] : 0;
  const bool taps_cached = ntaps <= kCachedTaps;
  if (IO && rank == 0 && taps_cached)
    for (int t = tid; t < ntaps; t += nth) taps[t] = resolve_tap<T>(g, L, io.taps[t]);
  __syncthreads();
  const CachedTap* cached = taps_cached ? taps : nullptr;
  const bool receivers = IO && rank == 0 && io.nrec > 0;

  // One cluster barrier per step. (Splitting it, the planes that read only the block's own
  // planes updated between the block's arrival and its wait, measured slower: a third of
  // the column set-up again for the first and last planes, 63 against 69 Gpoints/s at 64^3.)
  for (int s = 0; s < steps; ++s) {
    const bool even = s % 2 == 0;
    T* uc = even ? f0 : f1;
    T* un = even ? f1 : f0;
    StepView<T> sv;
    sv.uc = uc;
    sv.np = np;
    sv.below = lower ? lower + (even ? 0 : field) + (size_t)(g.planes - 1) * g.plane : nullptr;
    sv.above = upper ? upper + (even ? 0 : field) : nullptr;
    T my_add = T(0);
    if constexpr (IO) {
      if (n.my_src < n.q1) my_add = source_of_step(io, n.my_src, s);
      if (s > 0 && receivers) record_receivers<T>(cluster, uc, g, L, io, cached, io.slot0 + s - 1);
      boundary_side_values<T>(sv, uc, un, g, L, io, n, k0);
    }
    interior_update<T>(sv, un, g, L, w, 0, np);
    if constexpr (IO) finish_nodes<T>(un, g, L, io, n, k0, np, s, my_add);
    cluster.sync();  // u^{n+1} of every block is final before the next step reads it
  }
  if constexpr (IO) {
    if (steps > 0 && receivers) record_receivers<T>(cluster, steps % 2 == 1 ? f1 : f0, g, L, io, cached, io.slot0 + steps - 1);
    cluster.sync();  // no block leaves while block 0 reads its planes
  }
  copy_planes<T, false>(f0, f1, cur, prev, g, L, k0, np);
#endif
}

std::string block_error_onchip(const Stencil&, Precision, const BlockShape& b) { return onchip::block_error(b); }

BlockShape block_for_onchip(const Stencil&, Precision) { return BlockShape{32, 16, 1}; }

std::map<std::tuple<int, const void*, int, size_t, int>, bool> fits_cache;  // (dev, kernel, threads, smem, cluster)

// A block's dynamic shared memory: both fields of its planes, then block 0's cached taps.
template <class T>
size_t onchip_smem_bytes(const OnChipLayout& g) {
  return 2 * (size_t)g.planes * g.plane * sizeof(T) + kCachedTaps * sizeof(CachedTap);
}

// The planes per block that fit the grid into one cluster of at most kMaxCluster blocks
// whose shared memory holds both fields of their planes; throws std::invalid_argument
// naming the sizes when none does.
template <class T>
OnChipLayout onchip_layout(const FieldLayout& L, size_t smem_optin) {
  OnChipLayout g = row_layout<T>(L);
  g.planes = (L.nz + kMaxCluster - 1) / kMaxCluster;
  g.blocks = (L.nz + g.planes - 1) / g.planes;
  const size_t bytes = onchip_smem_bytes<T>(g);
  if (bytes > smem_optin) {
    const size_t per_plane = 2 * (size_t)g.plane * sizeof(T);
    const long long max_nz = (long long)(smem_optin / per_plane) * kMaxCluster;
    throw std::invalid_argument(
        "kernel 'cluster_onchip': the grid's " + std::to_string(L.nx) + "x" + std::to_string(L.ny) + "x" +
        std::to_string(L.nz) + " points need " + std::to_string(bytes >> 10) + " KiB of shared memory per block (" +
        std::to_string(g.planes) + " planes of both fields), more than the " + std::to_string(smem_optin >> 10) +
        " KiB a block may have; with planes of " + std::to_string(L.nx) + "x" + std::to_string(L.ny) +
        " it runs at most " + std::to_string(max_nz) + " planes in " + to_string(precision_of<T>()) + " (one cluster of " +
        std::to_string(kMaxCluster) + " blocks)");
  }
  return g;
}

// Why the grid cannot run here ("" when it can): the device's compute capability or the
// shared memory of one cluster.
std::string grid_error_onchip(int nx, int ny, int nz, Precision p) {
  try {
    const DeviceFacts dev = device_facts();
    if (dev.major < 9)
      return "kernel 'cluster_onchip' needs thread-block clusters (compute capability 9.0 or later); this device "
             "has compute capability " + std::to_string(dev.major) + ".x";
    FieldLayout L;
    L.nx = nx, L.ny = ny, L.nz = nz;
    if (p == Precision::Float) (void)onchip_layout<float>(L, dev.smem_optin);
    else (void)onchip_layout<double>(L, dev.smem_optin);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

template <class T>
int launch_multi(const MultiStepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  if (a.steps <= 0) return 0;
  const std::string why = block_error_onchip(*a.stencil, precision_of<T>(), o.block);
  if (!why.empty()) throw std::invalid_argument("kernel 'cluster_onchip': " + why);
  const std::string grid_why = grid_error_onchip(a.layout.nx, a.layout.ny, a.layout.nz, precision_of<T>());
  if (!grid_why.empty()) throw std::invalid_argument(grid_why);
  const OnChipLayout g = onchip_layout<T>(a.layout, device_facts().smem_optin);
  const T w = seven_point_coeffs(StepArgs<T>{a.prev, a.cur, a.layout, a.stencil, a.lambda2}).neighbour;
  TiledStepData<T> io;
  if (a.io) io = *a.io;
  else io.tiles = make_tile_grid(a.layout, TileShape{o.block.x, o.block.y, o.block.z});
  if (io.tiles.shape.x != o.block.x || io.tiles.shape.y != o.block.y || io.tiles.shape.z != 1)
    throw std::invalid_argument("kernel 'cluster_onchip': the step data is grouped by tiles of another block");
  const bool with_io =
      a.io && (a.io->bnd_count > 0 || a.io->solid_count > 0 || a.io->nsrc > 0 || a.io->nrec > 0);
  const void* kernel = with_io ? (const void*)cluster_onchip_kernel<T, true> : (const void*)cluster_onchip_kernel<T, false>;
  const size_t smem = onchip_smem_bytes<T>(g);
  const int threads = o.block.threads();

  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = (unsigned)g.blocks;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3((unsigned)g.blocks);
  cfg.blockDim = dim3((unsigned)threads);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  {
    int devno = 0;
    CUDA_CHECK(cudaGetDevice(&devno));
    std::lock_guard<std::mutex> lock(facts_mutex());
    const auto key = std::make_tuple(devno, kernel, threads, smem, g.blocks);
    auto it = fits_cache.find(key);
    if (it == fits_cache.end()) {
      CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
      CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
      int clusters = 0;
      CUDA_CHECK(cudaOccupancyMaxActiveClusters(&clusters, kernel, &cfg));
      it = fits_cache.emplace(key, clusters > 0).first;
    } else {
      CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    }
    if (!it->second)
      throw std::invalid_argument("kernel 'cluster_onchip': this device cannot run a cluster of " +
                                  std::to_string(g.blocks) + " blocks of " + std::to_string(threads) + " threads and " +
                                  std::to_string(smem >> 10) + " KiB of shared memory each");
  }
  const bool values = with_io && io.nsrc > 0 && io.src_value && io.src_value_steps > 0;
  return launch_source_runs(a, io, values, stream, [&](const TiledStepData<T>& d, T* c, T* p, int run) {
    if (with_io) CUDA_CHECK(cudaLaunchKernelEx(&cfg, cluster_onchip_kernel<T, true>, c, p, run, a.layout, w, g, d));
    else CUDA_CHECK(cudaLaunchKernelEx(&cfg, cluster_onchip_kernel<T, false>, c, p, run, a.layout, w, g, d));
  });
}

}  // namespace

void register_cluster_onchip_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "cluster_onchip";
  v.name = "persistent, the whole grid in one thread-block cluster's shared memory";
  v.family = "ours";
  v.stencils = "7pt";
  v.supports = supports_seven_point;
  v.default_block = {32, 16, 1};
  v.block_for = block_for_onchip;
  v.block_error = block_error_onchip;
  v.grid_error = grid_error_onchip;
  v.block_uses_z = false;
  v.has_readonly_toggle = false;
  v.graph_capturable = false;  // it replaces the step graph: a launch is already many steps
  v.launch_float = one_step_through_multi<float, launch_multi<float>>;
  v.launch_double = one_step_through_multi<double, launch_multi<double>>;
  v.multi_float = launch_multi<float>;
  v.multi_double = launch_multi<double>;
  v.room_blocks = {{32, 16, 1}, {32, 8, 1}};
  r.add(v);
}

}  // namespace ws
