// Webb's 3D tiling (fig. 3): one thread per interior point, all seven reads
// from global memory (through L1/L2 and, optionally, the read-only cache).
// The 32-wide x extent keeps each warp on one 128-byte line of a row; the
// neighbours in y and z are mostly hits in L1/L2 from adjacent warps/blocks,
// which is why this simplest kernel is competitive on cached architectures.
#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/kernel_common.cuh"
#include "cuda/kernels/launch_geometry.hpp"
#include "cuda/kernels/seven_point.hpp"

namespace ws {

namespace {

template <class T, bool RO>
__global__ void tiling3d_kernel(out_ptr<RO, T> un, in_ptr<RO, T> uc, FieldLayout L, T w) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i >= L.nx || j >= L.ny || k >= L.nz) return;  // the halo (fixed boundary) is never written
  const int64_t p = L.index(i, j, k);
  const int pitch = (int)L.pitch;
  un[p] = ex::seven_point_update(ld<RO>(uc + p), un[p], ld<RO>(uc + p - 1), ld<RO>(uc + p + 1), ld<RO>(uc + p - pitch),
                                 ld<RO>(uc + p + pitch), ld<RO>(uc + p - L.plane), ld<RO>(uc + p + L.plane), w);
}

template <class T>
void launch_tiling3d(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  const auto c = seven_point_coeffs(a);
  const dim3 block(o.block.x, o.block.y, o.block.z);
  const dim3 grid = checked_grid(ceil_div(a.layout.nx, o.block.x), ceil_div(a.layout.ny, o.block.y),
                                 ceil_div(a.layout.nz, o.block.z), "tiling3d");
  if (o.readonly_cache)
    tiling3d_kernel<T, true><<<grid, block, 0, stream>>>(a.u_next, a.u_cur, a.layout, c.neighbour);
  else
    tiling3d_kernel<T, false><<<grid, block, 0, stream>>>(a.u_next, a.u_cur, a.layout, c.neighbour);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void register_tiling3d_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "tiling3d";
  v.name = "3D tiling (Webb fig. 3)";
  v.family = "webb";
  v.stencils = "7pt";
  v.supports = supports_seven_point;
  v.default_block = {32, 4, 2};  // Webb: "a 32 x 4 x 2 thread block is most efficient"
  v.block_uses_z = true;
  v.launch_float = launch_tiling3d<float>;
  v.launch_double = launch_tiling3d<double>;
  r.add(v);
}

}  // namespace ws
