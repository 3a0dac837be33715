// Webb's 3D tiling with shared memory: one 2-D block per xy tile of one z plane
// (blockIdx.z is the plane), so the four in-plane neighbours can come from a
// shared tile and only the two z neighbours from global memory.
//
//  tiling3d_shared (fig. 4): the tile is the size of the block; a thread on the
//    block's edge reads the missing neighbour from global memory instead. Those
//    edge branches diverge inside every warp (x edges) and leave some warps
//    waiting on global loads, which is why Webb measured it slower than plain
//    3D tiling (139 % on K20).
//  tiling3d_ext_shared (fig. 5): the tile is (bx+2) x (by+2); edge threads load
//    the rim before the barrier, so the update itself reads only shared memory
//    in x and y (126 % on K20).
//
// Both read each u^n point of the tile once from global memory plus the rim;
// the z neighbours are re-read by the blocks of the planes above and below, so
// they rely on L2 for reuse, as plain 3D tiling does.
#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/kernel_common.cuh"
#include "cuda/kernels/launch_geometry.hpp"
#include "cuda/kernels/seven_point.hpp"

namespace ws {

namespace {

template <class T, bool RO>
__global__ void tiling3d_shared_kernel(out_ptr<RO, T> un, in_ptr<RO, T> uc, FieldLayout L, T w) {
  T* tile = shared_tile<T>();  // blockDim.y rows of blockDim.x
  const int tx = threadIdx.x, ty = threadIdx.y, bw = blockDim.x;
  const int bx0 = blockIdx.x * blockDim.x, by0 = blockIdx.y * blockDim.y;
  const int wx = block_extent(L.nx, bx0, blockDim.x), wy = block_extent(L.ny, by0, blockDim.y);
  const bool inside = tx < wx && ty < wy;  // threads of an overhanging block beyond the interior only sync
  const int64_t p = inside ? L.index(bx0 + tx, by0 + ty, blockIdx.z) : 0;
  const int s = ty * bw + tx;
  const int pitch = (int)L.pitch;

  T centre = T(0);
  if (inside) {
    centre = ld<RO>(uc + p);
    tile[s] = centre;
  }
  __syncthreads();
  if (!inside) return;

  // The last thread that owns a point (wx-1, wy-1) plays the block edge of fig. 4
  // when the block overhangs the interior.
  const T west = tx == 0 ? ld<RO>(uc + p - 1) : tile[s - 1];
  const T east = tx == wx - 1 ? ld<RO>(uc + p + 1) : tile[s + 1];
  const T south = ty == 0 ? ld<RO>(uc + p - pitch) : tile[s - bw];
  const T north = ty == wy - 1 ? ld<RO>(uc + p + pitch) : tile[s + bw];
  un[p] = ex::seven_point_update(centre, un[p], west, east, south, north, ld<RO>(uc + p - L.plane),
                                 ld<RO>(uc + p + L.plane), w);
}

template <class T, bool RO>
__global__ void tiling3d_ext_shared_kernel(out_ptr<RO, T> un, in_ptr<RO, T> uc, FieldLayout L, T w) {
  T* tile = shared_tile<T>();  // (blockDim.y + 2) rows of (blockDim.x + 2)
  const int tx = threadIdx.x, ty = threadIdx.y, tw = blockDim.x + 2;
  const int bx0 = blockIdx.x * blockDim.x, by0 = blockIdx.y * blockDim.y;
  const int wx = block_extent(L.nx, bx0, blockDim.x), wy = block_extent(L.ny, by0, blockDim.y);
  const bool inside = tx < wx && ty < wy;
  const int64_t p = inside ? L.index(bx0 + tx, by0 + ty, blockIdx.z) : 0;
  const int s = (ty + 1) * tw + (tx + 1);
  const int pitch = (int)L.pitch;

  T centre = T(0);
  if (inside) {
    centre = ld<RO>(uc + p);
    tile[s] = centre;
    // The rim: the row above/below and the column left/right of the tile. At the
    // interior's edge these are halo (boundary) points, which are allocated and zero.
    if (ty == 0) tile[s - tw] = ld<RO>(uc + p - pitch);
    if (ty == wy - 1) tile[s + tw] = ld<RO>(uc + p + pitch);
    if (tx == 0) tile[s - 1] = ld<RO>(uc + p - 1);
    if (tx == wx - 1) tile[s + 1] = ld<RO>(uc + p + 1);
  }
  __syncthreads();
  if (!inside) return;
  un[p] = ex::seven_point_update(centre, un[p], tile[s - 1], tile[s + 1], tile[s - tw], tile[s + tw],
                                 ld<RO>(uc + p - L.plane), ld<RO>(uc + p + L.plane), w);
}

// One launcher for both: `extended` picks the tile with the rim.
template <class T, bool Extended>
void launch_shared(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  const char* id = Extended ? "tiling3d_ext_shared" : "tiling3d_shared";
  const auto c = seven_point_coeffs(a);
  const dim3 block(o.block.x, o.block.y, 1);  // one plane per block: block.z is not used
  const dim3 grid = checked_grid(ceil_div(a.layout.nx, o.block.x), ceil_div(a.layout.ny, o.block.y), a.layout.nz, id);
  const size_t smem = sizeof(T) * (Extended ? size_t(o.block.x + 2) * (o.block.y + 2) : size_t(o.block.x) * o.block.y);
  if constexpr (Extended) {
    if (o.readonly_cache)
      tiling3d_ext_shared_kernel<T, true><<<grid, block, smem, stream>>>(a.u_next, a.u_cur, a.layout, c.neighbour);
    else
      tiling3d_ext_shared_kernel<T, false><<<grid, block, smem, stream>>>(a.u_next, a.u_cur, a.layout, c.neighbour);
  } else {
    if (o.readonly_cache)
      tiling3d_shared_kernel<T, true><<<grid, block, smem, stream>>>(a.u_next, a.u_cur, a.layout, c.neighbour);
    else
      tiling3d_shared_kernel<T, false><<<grid, block, smem, stream>>>(a.u_next, a.u_cur, a.layout, c.neighbour);
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void register_webb_shared_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.family = "webb";
  v.stencils = "7pt";
  v.supports = supports_seven_point;
  v.block_uses_z = false;
  v.has_readonly_toggle = true;

  v.id = "tiling3d_shared";
  v.name = "3D tiling shared (Webb fig. 4)";
  v.default_block = {32, 8, 1};  // Webb: "a block size of 32 x 8 was found to be most efficient"
  v.launch_float = launch_shared<float, false>;
  v.launch_double = launch_shared<double, false>;
  r.add(v);

  v.id = "tiling3d_ext_shared";
  v.name = "3D tiling extended shared (Webb fig. 5)";
  v.default_block = {32, 8, 1};  // the same BxS x ByS as fig. 4
  v.launch_float = launch_shared<float, true>;
  v.launch_double = launch_shared<double, true>;
  r.add(v);
}

}  // namespace ws
