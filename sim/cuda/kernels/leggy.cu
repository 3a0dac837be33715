// KernelB of Hamilton, Webb, Gray & Bilbao (fig. 6): leggy stencils S_M.
// One thread per interior point, the axis-split sum of eq. (5) with the weights
// as kernel arguments (a struct passed by value lands in the constant bank, so
// it is broadcast like the paper's constant-memory table) and M a template
// parameter so the loop over m is fully unrolled.
//
// Unlike fig. 6, the centre is read once rather than three times, and it enters
// as 2u^n - u^{n-1} and as round(6u^n) subtracted from each leg's six points
// (leggy_common.hpp, exact_update.cuh: exact for a constant field); the
// x legs are the 2M neighbours in the thread's own row (the same 128-byte lines
// its warp already reads), the y and z legs are rows of neighbouring warps and
// blocks, served from L1/L2 when the block is wide in x. Neighbour addresses are
// formed by stepping pointers by the pitch and the plane, not by 64-bit index
// products inside the loop.
#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/bigstencil_launch.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/leggy_common.hpp"
#include "cuda/kernels/load.cuh"

namespace ws {

namespace {

template <class T, int M, bool RO>
__global__ void __launch_bounds__(1024) kernel_b(T* __restrict__ un, const T* __restrict__ uc, FieldLayout L,
                                                 LeggyCoeffs<T> c) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i >= L.nx || j >= L.ny || k >= L.nz) return;  // the halo is never written
  const int64_t p = L.index(i, j, k);
  const T* __restrict__ q = uc + p;
  const int pitch = (int)L.pitch;
  const int64_t plane = L.plane;
  const T u = ld<RO>(q);
  T acc = ex::leapfrog(u, un[p]);
  const T* yl = q;  // walks down / up the y leg
  const T* yh = q;
  const T* zl = q;  // and the z leg
  const T* zh = q;
#pragma unroll
  for (int m = 1; m <= M; ++m) {
    yl -= pitch;
    yh += pitch;
    zl -= plane;
    zh += plane;
    acc = fma(c.w[m], ex::axis_shell_diff(ld<RO>(q - m), ld<RO>(q + m), ld<RO>(yl), ld<RO>(yh), ld<RO>(zl), ld<RO>(zh), u),
              acc);
  }
  un[p] = acc;
}

template <class T>
void launch_kernel_b(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  const LeggyCoeffs<T> c = leggy_coeffs(a, "KernelB");
  big::check_halo_and_block(a.layout, a.stencil->radius, o.block, "KernelB", 1024);
  const dim3 block(o.block.x, o.block.y, o.block.z);
  const dim3 grid = big::grid3(big::cdiv(a.layout.nx, o.block.x), big::cdiv(a.layout.ny, o.block.y),
                               big::cdiv(a.layout.nz, o.block.z), "KernelB");
  dispatch_leggy_radius(a.stencil->radius, "KernelB", [&](auto m) {
    constexpr int M = decltype(m)::value;
    if (o.readonly_cache)
      kernel_b<T, M, true><<<grid, block, 0, stream>>>(a.u_next, a.u_cur, a.layout, c);
    else
      kernel_b<T, M, false><<<grid, block, 0, stream>>>(a.u_next, a.u_cur, a.layout, c);
  });
  CUDA_CHECK_LAUNCH();
}

// The default block per precision and radius: the paper's 32x4x2, and 32x4x4 (four
// planes per block) where that measured faster on the H200 (1e9 points, run 149,
// docs/benchmarks.md "Fifth pass": double leggy:3 +11%, float leggy:5-6 +11-17% over 32x4x2).
BlockShape kernel_b_block_for(const Stencil& s, Precision p) {
  if (!supports_leggy_1_to_8(s)) return {32, 4, 2};
  const int M = s.radius;
  const bool deep = p == Precision::Double ? M == 3 : (M == 5 || M == 6);
  return deep ? BlockShape{32, 4, 4} : BlockShape{32, 4, 2};
}

}  // namespace

void register_leggy_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "kernelB";
  v.name = "KernelB: leggy, axis-split (Hamilton fig. 6)";
  v.family = "hamilton";
  v.stencils = "leggy:1..8";
  v.supports = supports_leggy_1_to_8;
  v.default_block = {32, 4, 2};
  v.block_for = kernel_b_block_for;
  v.block_uses_z = true;
  v.has_readonly_toggle = true;
  v.launch_float = launch_kernel_b<float>;
  v.launch_double = launch_kernel_b<double>;
  r.add(v);
}

}  // namespace ws
