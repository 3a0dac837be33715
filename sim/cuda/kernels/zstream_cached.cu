// z streaming without shared memory: the register queue of FDTD3d for the z
// neighbours, but the four in-plane neighbours read through L1 / the read-only
// cache instead of a shared tile. A block's warps read the rows above and below
// each other's rows at about the same plane, so those reads hit L1 (256 KB per
// SM on Hopper) and DRAM sees only the compulsory traffic.
//
// Having no shared tile means no barrier in the z loop: warps drift freely, and
// the DRAM loads of the next plane are issued before this plane's store. Like
// register_queue, the column is cut into z chunks so that small xy slices
// still fill the device.
#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/kernel_common.cuh"
#include "cuda/kernels/launch_geometry.hpp"
#include "cuda/kernels/seven_point.hpp"

namespace ws {

namespace {

constexpr int kMinChunkPlanes = 16;
constexpr int kTargetWaves = 6;

// Prefetch depth (planes), register cap and unroll of the z loop (0: the compiler's
// choice). Float looks two planes ahead at 40 registers. Double looks one plane ahead
// with the z loop unrolled 6 times at 56 registers: unrolled by a multiple of the queue's
// length (3), the queue's shifts become register renames, and the registers hold the
// unrolled planes' loads in flight, which pays for the six subtractions a point of the
// difference form (exact_update.cuh): within 2% of a folded-centre update on the grids
// measured (H200, docs/benchmarks.md, "Fifth pass").
template <class T> struct ZsTuning { static constexpr int depth = 2, max_regs = 40, unroll = 0; };
template <> struct ZsTuning<double> { static constexpr int depth = 1, max_regs = 56, unroll = 6; };

template <class T, bool RO>
__global__ void __maxnreg__(ZsTuning<T>::max_regs)
    zstream_cached_kernel(out_ptr<RO, T> un, in_ptr<RO, T> uc, FieldLayout L, T w, int chunk) {
  constexpr int D = ZsTuning<T>::depth;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= L.nx || j >= L.ny) return;  // no barriers below: threads outside the interior may leave
  const int k0 = blockIdx.z * chunk;
  const int k1 = min(L.nz, k0 + chunk);
  const int pitch = (int)L.pitch;
  const int64_t plane = L.plane;
  const int64_t p0 = L.index(i, j, k0);
  auto c = uc + p0;
  auto o = un + p0;
  // The z queue zq[0..D+1] = u^n(k-1 .. k+D) and pq[0..D-1] = u^{n-1}(k .. k+D-1):
  // the two DRAM streams are loaded D planes early, in program order before this
  // plane's store, so they are in flight while it is computed whatever the
  // compiler assumes about aliasing. Planes past k1 are not loaded.
  T zq[D + 2], pq[D];
#pragma unroll
  for (int d = 0; d < D + 2; ++d) zq[d] = (k0 - 1 + d <= k1) ? ld<RO>(c + (d - 1) * plane) : T(0);
#pragma unroll
  for (int d = 0; d < D; ++d) pq[d] = (k0 + d < k1) ? o[d * plane] : T(0);
  auto plane_step = [&](int k) {
    const T z_new = (k + D + 1 <= k1) ? ld<RO>(c + (D + 1) * plane) : T(0);
    const T p_new = (k + D < k1) ? o[D * plane] : T(0);
    *o = ex::seven_point_update(zq[1], pq[0], ld<RO>(c - 1), ld<RO>(c + 1), ld<RO>(c - pitch), ld<RO>(c + pitch), zq[0],
                                zq[2], w);
#pragma unroll
    for (int d = 0; d < D + 1; ++d) zq[d] = zq[d + 1];
    zq[D + 1] = z_new;
#pragma unroll
    for (int d = 0; d < D - 1; ++d) pq[d] = pq[d + 1];
    pq[D - 1] = p_new;
    c += plane;
    o += plane;
  };
  if constexpr (ZsTuning<T>::unroll > 0) {
#pragma unroll ZsTuning<T>::unroll
    for (int k = k0; k < k1; ++k) plane_step(k);
  } else {
    for (int k = k0; k < k1; ++k) plane_step(k);
  }
}

template <class T>
void launch_zstream_cached(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  const auto c = seven_point_coeffs(a);
  const FieldLayout& L = a.layout;
  const dim3 block(o.block.x, o.block.y, 1);  // a 2-D slice of threads marching in z: block.z is not used
  const long long gx = ceil_div(L.nx, o.block.x), gy = ceil_div(L.ny, o.block.y);
  const void* kernel = o.readonly_cache ? (const void*)zstream_cached_kernel<T, true>
                                        : (const void*)zstream_cached_kernel<T, false>;
  const int resident = resident_blocks_per_sm(kernel, block.x * block.y, 0) * device_sm_count();
  const int chunks = z_chunks_for(gx * gy, resident, L.nz, kTargetWaves, kMinChunkPlanes);
  const int chunk = (L.nz + chunks - 1) / chunks;
  const dim3 grid = checked_grid(gx, gy, (L.nz + chunk - 1) / chunk, "zstream_cached");
  if (o.readonly_cache)
    zstream_cached_kernel<T, true><<<grid, block, 0, stream>>>(a.u_next, a.u_cur, L, c.neighbour, chunk);
  else
    zstream_cached_kernel<T, false><<<grid, block, 0, stream>>>(a.u_next, a.u_cur, L, c.neighbour, chunk);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void register_zstream_cached_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "zstream_cached";
  v.name = "z-streaming register queue, xy via L1";
  v.family = "fdtd3d";
  v.stencils = "7pt";
  v.supports = supports_seven_point;
  v.default_block = {32, 8, 1};  // 256 threads: many small blocks resident per SM
  v.block_uses_z = false;
  v.has_readonly_toggle = true;
  v.launch_float = launch_zstream_cached<float>;
  v.launch_double = launch_zstream_cached<double>;
  r.add(v);
}

}  // namespace ws
