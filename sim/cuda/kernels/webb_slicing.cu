// Webb's 2D slicing (figs. 6-8): threads cover one xy slice and each walks its
// column through all z planes, so a thread can keep the z neighbours it has
// already read in registers (u(k-1), u(k), u(k+1): a three-deep queue).
//
//  slicing2d (fig. 6): the plain loop; all seven reads go to global memory and
//    the reuse is left to the caches.
//  slicing2d_shared (fig. 7): z queue in registers plus a block-sized xy tile
//    in shared memory; edge threads read the missing neighbour from global.
//  slicing2d_ext_shared (fig. 8): z queue plus a (bx+2) x (by+2) tile whose
//    rim the edge threads load; one compulsory global read of u^n per point.
//
// These follow the paper in walking the whole column with one block per xy
// tile, so their parallelism is the xy slice only (Webb's 254 x 294 interior
// with 64 x 8 blocks is 148 blocks). On a GPU with many more resident threads
// than that, they are latency bound; the z-chunked register-queue kernel in
// register_queue.cu is the tuned form of fig. 8.
#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/kernel_common.cuh"
#include "cuda/kernels/launch_geometry.hpp"
#include "cuda/kernels/seven_point.hpp"

namespace ws {

namespace {

template <class T, bool RO>
__global__ void slicing2d_kernel(out_ptr<RO, T> un, in_ptr<RO, T> uc, FieldLayout L, T w) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= L.nx || j >= L.ny) return;
  const int pitch = (int)L.pitch;
  const int64_t plane = L.plane;
  const int64_t p0 = L.index(i, j, 0);
  // Advance pointers one plane per step: no 64-bit index products in the loop.
  auto c = uc + p0;
  auto o = un + p0;
  for (int k = 0; k < L.nz; ++k, c += plane, o += plane) {
    *o = ex::seven_point_update(ld<RO>(c), *o, ld<RO>(c - 1), ld<RO>(c + 1), ld<RO>(c - pitch), ld<RO>(c + pitch),
                                ld<RO>(c - plane), ld<RO>(c + plane), w);
  }
}

template <class T, bool RO>
__global__ void slicing2d_shared_kernel(out_ptr<RO, T> un, in_ptr<RO, T> uc, FieldLayout L, T w) {
  T* tile = shared_tile<T>();  // blockDim.y rows of blockDim.x
  const int tx = threadIdx.x, ty = threadIdx.y, bw = blockDim.x;
  const int bx0 = blockIdx.x * blockDim.x, by0 = blockIdx.y * blockDim.y;
  const int wx = block_extent(L.nx, bx0, blockDim.x), wy = block_extent(L.ny, by0, blockDim.y);
  const bool inside = tx < wx && ty < wy;
  const int s = ty * bw + tx;
  const int pitch = (int)L.pitch;
  const int64_t plane = L.plane;
  const int64_t p0 = inside ? L.index(bx0 + tx, by0 + ty, 0) : 0;
  auto c = uc + p0;
  auto o = un + p0;

  // The z queue: below = u(k-1) (the halo plane at k = 0), centre = u(k).
  T below = inside ? ld<RO>(c - plane) : T(0);
  T centre = inside ? ld<RO>(c) : T(0);
  for (int k = 0; k < L.nz; ++k, c += plane, o += plane) {
    const T above = inside ? ld<RO>(c + plane) : T(0);
    if (inside) tile[s] = centre;
    __syncthreads();
    if (inside) {
      const T west = tx == 0 ? ld<RO>(c - 1) : tile[s - 1];
      const T east = tx == wx - 1 ? ld<RO>(c + 1) : tile[s + 1];
      const T south = ty == 0 ? ld<RO>(c - pitch) : tile[s - bw];
      const T north = ty == wy - 1 ? ld<RO>(c + pitch) : tile[s + bw];
      *o = ex::seven_point_update(centre, *o, west, east, south, north, below, above, w);
    }
    below = centre;
    centre = above;
    __syncthreads();  // the tile is rewritten with the next plane
  }
}

// At most 32 registers: with the 64x8 default block that keeps four blocks (2048
// threads) per SM; left free, ptxas gives the double read-only variant 38 and an SM
// holds three (24% slower on the H100). At 32 the double read-only variant spills
// one loop-invariant word (4 bytes stored once, read from L1).
template <class T, bool RO>
__global__ void __maxnreg__(32) slicing2d_ext_shared_kernel(out_ptr<RO, T> un, in_ptr<RO, T> uc, FieldLayout L, T w) {
  T* tile = shared_tile<T>();  // (blockDim.y + 2) rows of (blockDim.x + 2)
  const int tx = threadIdx.x, ty = threadIdx.y, tw = blockDim.x + 2;
  const int bx0 = blockIdx.x * blockDim.x, by0 = blockIdx.y * blockDim.y;
  const int wx = block_extent(L.nx, bx0, blockDim.x), wy = block_extent(L.ny, by0, blockDim.y);
  const bool inside = tx < wx && ty < wy;
  const int s = (ty + 1) * tw + (tx + 1);
  const int pitch = (int)L.pitch;
  const int64_t plane = L.plane;
  const int64_t p0 = inside ? L.index(bx0 + tx, by0 + ty, 0) : 0;
  auto c = uc + p0;
  auto o = un + p0;

  T below = inside ? ld<RO>(c - plane) : T(0);
  T centre = inside ? ld<RO>(c) : T(0);
  for (int k = 0; k < L.nz; ++k, c += plane, o += plane) {
    const T above = inside ? ld<RO>(c + plane) : T(0);
    if (inside) {
      tile[s] = centre;
      if (ty == 0) tile[s - tw] = ld<RO>(c - pitch);
      if (ty == wy - 1) tile[s + tw] = ld<RO>(c + pitch);
      if (tx == 0) tile[s - 1] = ld<RO>(c - 1);
      if (tx == wx - 1) tile[s + 1] = ld<RO>(c + 1);
    }
    __syncthreads();
    if (inside)
      *o = ex::seven_point_update(centre, *o, tile[s - 1], tile[s + 1], tile[s - tw], tile[s + tw], below, above, w);
    below = centre;
    centre = above;
    __syncthreads();
  }
}

enum class Slicing { Plain, Shared, ExtShared };

template <class T, Slicing K>
void launch_slicing(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  const char* id = K == Slicing::Plain ? "slicing2d" : K == Slicing::Shared ? "slicing2d_shared" : "slicing2d_ext_shared";
  const auto c = seven_point_coeffs(a);
  const dim3 block(o.block.x, o.block.y, 1);  // a 2-D slice of threads: block.z is not used
  const dim3 grid = checked_grid(ceil_div(a.layout.nx, o.block.x), ceil_div(a.layout.ny, o.block.y), 1, id);
  const size_t tile_points = K == Slicing::Plain    ? 0
                             : K == Slicing::Shared ? size_t(o.block.x) * o.block.y
                                                    : size_t(o.block.x + 2) * (o.block.y + 2);
  const size_t smem = sizeof(T) * tile_points;
  auto go = [&](auto kernel) {
    kernel<<<grid, block, smem, stream>>>(a.u_next, a.u_cur, a.layout, c.neighbour);
  };
  if constexpr (K == Slicing::Plain) {
    if (o.readonly_cache) go(slicing2d_kernel<T, true>);
    else go(slicing2d_kernel<T, false>);
  } else if constexpr (K == Slicing::Shared) {
    if (o.readonly_cache) go(slicing2d_shared_kernel<T, true>);
    else go(slicing2d_shared_kernel<T, false>);
  } else {
    if (o.readonly_cache) go(slicing2d_ext_shared_kernel<T, true>);
    else go(slicing2d_ext_shared_kernel<T, false>);
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void register_webb_slicing_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.family = "webb";
  v.stencils = "7pt";
  v.supports = supports_seven_point;
  v.block_uses_z = false;
  v.has_readonly_toggle = true;
  // Webb: "a 64 x 8 thread block size was found to be the most efficient" for
  // fig. 6; figs. 7 and 8 use the same BxL x ByL constants.
  v.default_block = {64, 8, 1};

  v.id = "slicing2d";
  v.name = "2D slicing (Webb fig. 6)";
  v.launch_float = launch_slicing<float, Slicing::Plain>;
  v.launch_double = launch_slicing<double, Slicing::Plain>;
  r.add(v);

  v.id = "slicing2d_shared";
  v.name = "2D slicing shared (Webb fig. 7)";
  v.launch_float = launch_slicing<float, Slicing::Shared>;
  v.launch_double = launch_slicing<double, Slicing::Shared>;
  r.add(v);

  v.id = "slicing2d_ext_shared";
  v.name = "2D slicing extended shared (Webb fig. 8)";
  v.launch_float = launch_slicing<float, Slicing::ExtShared>;
  v.launch_double = launch_slicing<double, Slicing::ExtShared>;
  r.add(v);
}

}  // namespace ws
