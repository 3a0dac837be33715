// KernelA of Hamilton, Webb, Gray & Bilbao (fig. 5): the general stencil.
// One thread per interior point (3-D tiling); the K linear offsets and the K
// update coefficients live in __constant__ memory. Every thread of a warp reads
// the same table entry in the same iteration, which is the broadcast pattern
// the constant cache serves in one transaction, so the tables cost nothing next
// to the K loads of u^n, which go through L1 / the read-only cache and L2.
//
// Unlike fig. 5, the centre is not a table entry: the thread starts from
// 2u - u^{n-1} and adds lambda^2 w_p (u(x+p) - u(x)) for every point p != 0
// (exact_update.cuh), so each term is exactly 0 for a constant field, which is
// then a fixed point bit for bit; the centre weight is not used. Points are
// sorted by (dz, dy, dx) so that consecutive iterations walk forward through
// memory (plane by plane, row by row), which helps the caches.
//
// The tables are uploaded only when the (stencil, lambda, layout) key changes, on
// the launch stream, and launches on other streams of the device wait for that
// upload (constant_tables.hpp).
#include <algorithm>
#include <tuple>
#include <vector>

#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/bigstencil_launch.hpp"
#include "cuda/kernels/constant_tables.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/load.cuh"

namespace ws {

namespace {

constexpr int kMaxPoints = 461;  // S_22, the largest compact-in-space stencil of the paper

constexpr int kTableSize = kMaxPoints;  // the points p != 0 (a stencil of K points has at most K)

__constant__ int c_off_f[kTableSize];
__constant__ float c_w_f[kTableSize];
__constant__ int c_off_d[kTableSize];
__constant__ double c_w_d[kTableSize];

template <class T>
__device__ __forceinline__ int table_offset(int n) {
  if constexpr (std::is_same_v<T, float>) return c_off_f[n];
  else return c_off_d[n];
}
template <class T>
__device__ __forceinline__ T table_weight(int n) {
  if constexpr (std::is_same_v<T, float>) return c_w_f[n];
  else return c_w_d[n];
}

template <class T, bool RO>
__global__ void __launch_bounds__(1024) kernel_a(T* __restrict__ un, const T* __restrict__ uc, FieldLayout L, int K) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  const int k = blockIdx.z * blockDim.z + threadIdx.z;
  if (i >= L.nx || j >= L.ny || k >= L.nz) return;  // the halo is never written
  const int64_t p = L.index(i, j, k);
  const T* __restrict__ q = uc + p;
  const T u = ld<RO>(q);
  T acc = ex::leapfrog(u, un[p]);
#pragma unroll 4
  for (int n = 0; n < K; ++n) acc = fma(table_weight<T>(n), ld<RO>(q + table_offset<T>(n)) - u, acc);
  un[p] = acc;
}

bool supports_general(const Stencil& s) { return s.size() >= 1 && s.size() <= kMaxPoints; }

// Uploads the tables of the stencil's points other than the centre on `stream` and
// returns their number, the K the kernel loops over (called under the tables' lock,
// constant_tables.hpp).
template <class T>
int upload_tables(const StepArgs<T>& a, cudaStream_t stream) {
  const Stencil& s = *a.stencil;
  const FieldLayout& L = a.layout;
  std::vector<StencilPoint> pts;
  for (const auto& p : s.points)
    if (p.dx != 0 || p.dy != 0 || p.dz != 0) pts.push_back(p);  // the centre's difference is 0
  std::sort(pts.begin(), pts.end(), [](const StencilPoint& x, const StencilPoint& y) {
    return std::tie(x.dz, x.dy, x.dx) < std::tie(y.dz, y.dy, y.dx);
  });
  static std::vector<int> off;  // kept between uploads (called under the tables' lock)
  static std::vector<T> w;
  off.clear();
  w.clear();
  for (const auto& pt : pts) {
    const int64_t o = (int64_t)pt.dz * L.plane + (int64_t)pt.dy * L.pitch + pt.dx;
    if (o > INT32_MAX || o < INT32_MIN)
      throw std::invalid_argument("KernelA: linear offset of point (" + std::to_string(pt.dx) + "," +
                                  std::to_string(pt.dy) + "," + std::to_string(pt.dz) +
                                  ") does not fit in 32 bits for this grid; use a smaller grid");
    off.push_back((int)o);
    w.push_back(T(a.lambda2 * pt.w));
  }
  if (!off.empty()) {  // a centre-only stencil has nothing to upload
    if constexpr (std::is_same_v<T, float>) {
      CUDA_CHECK(cudaMemcpyToSymbolAsync(c_off_f, off.data(), off.size() * sizeof(int), 0, cudaMemcpyHostToDevice, stream));
      CUDA_CHECK(cudaMemcpyToSymbolAsync(c_w_f, w.data(), w.size() * sizeof(T), 0, cudaMemcpyHostToDevice, stream));
    } else {
      CUDA_CHECK(cudaMemcpyToSymbolAsync(c_off_d, off.data(), off.size() * sizeof(int), 0, cudaMemcpyHostToDevice, stream));
      CUDA_CHECK(cudaMemcpyToSymbolAsync(c_w_d, w.data(), w.size() * sizeof(T), 0, cudaMemcpyHostToDevice, stream));
    }
  }
  return (int)off.size();
}

template <class T>
void launch_kernel_a(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  const Stencil& s = *a.stencil;
  if (!supports_general(s))
    throw std::invalid_argument("KernelA runs stencils of 1.." + std::to_string(kMaxPoints) + " points, not '" + s.name +
                                "' with " + std::to_string(s.size()));
  big::check_halo_and_block(a.layout, s.radius, o.block, "KernelA", 1024);
  // The device's tables for this launch and their entry count (launches on other streams
  // wait for the upload).
  const int K = big::prepare_constant_tables(
      big::stencil_upload_key(s, a.lambda2, a.layout.pitch, a.layout.plane, (int64_t)sizeof(T)), stream,
      [&](cudaStream_t on) { return upload_tables(a, on); });
  const dim3 block(o.block.x, o.block.y, o.block.z);
  const dim3 grid = big::grid3(big::cdiv(a.layout.nx, o.block.x), big::cdiv(a.layout.ny, o.block.y),
                               big::cdiv(a.layout.nz, o.block.z), "KernelA");
  if (o.readonly_cache)
    kernel_a<T, true><<<grid, block, 0, stream>>>(a.u_next, a.u_cur, a.layout, K);
  else
    kernel_a<T, false><<<grid, block, 0, stream>>>(a.u_next, a.u_cur, a.layout, K);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void register_general_stencil_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "kernelA";
  v.graph_capturable = false;  // constant-memory tables uploaded on change
  v.name = "KernelA: general, constant tables (fig. 5)";
  v.family = "hamilton";
  v.stencils = "<= 461 points";
  v.supports = supports_general;
  v.default_block = {32, 4, 2};  // the paper's block
  v.block_uses_z = true;
  v.has_readonly_toggle = true;
  v.launch_float = launch_kernel_a<float>;
  v.launch_double = launch_kernel_a<double>;
  r.add(v);
}

}  // namespace ws
