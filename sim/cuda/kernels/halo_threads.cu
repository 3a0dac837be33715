// 3D tiling with halo threads (Su et al. §3.5, "OPT-3"): the block is enlarged
// by a ring of threads, (bx+2) x (by+2) threads for a bx x by tile of one z
// plane. Every thread loads exactly one point of the extended tile (its own or
// a rim point), so no thread does extra loads behind an if-test before the
// barrier; afterwards the rim threads sit idle and the bx x by inner threads
// update their points, reading x and y neighbours from shared memory and the z
// neighbours from global memory (L2) as in Webb's fig. 5.
//
// LaunchOptions::block is the thread block including the rim (Su et al.'s
// 34 x 6 for a 32 x 4 tile). The price of the design: rows of bx+2 threads
// start one point left of a 128-byte line and warps straddle rows, so loads
// touch more cache lines, and (2bx + 2by + 4) threads per block do no update.
#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/kernel_common.cuh"
#include "cuda/kernels/launch_geometry.hpp"
#include "cuda/kernels/seven_point.hpp"

namespace ws {

namespace {

template <class T, bool RO>
__global__ void halo_threads_kernel(out_ptr<RO, T> un, in_ptr<RO, T> uc, FieldLayout L, T w) {
  T* tile = shared_tile<T>();  // blockDim.y rows of blockDim.x: the block is the extended tile
  const int tx = threadIdx.x, ty = threadIdx.y, tw = blockDim.x;
  const int bx = blockDim.x - 2, by = blockDim.y - 2;  // points updated per block
  // Thread (tx, ty) stands on interior point (i, j); the rim threads on i = -1 or
  // i = bx0 + bx (likewise j), which is a neighbouring tile's point or the halo.
  const int i = blockIdx.x * bx + tx - 1;
  const int j = blockIdx.y * by + ty - 1;
  const int k = blockIdx.z;
  const bool loads = i <= L.nx && j <= L.ny;  // i, j >= -1 always; beyond the halo there is nothing to load
  const int64_t p = loads ? L.index(i, j, k) : 0;
  const int s = ty * tw + tx;
  T centre = T(0);
  if (loads) {
    centre = ld<RO>(uc + p);
    tile[s] = centre;
  }
  __syncthreads();
  const bool updates = tx >= 1 && tx <= bx && ty >= 1 && ty <= by && i < L.nx && j < L.ny;
  if (!updates) return;  // rim threads only load
  un[p] = ex::seven_point_update(centre, un[p], tile[s - 1], tile[s + 1], tile[s - tw], tile[s + tw],
                                 ld<RO>(uc + p - L.plane), ld<RO>(uc + p + L.plane), w);
}

template <class T>
void launch_halo_threads(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  require_block_at_least(o, 3, 3, "halo_threads");  // a rim on each side and at least one inner thread
  const auto c = seven_point_coeffs(a);
  const dim3 block(o.block.x, o.block.y, 1);  // one plane per block: block.z is not used
  const dim3 grid =
      checked_grid(ceil_div(a.layout.nx, o.block.x - 2), ceil_div(a.layout.ny, o.block.y - 2), a.layout.nz, "halo_threads");
  const size_t smem = sizeof(T) * size_t(o.block.x) * o.block.y;
  if (o.readonly_cache)
    halo_threads_kernel<T, true><<<grid, block, smem, stream>>>(a.u_next, a.u_cur, a.layout, c.neighbour);
  else
    halo_threads_kernel<T, false><<<grid, block, smem, stream>>>(a.u_next, a.u_cur, a.layout, c.neighbour);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void register_halo_threads_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "halo_threads";
  v.name = "3D tiling with halo threads (Su et al. 3.5)";
  v.family = "su";
  v.stencils = "7pt";
  v.supports = supports_seven_point;
  v.default_block = {34, 6, 1};  // Su et al. Table 2, OPT-3: 34 x 6 threads for a 32 x 4 tile
  v.block_uses_z = false;
  v.has_readonly_toggle = true;
  v.launch_float = launch_halo_threads<float>;
  v.launch_double = launch_halo_threads<double>;
  r.add(v);
}

}  // namespace ws
