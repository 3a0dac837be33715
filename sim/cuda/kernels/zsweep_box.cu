// Mirror-symmetric stencils of radius R = 1..4 (every box and compact stencil,
// the 27-point schemes) by the forward z sweep of zsweep_common.cuh, with the
// sums over mirror images formed before any multiplication.
//
// The weight of such a stencil depends on (|dx|, |dy|, |dz|) only. With
//   S_ab(p) = sum of u over the n_ab (1, 2 or 4) points (x ± a, y ± b) of plane p,
// the Laplacian at output plane k, written with differences so that a constant
// field is a fixed point bit for bit (exact_update.cuh), splits as
//   sum_{c = -R..R} H_|c|(k + c) + sum_{c >= 1} N_c ([u(k+c) - u(k)] + [u(k-c) - u(k)]),
//   H_c(p) = sum_{(a,b) != 0} w(a,b,c) (S_ab(p) - n_ab u(p)),   N_c = sum_{a,b} n_ab w(a,b,c):
// each off-centre point's u(x+p) - u(x) is taken as its difference from the
// centre column in its own plane plus the centre column's difference between
// the planes. So plane p contributes 2u + H_0 to output p and H_c to outputs
// p - c and p + c, and the centre column's z differences go through the plane
// differences d(p) = u(p) - u(p-1) (u(p-1) kept in a register per output) as in
// zsweep_leggy.cu: +W_j d(p) to output p - j and -W_j d(p) to output p + j - 1,
// W_j = N_j + ... + N_R. For a constant every class difference (a sum of 2 or 4
// equal values minus 2u or 4u) and d(p) are exactly 0, so the queue holds exactly
// 2c until u^{n-1} = c is subtracted. Per output and plane that is (R+1)^2 class
// sums and ((R+1)^2 - 1)(R+1) + 2R FMAs: 28 for the 125-point box instead of 125,
// and 2R + 1 shared loads (the x neighbours of the NY + 2R rows of the thread's
// column, shared by its NY outputs) instead of the (2R+1)^2 (NY+2R)/NY = 50 of a
// dense ring-of-planes kernel. Absent classes (compact stencils) have weight 0 and
// cost an FMA each, nothing more.
//
// The weights (lambda^2 w(a,b,c) for (a,b) != 0, lambda^2 W_c in the unused slots
// (0,0,c)) sit in __constant__ memory; R is a template parameter, so after
// unrolling every weight is a constant-bank operand. They are uploaded, on the
// launch stream, only when the (stencil, lambda, R, precision) key changes.
#include <cmath>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/bigstencil_launch.hpp"
#include "cuda/kernels/zsweep_common.cuh"

namespace ws {

namespace {

constexpr int kMaxR = 4;
constexpr int kClasses = (kMaxR + 1) * (kMaxR + 1) * (kMaxR + 1);
// Outputs per thread along y: in float 8 for R <= 2, else 4 (on the H200 NY = 8
// was ~20% faster than 4 on the 125-point box with 32x8 and 64x4 blocks, and
// slower at radius 3, for registers); half that in double (two registers a value).
template <class T, int R>
constexpr int box_ny() {
  return (R <= 2 ? 8 : 4) / (sizeof(T) == 4 ? 1 : 2);
}

__constant__ float c_sym_f[kClasses];
__constant__ double c_sym_d[kClasses];

template <class T, int R>
__device__ __forceinline__ T class_weight(int a, int b, int c) {
  const int n = (c * (R + 1) + b) * (R + 1) + a;
  if constexpr (std::is_same_v<T, float>) return c_sym_f[n];
  else return c_sym_d[n];
}

// Weight of every offset in the (2R+1)^3 cube (0 where the stencil has no point);
// repeated points add up, as in the reference.
std::vector<double> dense_cube(const Stencil& s, int R) {
  const int D = 2 * R + 1;
  std::vector<double> cube((size_t)D * D * D, 0.0);
  for (const auto& p : s.points) cube[((size_t)(p.dz + R) * D + (p.dy + R)) * D + (p.dx + R)] += p.w;
  return cube;
}

// Radius 1..4 and w(dx,dy,dz) == w(|dx|,|dy|,|dz|) exactly for every offset of the cube.
bool supports_mirror_symmetric(const Stencil& s) {
  if (s.radius < 1 || s.radius > kMaxR || s.size() < 1) return false;
  for (const auto& p : s.points)
    if (std::abs(p.dx) > s.radius || std::abs(p.dy) > s.radius || std::abs(p.dz) > s.radius) return false;
  const int R = s.radius, D = 2 * R + 1;
  const std::vector<double> cube = dense_cube(s, R);
  auto at = [&](int x, int y, int z) { return cube[((size_t)(z + R) * D + (y + R)) * D + (x + R)]; };
  for (int z = -R; z <= R; ++z)
    for (int y = -R; y <= R; ++y)
      for (int x = -R; x <= R; ++x)
        if (at(x, y, z) != at(std::abs(x), std::abs(y), std::abs(z))) return false;
  return true;
}

template <class T, int R, int NY>
__global__ void __launch_bounds__(zs::kMaxThreads) zsweep_box_kernel(T* __restrict__ un, const T* __restrict__ uc,
                                                                      FieldLayout L, int z_planes) {
  constexpr int D = 2 * R + 1;
  constexpr int S = zs::kStages;
  zs::Sweep<T> sw;
  sw.init(big::dyn_smem<T>(), L, R, NY, z_planes, un, uc);
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = sw.i0 + tx, jt = sw.j0 + ty * NY;
  const int p_first = sw.k0 - R, p_last = sw.k1 - 1 + R;
  const int64_t plane = L.plane;
  const int pitch = (int)L.pitch;
  T* out0 = un + L.index(min(i, L.nx - 1), min(jt, L.ny - 1), sw.k0);
  const bool col_in = i < L.nx;

#pragma unroll
  for (int s = 0; s < S - 1; ++s) sw.issue(p_first + s, s, L);

  T Q[D][NY];
#pragma unroll
  for (int d = 0; d < D; ++d)
#pragma unroll
    for (int o = 0; o < NY; ++o) Q[d][o] = T(0);
  // u(p - 1) at the thread's outputs. The first plane's difference (against 0)
  // only reaches outputs below k0, which are never written.
  T v_prev[NY];
#pragma unroll
  for (int o = 0; o < NY; ++o) v_prev[o] = T(0);

  // The queue never shifts: the plane loop is unrolled D times and the logical
  // Q[d] of plane p_first + D n + u lives in register Q[(d + u) % D].
  int slot = 0;
#pragma unroll 1
  for (int pb = p_first; pb <= p_last; pb += D) {
#pragma unroll
    for (int u = 0; u < D; ++u) {
      const int p = pb + u;
      if (p > p_last) break;
      const int kout = p - R;
      __pipeline_wait_prior(S - 2);
      __syncthreads();
      {
        int sn = slot + S - 1;
        if (sn >= S) sn -= S;
        sw.issue(p + S - 1, sn, L);
      }
      const T* t = sw.in + slot * sw.ts + (ty * NY) * sw.tw + tx + sw.A;  // tile row of y = jt - R, column x = i
      // X[a][q] = u(x - a) + u(x + a) on row q of the column (X[0] = u(x)).
      T X[R + 1][NY + 2 * R];
#pragma unroll
      for (int q = 0; q < NY + 2 * R; ++q) {
        const T* r = t + q * sw.tw;
        X[0][q] = r[0];
#pragma unroll
        for (int a = 1; a <= R; ++a) X[a][q] = r[-a] + r[a];
      }
#pragma unroll
      for (int o = 0; o < NY; ++o) {
        const T v = X[0][o + R];
        const T two_v = v + v, four_v = two_v + two_v;
        // H[c] = sum_{(a,b) != 0} w(a,b,c) (S_ab - n_ab u), plus 2u in H[0]: all 0 but 2u for a constant.
        T H[R + 1];
        H[0] = two_v;
#pragma unroll
        for (int cc = 1; cc <= R; ++cc) H[cc] = T(0);
#pragma unroll
        for (int a = 0; a <= R; ++a)
#pragma unroll
          for (int b = 0; b <= R; ++b) {
            if (a == 0 && b == 0) continue;
            const T s = b == 0 ? X[a][o + R] : X[a][o + R - b] + X[a][o + R + b];
            const T d = s - (a > 0 && b > 0 ? four_v : two_v);
#pragma unroll
            for (int cc = 0; cc <= R; ++cc) H[cc] = fma(class_weight<T, R>(a, b, cc), d, H[cc]);
          }
        Q[(R + u) % D][o] += H[0];
#pragma unroll
        for (int cc = 1; cc <= R; ++cc) {
          Q[(R - cc + u) % D][o] += H[cc];
          Q[(R + cc + u) % D][o] += H[cc];
        }
        // The centre column's z differences through d(p) = u(p) - u(p - 1).
        const T dz = v - v_prev[o];
        v_prev[o] = v;
#pragma unroll
        for (int j = 1; j <= R; ++j) {
          Q[(R - j + u) % D][o] = fma(class_weight<T, R>(0, 0, j), dz, Q[(R - j + u) % D][o]);
          Q[(R + j - 1 + u) % D][o] = fma(-class_weight<T, R>(0, 0, j), dz, Q[(R + j - 1 + u) % D][o]);
        }
      }
      if (col_in && kout >= sw.k0) {
        const T* pv = sw.prv + slot * sw.ps + (ty * NY) * blockDim.x + tx;  // u^{n-1}
        T* optr = out0 + (int64_t)(kout - sw.k0) * plane;
#pragma unroll
        for (int o = 0; o < NY; ++o)
          if (jt + o < L.ny) optr[o * pitch] = Q[u][o] - pv[o * blockDim.x];
      }
#pragma unroll
      for (int o = 0; o < NY; ++o) Q[u][o] = T(0);  // logical Q[0], written: next plane's Q[D - 1]
      if (++slot == S) slot = 0;
    }
  }
  __pipeline_wait_prior(0);
}

template <class T>
void upload_classes(const StepArgs<T>& a, int R, cudaStream_t stream) {
  static std::mutex mutex;
  static uint64_t key = 0;
  static bool valid = false;
  static std::vector<T> table;
  const uint64_t k = big::stencil_upload_key(*a.stencil, a.lambda2, R, (int64_t)sizeof(T), 1);
  std::lock_guard<std::mutex> lock(mutex);
  if (valid && k == key) return;
  const int D = 2 * R + 1;
  const std::vector<double> cube = dense_cube(*a.stencil, R);
  table.assign((size_t)(R + 1) * (R + 1) * (R + 1), T(0));
  auto at = [&](int c, int b, int x) -> T& { return table[((size_t)c * (R + 1) + b) * (R + 1) + x]; };
  double tail = 0.0;  // W_c = N_c + ... + N_R, N_c = sum_{x,b} n_xb w(x,b,c)
  for (int c = R; c >= 0; --c) {
    for (int b = 0; b <= R; ++b)
      for (int x = 0; x <= R; ++x) {
        const double w = cube[((size_t)(c + R) * D + (b + R)) * D + (x + R)];
        if (c >= 1) tail += (x > 0 ? 2 : 1) * (b > 0 ? 2 : 1) * w;
        if (x > 0 || b > 0) at(c, b, x) = T(a.lambda2 * w);
      }
    if (c >= 1) at(c, 0, 0) = T(a.lambda2 * tail);  // the centre column's slot holds W_c
  }
  if constexpr (std::is_same_v<T, float>)
    CUDA_CHECK(cudaMemcpyToSymbolAsync(c_sym_f, table.data(), table.size() * sizeof(T), 0, cudaMemcpyHostToDevice, stream));
  else
    CUDA_CHECK(cudaMemcpyToSymbolAsync(c_sym_d, table.data(), table.size() * sizeof(T), 0, cudaMemcpyHostToDevice, stream));
  key = k;
  valid = true;
}

template <class T, int R, int NY>
void launch_r(const StepArgs<T>& a, const BlockShape& b, cudaStream_t stream, const char* name) {
  const FieldLayout& L = a.layout;
  const long long gx = big::cdiv(L.nx, b.x), gy = big::cdiv(L.ny, (long long)b.y * NY);
  const int planes = zs::chunk_planes(L.nz, gx * gy, std::max(16, 4 * R));
  const dim3 grid = big::grid3(gx, gy, big::cdiv(L.nz, planes), name);
  const size_t smem = zs::sweep_smem_bytes(sizeof(T), b.x, b.y, NY, R);
  big::set_dynamic_smem(zsweep_box_kernel<T, R, NY>, smem, name);
  zsweep_box_kernel<T, R, NY><<<grid, dim3(b.x, b.y, 1), smem, stream>>>(a.u_next, a.u_cur, L, planes);
}

template <class T>
void launch_zsweep_box(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  const char* name = "zsweep_box (forward z sweep, mirror-symmetric)";
  const Stencil& s = *a.stencil;
  if (!supports_mirror_symmetric(s))
    throw std::invalid_argument(std::string(name) + " runs stencils of radius 1.." + std::to_string(kMaxR) +
                                " whose weights depend on |dx|, |dy|, |dz| only; not '" + s.name + "' (radius " +
                                std::to_string(s.radius) + ")");
  const BlockShape b{o.block.x, o.block.y, 1};
  big::check_halo_and_block(a.layout, s.radius, b, name, zs::kMaxThreads);
  upload_classes(a, s.radius, stream);
  switch (s.radius) {
    case 1: launch_r<T, 1, box_ny<T, 1>()>(a, b, stream, name); break;
    case 2: launch_r<T, 2, box_ny<T, 2>()>(a, b, stream, name); break;
    case 3: launch_r<T, 3, box_ny<T, 3>()>(a, b, stream, name); break;
    case 4: launch_r<T, 4, box_ny<T, 4>()>(a, b, stream, name); break;
    default: throw std::invalid_argument(std::string(name) + ": radius " + std::to_string(s.radius) + " not in 1..4");
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void register_zsweep_box_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "zsweep_box";
  v.graph_capturable = false;  // constant-memory tables uploaded on change
  v.name = "forward z sweep, mirror-class sums (box, compact)";
  v.family = "zsweep";
  v.stencils = "mirror-symmetric, radius 1..4";
  v.supports = supports_mirror_symmetric;
  v.default_block = {64, 4, 1};  // H200, 125-point box, float: 120 Gpts/s vs 101 at 32x4
  v.block_uses_z = false;
  v.has_readonly_toggle = false;
  v.launch_float = launch_zsweep_box<float>;
  v.launch_double = launch_zsweep_box<double>;
  r.add(v);
}

}  // namespace ws
