// Shared-memory tiled kernel for compact and box stencils (any stencil of
// radius R = 1..4): 2.5-D blocking with a ring of 2R + 1 planes.
//
// A block of bx x by threads owns a bx x (by * NY) patch of every plane of its
// z chunk and streams it in z. Shared memory holds the 2R + 1 planes k-R..k+R of
// the patch plus an R-wide halo (a ring: each step overwrites the oldest plane
// with k+R), so every u^n value is loaded from global memory once per block.
//
// The weights sit in __constant__ memory as a dense (2R+1)^3 cube (zeros where
// the stencil has no point) and the loops over the cube are unrolled with R a
// template parameter, so every weight is an immediate constant-bank operand of
// an FMA. The update is evaluated on the field shifted by a reference value r,
// one per block (u^n at the block's first point of its z chunk):
//   u^{n+1} = (2r - u^{n-1}) + sum_{p in cube} c_p (u(x+p) - r),
//   c_0 = 2 - lambda^2 sum_{p != 0} w_p,  c_p = lambda^2 w_p,
// which equals 2u - u^{n-1} + lambda^2 sum_{p != 0} w_p (u(x+p) - u(x)) in exact
// arithmetic (the c_p sum to 2). The ring of planes holds the shifted values
// u - r, each formed once when its plane is loaded (one subtraction per value
// loaded, about 1.2 per output). For a constant field every shifted value is
// exactly 0, so the sum is exactly 0 whatever the rounding of the c_p and the
// output is 2r - u^{n-1} = c bit for bit (exact_update.cuh, "a shared reference");
// u - r is exact (Sterbenz) wherever the field lies within a factor 2 of r, so the
// terms carry the size of the wave, not of the field's mean. (They are added to
// 2r - u^{n-1} one by one: a separate sum would hold u^{n-1} in NY more registers,
// which costs occupancy.)
//
// Register blocking along y: each thread computes NY = 4 consecutive
// points of a column, and for each (dz, dx) it reads the NY + 2R values of the
// column once into registers and uses each for up to 2R + 1 outputs. That cuts
// shared-memory loads per point from (2R+1)^3 to (2R+1)^2 (NY+2R)/NY (125 -> 50
// for the 125-point box), the limit that otherwise caps large stencils well
// below the memory roofline.
//
// Prefetch: the plane that enters the ring at step k + 1 is loaded into registers
// (kPrefetch cells per thread, every load issued before any is used) right after
// the barrier of step k, so its global latency is spent under step k's FMAs; at
// step k + 1 the registers are shifted and stored to the ring. Without it every
// thread waited for its loads between the two barriers of each plane, which no
// other warp of the block could hide: on the H100 the prefetch took the 125-point
// box from 66 to 105 Gpts/s in float and the 7-point stencil from 102 to 200
// (docs/benchmarks.md, run 92). Radius 4 at the default 32 x 8 block needs 7 cells
// per thread, and the extra registers of a longer prefetch cost more than it saves
// (run 93), so radius 4, and any block whose tile exceeds kPrefetch cells per
// thread, loads each plane directly between the barriers.
#include <climits>
#include <vector>

#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/bigstencil_launch.hpp"
#include "cuda/kernels/constant_tables.hpp"
#include "cuda/kernels/exact_update.cuh"

namespace ws {

namespace {

constexpr int kMaxR = 4;
constexpr int kCube = (2 * kMaxR + 1) * (2 * kMaxR + 1) * (2 * kMaxR + 1);
constexpr int NY = 4;            // outputs per thread along y
constexpr int kMaxThreads = 512;
constexpr int kPrefetch = 6;      // tile cells per thread held in registers across a plane
constexpr int kMaxPrefetchR = 3;  // radius 4 tiles need 7 per thread at 32 x 8: loaded directly

__constant__ float c_cube_f[kCube];
__constant__ double c_cube_d[kCube];

template <class T>
__device__ __forceinline__ T cube_weight(int n) {
  if constexpr (std::is_same_v<T, float>) return c_cube_f[n];
  else return c_cube_d[n];
}

bool supports_compact_tiled(const Stencil& s) { return s.radius >= 1 && s.radius <= kMaxR && s.size() >= 1; }

template <class T, int R, bool PREFETCH>
__global__ void __launch_bounds__(kMaxThreads) compact_tiled_kernel(T* __restrict__ un, const T* __restrict__ uc,
                                                                   FieldLayout L, int z_planes) {
  constexpr int D = 2 * R + 1;  // ring length and cube side
  T* ring = big::dyn_smem<T>();
  const int bx = blockDim.x, by = blockDim.y, tx = threadIdx.x, ty = threadIdx.y;
  const int tw = bx + 2 * R, th = by * NY + 2 * R, ps = tw * th;
  const int i0 = blockIdx.x * bx, j0 = blockIdx.y * by * NY;
  const int k0 = blockIdx.z * z_planes, k1 = min(k0 + z_planes, L.nz);
  const int pitch = (int)L.pitch;
  const int64_t plane = L.plane;

  const T r = __ldg(uc + L.index(min(i0, L.nx - 1), min(j0, L.ny - 1), k0));  // the block's reference (see above)

  // Loads plane kk (with its R halo), shifted by r, into ring slot `slot`; cells beyond the halo ring are skipped
  // (only threads that do not write ever read them).
  auto load_plane = [&](const T* base, int slot) {
    T* dst = ring + slot * ps;
    for (int row = ty; row < th; row += by) {
      const int y = j0 - R + row;  // >= -R
      if (y >= L.ny + R) break;
      const T* src = base + y * pitch;
      for (int cx = tx; cx < tw; cx += bx) {
        const int x = i0 - R + cx;
        if (x < L.nx + R) dst[row * tw + cx] = __ldg(src + x) - r;
      }
    }
  };

  const T* base = uc + L.index(0, 0, k0 - R);  // interior (0,0) of the plane entering the ring
#pragma unroll 1
  for (int d = 0; d < 2 * R; ++d, base += plane) load_plane(base, d);

  const int i = i0 + tx;
  const int jt = j0 + ty * NY;  // first of this thread's NY rows
  T* out = un + L.index(min(i, L.nx - 1), min(jt, L.ny - 1), k0);
  // The prefetch (see the top of the file): cell m of this thread is tile cell
  // e = tid + m * nthreads, row-major over the tw x th tile, with its global offset
  // from the plane's interior (0, 0) (kSkip: beyond the halo, never loaded).
  constexpr int kSkip = INT_MIN;
  const int nthreads = bx * by, tid = ty * bx + tx;
  const bool prefetch = PREFETCH && tw * th <= kPrefetch * nthreads;  // uniform over the block
  int goff[kPrefetch], soff[kPrefetch];
  T next[kPrefetch];
#pragma unroll
  for (int m = 0; m < kPrefetch; ++m) {
    const int e = tid + m * nthreads;
    const int row = e / tw, cx = e - row * tw;
    const bool in = e < tw * th && j0 - R + row < L.ny + R && i0 - R + cx < L.nx + R;
    goff[m] = in ? (j0 - R + row) * pitch + (i0 - R + cx) : kSkip;
    soff[m] = row * tw + cx;
  }
  auto fetch = [&](const T* plane_base) {
#pragma unroll
    for (int m = 0; m < kPrefetch; ++m) next[m] = goff[m] != kSkip ? __ldg(plane_base + goff[m]) : T(0);
  };
  auto store = [&](int slot) {
    T* dst = ring + slot * ps;
#pragma unroll
    for (int m = 0; m < kPrefetch; ++m)
      if (goff[m] != kSkip) dst[soff[m]] = next[m] - r;
  };
  if (prefetch) fetch(base);
  int oldest = 0;  // ring slot of plane k-R
#pragma unroll 1
  for (int k = k0; k < k1; ++k, base += plane, out += plane) {
    T acc[NY];
#pragma unroll
    for (int o = 0; o < NY; ++o)  // u^{n-1}, loaded before the barrier to hide its latency
      acc[o] = (i < L.nx && jt + o < L.ny) ? out[o * pitch] : T(0);
    __syncthreads();  // the slot about to be refilled is no longer read
    int newest = oldest + 2 * R;
    if (newest >= D) newest -= D;
    if (prefetch) store(newest);
    else load_plane(base, newest);
    __syncthreads();
    if (prefetch && k + 1 < k1) fetch(base + plane);  // in flight while this plane is computed
#pragma unroll
    for (int o = 0; o < NY; ++o) acc[o] = ex::leapfrog(r, acc[o]);
#pragma unroll
    for (int dz = 0; dz < D; ++dz) {
      int slot = oldest + dz;
      if (slot >= D) slot -= D;
      const T* pl = ring + slot * ps + (ty * NY) * tw + tx;
#pragma unroll
      for (int dx = 0; dx < D; ++dx) {
        T colv[NY + 2 * R];
#pragma unroll
        for (int q = 0; q < NY + 2 * R; ++q) colv[q] = pl[q * tw + dx];
#pragma unroll
        for (int dy = 0; dy < D; ++dy) {
          const T w = cube_weight<T>((dz * D + dy) * D + dx);
#pragma unroll
          for (int o = 0; o < NY; ++o) acc[o] = fma(w, colv[o + dy], acc[o]);
        }
      }
    }
    if (i < L.nx) {
#pragma unroll
      for (int o = 0; o < NY; ++o)
        if (jt + o < L.ny) out[o * pitch] = acc[o];
    }
    if (++oldest == D) oldest = 0;
  }
}

// Uploads the weight cube of radius R on `stream` (called under the tables' lock,
// constant_tables.hpp).
template <class T>
int upload_cube(const StepArgs<T>& a, int R, cudaStream_t stream) {
  static std::vector<T> cube;  // kept between uploads
  const int D = 2 * R + 1;
  auto at = [&](int dz, int dy, int dx) { return ((size_t)dz * D + dy) * D + dx; };  // cube indices 0..2R
  std::vector<double> acc((size_t)D * D * D, 0.0);
  for (const auto& p : a.stencil->points)  // the stencil's own centre weight is not used
    if (p.dx != 0 || p.dy != 0 || p.dz != 0) acc[at(p.dz + R, p.dy + R, p.dx + R)] += a.lambda2 * p.w;
  cube.assign(acc.begin(), acc.end());
  // c_0 = 2 - (the sum of the weights as stored), summed in extended precision: the
  // kernel's weights then sum to 2 within one rounding of c_0, so the scheme it runs
  // is the reference's to that rounding (a c_0 off by the rounding of a 124-term
  // double sum shows as 1e-12 after 200 steps on random fields).
  long double off_centre = 0.0L;
  for (size_t n = 0; n < cube.size(); ++n)
    if (n != at(R, R, R)) off_centre += (long double)cube[n];
  cube[at(R, R, R)] = T(2.0L - off_centre);
  if constexpr (std::is_same_v<T, float>)
    CUDA_CHECK(cudaMemcpyToSymbolAsync(c_cube_f, cube.data(), cube.size() * sizeof(T), 0, cudaMemcpyHostToDevice, stream));
  else
    CUDA_CHECK(cudaMemcpyToSymbolAsync(c_cube_d, cube.data(), cube.size() * sizeof(T), 0, cudaMemcpyHostToDevice, stream));
  return 0;  // the kernel's loops know the table's size from R
}

template <class T, int R>
void launch_r(const StepArgs<T>& a, const BlockShape& b, cudaStream_t stream, const char* name) {
  const FieldLayout& L = a.layout;
  const long long gx = big::cdiv(L.nx, b.x), gy = big::cdiv(L.ny, (long long)b.y * NY);
  const int planes = big::z_chunk_planes(L.nz, gx * gy, std::max(16, 4 * R));
  const dim3 grid = big::grid3(gx, gy, big::cdiv(L.nz, planes), name);
  const size_t smem = sizeof(T) * (size_t)(2 * R + 1) * (b.x + 2 * R) * ((size_t)b.y * NY + 2 * R);
  big::set_dynamic_smem(compact_tiled_kernel<T, R, (R <= kMaxPrefetchR)>, smem, name);
  compact_tiled_kernel<T, R, (R <= kMaxPrefetchR)><<<grid, dim3(b.x, b.y, 1), smem, stream>>>(a.u_next, a.u_cur, L, planes);
}

template <class T>
void launch_compact_tiled(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  const char* name = "compact tiled (ring of planes)";
  const Stencil& s = *a.stencil;
  if (!supports_compact_tiled(s))
    throw std::invalid_argument(std::string(name) + " runs stencils of radius 1.." + std::to_string(kMaxR) + ", not '" +
                                s.name + "' (radius " + std::to_string(s.radius) + ")");
  const BlockShape b{o.block.x, o.block.y, 1};
  big::check_halo_and_block(a.layout, s.radius, b, name, kMaxThreads);
  // The device's tables for this launch (launches on other streams wait for the upload).
  big::prepare_constant_tables(big::stencil_upload_key(s, a.lambda2, s.radius, (int64_t)sizeof(T), 0), stream,
                               [&](cudaStream_t on) { return upload_cube(a, s.radius, on); });
  switch (s.radius) {
    case 1: launch_r<T, 1>(a, b, stream, name); break;
    case 2: launch_r<T, 2>(a, b, stream, name); break;
    case 3: launch_r<T, 3>(a, b, stream, name); break;
    case 4: launch_r<T, 4>(a, b, stream, name); break;
    default:
      throw std::invalid_argument(std::string(name) + ": radius " + std::to_string(s.radius) +
                                  " is not supported; allowed: 1..4");
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void register_compact_tiled_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "compact_tiled";
  v.graph_capturable = false;  // constant-memory tables uploaded on change
  v.name = "2.5D ring of planes in shared, weight cube";
  v.family = "hamilton";
  v.stencils = "radius 1..4";
  v.supports = supports_compact_tiled;
  v.default_block = {32, 8, 1};
  v.block_uses_z = false;
  v.has_readonly_toggle = false;
  v.launch_float = launch_compact_tiled<float>;
  v.launch_double = launch_compact_tiled<double>;
  r.add(v);
}

}  // namespace ws
