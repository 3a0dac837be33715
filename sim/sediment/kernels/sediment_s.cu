// The s-kernel (sediment_scheme.hpp: s_update) in the paper's four versions.
// Its per-cell intermediate is gamma = alpha/C_s - beta/C_m (three flops),
// which OPT-2/OPT-3 keep in shared memory as the paper keeps alpha s there.
// As the paper found on Kepler, sharing saves little here (the neighbours'
// gamma only: twelve flops) while costing a __syncthreads and, for OPT-3,
// idle threads; s and h^{l+1} come through the read-only cache in OPT-1..3.
#include "core/cuda_check.hpp"
#include "cuda/kernels/load.cuh"
#include "sediment/sediment_kernels.hpp"

namespace ws {

namespace {

template <class T>
__device__ __forceinline__ T* s_tile() {
  extern __shared__ __align__(16) unsigned char ws_sed_smem[];
  return reinterpret_cast<T*>(ws_sed_smem);
}

// The update at cell p once the five gamma values are known.
template <bool RO, class T>
__device__ __forceinline__ T s_at(const T* alpha, const T* beta, const T* s, const T* h1, int64_t p, int64_t P,
                                  const SedimentCoeffs<T>& k, T g, T ge, T gw, T gn, T gs) {
  return s_update(k, ld<RO>(s + p), ld<RO>(s + p + 1), ld<RO>(s + p - 1), ld<RO>(s + p + P), ld<RO>(s + p - P),
                  ld<RO>(h1 + p), ld<RO>(h1 + p + 1), ld<RO>(h1 + p - 1), ld<RO>(h1 + p + P), ld<RO>(h1 + p - P), g,
                  ge, gw, gn, gs, ld<RO>(alpha + p), ld<RO>(beta + p));
}

// Baseline (RO = false) and OPT-1 (RO = true). h1 = h^{l+1}.
template <class T, bool RO>
__global__ void s_direct(const T* alpha, const T* beta, const T* s, const T* h1, T* s_new, SedimentLayout L,
                         SedimentCoeffs<T> k) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= L.nx || j >= L.ny) return;
  const int64_t p = L.index(i, j), P = L.pitch;
  auto g = [&](int64_t q) { return mobility_contrast(k, ld<RO>(alpha + q), ld<RO>(beta + q)); };
  s_new[p] = s_at<RO>(alpha, beta, s, h1, p, P, k, g(p), g(p + 1), g(p - 1), g(p + P), g(p - P));
}

// OPT-2: block = tile, edge threads fill the apron of gamma.
template <class T>
__global__ void s_shared(const T* __restrict__ alpha, const T* __restrict__ beta, const T* __restrict__ s,
                         const T* __restrict__ h1, T* __restrict__ s_new, SedimentLayout L, SedimentCoeffs<T> k) {
  const int W = blockDim.x + 2;
  T* gt = s_tile<T>();
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.x * blockDim.x + tx, j = blockIdx.y * blockDim.y + ty;
  const bool inside = i < L.nx && j < L.ny;
  const int64_t p = L.index(i, j), P = L.pitch;
  auto put = [&](int lx, int ly, int64_t q) {
    gt[(ly + 1) * W + lx + 1] = mobility_contrast(k, ld<true>(alpha + q), ld<true>(beta + q));
  };
  if (inside) {
    put(tx, ty, p);
    if (tx == 0) put(-1, ty, p - 1);
    if (tx == (int)blockDim.x - 1 || i == L.nx - 1) put(tx + 1, ty, p + 1);
    if (ty == 0) put(tx, -1, p - P);
    if (ty == (int)blockDim.y - 1 || j == L.ny - 1) put(tx, ty + 1, p + P);
  }
  __syncthreads();
  if (!inside) return;
  const int c = (ty + 1) * W + tx + 1;
  s_new[p] = s_at<true>(alpha, beta, s, h1, p, P, k, gt[c], gt[c + 1], gt[c - 1], gt[c + W], gt[c - W]);
}

// OPT-3: (tile + 2)^2 threads, one gamma per thread, then the first tile-many threads update.
template <class T>
__global__ void s_halo(const T* __restrict__ alpha, const T* __restrict__ beta, const T* __restrict__ s,
                       const T* __restrict__ h1, T* __restrict__ s_new, SedimentLayout L, SedimentCoeffs<T> k) {
  const int W = blockDim.x, TX = blockDim.x - 2, TY = blockDim.y - 2;
  T* gt = s_tile<T>();
  const int tid = threadIdx.y * W + threadIdx.x;
  {
    const int gi = blockIdx.x * TX + threadIdx.x - 1, gj = blockIdx.y * TY + threadIdx.y - 1;
    if (gi <= L.nx && gj <= L.ny) {
      const int64_t q = L.index(gi, gj);
      gt[tid] = mobility_contrast(k, ld<true>(alpha + q), ld<true>(beta + q));
    }
  }
  __syncthreads();
  if (tid >= TX * TY) return;
  const int lx = tid % TX, ly = tid / TX;
  const int i = blockIdx.x * TX + lx, j = blockIdx.y * TY + ly;
  if (i >= L.nx || j >= L.ny) return;
  const int64_t p = L.index(i, j), P = L.pitch;
  const int c = (ly + 1) * W + lx + 1;
  s_new[p] = s_at<true>(alpha, beta, s, h1, p, P, k, gt[c], gt[c + 1], gt[c - 1], gt[c + W], gt[c - W]);
}

enum class Version { Baseline, Opt1, Opt2, Opt3 };

template <class T, Version V>
void launch_s(const SedimentArgs<T>& a, BlockShape b, cudaStream_t stream) {
  const SedimentLayout& L = a.layout;
  const dim3 block(b.x, b.y, 1);
  if constexpr (V == Version::Opt3) {
    const dim3 grid(ceil_div(L.nx, b.x - 2), ceil_div(L.ny, b.y - 2), 1);
    s_halo<T><<<grid, block, sizeof(T) * b.x * b.y, stream>>>(a.alpha, a.beta, a.s, a.h_new, a.s_new, L, a.k);
  } else {
    const dim3 grid(ceil_div(L.nx, b.x), ceil_div(L.ny, b.y), 1);
    if constexpr (V == Version::Opt2)
      s_shared<T><<<grid, block, sizeof(T) * (b.x + 2) * (b.y + 2), stream>>>(a.alpha, a.beta, a.s, a.h_new,
                                                                              a.s_new, L, a.k);
    else
      s_direct<T, V == Version::Opt1><<<grid, block, 0, stream>>>(a.alpha, a.beta, a.s, a.h_new, a.s_new, L, a.k);
  }
  CUDA_CHECK_LAUNCH();
}

template <Version V>
SedimentKernel entry(const char* id, const char* name, const char* version, BlockShape block, bool halo, int shared) {
  SedimentKernel k;
  k.id = id;
  k.name = name;
  k.kind = SedimentKernelKind::S;
  k.version = version;
  k.default_block = block;
  k.halo_threads = halo;
  k.shared_arrays = shared;
  k.launch_float = launch_s<float, V>;
  k.launch_double = launch_s<double, V>;
  return k;
}

}  // namespace

void register_sediment_s_kernels(SedimentKernelRegistry& r) {
  r.add(entry<Version::Baseline>("s-baseline", "s-kernel, baseline (global loads)", "Baseline", {32, 4, 1}, false, 0));
  r.add(entry<Version::Opt1>("s-opt1", "s-kernel, read-only data cache", "OPT-1", {32, 4, 1}, false, 0));
  r.add(entry<Version::Opt2>("s-opt2", "s-kernel, shared gamma", "OPT-2", {32, 4, 1}, false, 1));
  r.add(entry<Version::Opt3>("s-opt3", "s-kernel, shared gamma + halo threads", "OPT-3", {34, 6, 1}, true, 1));
}

}  // namespace ws
