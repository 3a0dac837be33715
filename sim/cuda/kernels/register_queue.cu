// NVIDIA's FDTD3d kernel (Micikevicius' 2.5-D streaming), for the 7-point
// stencil: each block owns a bx x by tile of the xy plane and marches along z.
// The z neighbours live in a register queue (below, centre, above), the four
// in-plane neighbours in a (bx+2) x (by+2) shared tile whose rim the edge
// threads load, so every u^n point is read from DRAM once per step, every
// u^{n-1} point once and every u^{n+1} point written once: the 12 (float) or
// 24 (double) compulsory bytes per point of the roofline.
//
// What turns the sample's idea into a kernel that streams at copy bandwidth:
//  - Software pipelining: the DRAM loads of u^n and u^{n-1} are issued one or
//    two planes before they are used (RqTuning), the rim one plane before, so
//    each warp keeps several independent loads in flight instead of waiting on
//    one per step.
//  - Two shared tiles used alternately: one barrier per plane instead of two.
//  - z chunks: the column is cut into chunks (grid.z) so that there are several
//    waves of blocks even when the xy slice alone would not fill the device
//    (Webb's 254 x 294 slice is 152 blocks of 32 x 16). A chunk re-reads the two
//    planes that bound it; chunks are at least 16 planes long.
//  - Pointers advance by one plane per step (no 64-bit index products in the
//    loop); interior rows start on 128-byte lines (layout x0), so each warp's
//    row load is one or two full lines.
#include <algorithm>

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

// How far ahead (in planes) each thread loads the two DRAM streams, and the
// register cap that goes with it. Little's law: to stream at ~3 TB/s with
// ~0.7 us of DRAM latency an H100 SM needs ~18 KB of loads in flight. Float
// looks two planes ahead (4 loads of 4 B per thread, 1536 threads at 40
// registers: ~24 KB); double one plane (2 loads of 8 B, 1536 threads: ~24 KB).
// The cap (__maxnreg__) keeps any block of up to 1024 threads legal.
template <class T> struct RqTuning { static constexpr int depth = 2, max_regs = 40; };
template <> struct RqTuning<double> { static constexpr int depth = 1, max_regs = 40; };

template <class T, bool RO>
__global__ void __maxnreg__(RqTuning<T>::max_regs)
    register_queue_kernel(out_ptr<RO, T> un, in_ptr<RO, T> uc, FieldLayout L, T wn, int chunk) {
  constexpr int D = RqTuning<T>::depth;
  const int tx = threadIdx.x, ty = threadIdx.y, tw = blockDim.x + 2;
  const int tile_points = tw * (blockDim.y + 2);
  T* tiles = shared_tile<T>();  // two (blockDim.y + 2) x (blockDim.x + 2) tiles, used alternately
  const int bx0 = blockIdx.x * blockDim.x, by0 = blockIdx.y * blockDim.y;
  const int wx = block_extent(L.nx, bx0, blockDim.x), wy = block_extent(L.ny, by0, blockDim.y);
  const bool inside = tx < wx && ty < wy;
  const bool rim_n = inside && ty == 0, rim_s = inside && ty == wy - 1;
  const bool rim_w = inside && tx == 0, rim_e = inside && tx == wx - 1;
  const int s = (ty + 1) * tw + (tx + 1);
  const int pitch = (int)L.pitch;
  const int64_t plane = L.plane;
  const int k0 = blockIdx.z * chunk;
  const int k1 = min(L.nz, k0 + chunk);
  const int64_t p0 = inside ? L.index(bx0 + tx, by0 + ty, k0) : 0;
  auto c = uc + p0;  // u^n at plane k
  auto o = un + p0;  // u^{n-1} in, u^{n+1} out, at plane k

  // The queues, for plane k: zq[0] = u^n(k-1), zq[1] = u^n(k), zq[2] = u^n(k+1),
  // ..., zq[D+1] = u^n(k+D); pq[d] = u^{n-1}(k+d). Planes past k1 (the halo
  // plane nz at most is read) are neither needed nor loaded.
  T zq[D + 2], pq[D];
#pragma unroll
  for (int d = 0; d < D + 2; ++d) zq[d] = (inside && k0 - 1 + d <= k1) ? ld<RO>(c + (d - 1) * plane) : T(0);
#pragma unroll
  for (int d = 0; d < D; ++d) pq[d] = (inside && k0 + d < k1) ? o[d * plane] : T(0);
  T n = T(0), so = T(0), w = T(0), e = T(0);  // the rim of plane k
  if (rim_n) n = ld<RO>(c - pitch);
  if (rim_s) so = ld<RO>(c + pitch);
  if (rim_w) w = ld<RO>(c - 1);
  if (rim_e) e = ld<RO>(c + 1);

  for (int k = k0; k < k1; ++k) {
    // Two tiles used alternately need one barrier per plane: a thread can only
    // come back to this tile after every thread has passed the next barrier,
    // i.e. has finished reading it for this plane.
    T* tile = tiles + ((k - k0) & 1) * tile_points;
    if (inside) tile[s] = zq[1];
    if (rim_n) tile[s - tw] = n;
    if (rim_s) tile[s + tw] = so;
    if (rim_w) tile[s - 1] = w;
    if (rim_e) tile[s + 1] = e;
    __syncthreads();

    // Loads issued now and used D planes later (the rim: next plane), so they
    // stay in flight through this plane's arithmetic and store.
    const T z_new = (inside && k + D + 1 <= k1) ? ld<RO>(c + (D + 1) * plane) : T(0);
    const T p_new = (inside && k + D < k1) ? o[D * plane] : T(0);
    const bool more = k + 1 < k1;
    T n1 = T(0), s1 = T(0), w1 = T(0), e1 = T(0);
    if (rim_n && more) n1 = ld<RO>(c + plane - pitch);
    if (rim_s && more) s1 = ld<RO>(c + plane + pitch);
    if (rim_w && more) w1 = ld<RO>(c + plane - 1);
    if (rim_e && more) e1 = ld<RO>(c + plane + 1);

    if (inside)
      *o = ex::seven_point_update(zq[1], pq[0], tile[s - 1], tile[s + 1], tile[s - tw], tile[s + tw], zq[0], zq[2], wn);

#pragma unroll
    for (int d = 0; d < D + 1; ++d) zq[d] = zq[d + 1];
    zq[D + 1] = z_new;
#pragma unroll
    for (int d = 0; d < D - 1; ++d) pq[d] = pq[d + 1];
    pq[D - 1] = p_new;
    n = n1;
    so = s1;
    w = w1;
    e = e1;
    c += plane;
    o += plane;
  }
}

template <class T>
void launch_register_queue(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  const auto c = seven_point_coeffs(a);
  const FieldLayout& L = a.layout;
  const dim3 block(o.block.x, o.block.y, 1);  // a 2-D slice of threads marching in z: block.z is not used
  const long long gx = ceil_div(L.nx, o.block.x), gy = ceil_div(L.ny, o.block.y);
  const size_t smem = 2 * sizeof(T) * size_t(o.block.x + 2) * (o.block.y + 2);
  const void* kernel = o.readonly_cache ? (const void*)register_queue_kernel<T, true>
                                        : (const void*)register_queue_kernel<T, false>;
  allow_dynamic_smem(kernel, smem, "register_queue");
  const int resident = resident_blocks_per_sm(kernel, block.x * block.y, smem) * device_sm_count();
  const int chunks = z_chunks_for(gx * gy, resident, L.nz, kTargetWaves, kMinChunkPlanes);
  const int chunk = (L.nz + chunks - 1) / chunks;
  const dim3 grid = checked_grid(gx, gy, (L.nz + chunk - 1) / chunk, "register_queue");
  if (o.readonly_cache)
    register_queue_kernel<T, true><<<grid, block, smem, stream>>>(a.u_next, a.u_cur, L, c.neighbour, chunk);
  else
    register_queue_kernel<T, false><<<grid, block, smem, stream>>>(a.u_next, a.u_cur, L, c.neighbour, chunk);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void register_fdtd3d_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "register_queue";
  v.name = "z-streaming register queue (FDTD3d)";
  v.family = "fdtd3d";
  v.stencils = "7pt";
  v.supports = supports_seven_point;
  v.default_block = {32, 16, 1};  // FDTD3d's k_blockDimX x k_blockDimMaxY
  v.block_uses_z = false;
  v.has_readonly_toggle = true;
  v.launch_float = launch_register_queue<float>;
  v.launch_double = launch_register_queue<double>;
  r.add(v);
}

}  // namespace ws
