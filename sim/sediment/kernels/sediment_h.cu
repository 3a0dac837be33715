// The h-kernel of Su et al. (eq. 3) in the paper's four versions.
//
//  Baseline: one thread per cell, every operand from global memory with plain
//            loads; each thread forms alpha s and beta (1-s) for itself and its
//            four neighbours (the neighbours' products are computed 5 times over).
//  OPT-1:    the same with loads through the read-only data cache (__ldg; the
//            paper's const __restrict__ on Kepler).
//  OPT-2:    OPT-1 plus shared memory: each thread computes alpha s and
//            beta (1-s) of its own cell once into two shared tiles, the block's
//            edge threads also those of the one-cell apron (the paper's
//            "nine or six" flops saved on edge threads, twelve inside).
//  OPT-3:    OPT-2 with halo threads: the block is (BX+2) x (BY+2) threads, every
//            thread fills exactly one shared entry (apron included, no if-tests
//            per side), then the first BX*BY threads (by linear id, remapped)
//            update the BX x BY tile while the rest idle (paper's appendix).
#include "core/cuda_check.hpp"
#include "cuda/kernels/load.cuh"
#include "sediment/sediment_kernels.hpp"

namespace ws {

namespace {

template <class T>
struct HTiles {
  T* as;
  T* bm;
};

template <class T>
__device__ __forceinline__ HTiles<T> h_tiles(int entries) {
  extern __shared__ __align__(16) unsigned char ws_sed_smem[];
  T* base = reinterpret_cast<T*>(ws_sed_smem);
  return {base, base + entries};
}

// Baseline (RO = false) and OPT-1 (RO = true).
template <class T, bool RO>
__global__ void h_direct(const T* alpha, const T* beta, const T* s, const T* h, T* h_new, SedimentLayout L,
                         SedimentCoeffs<T> k) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= L.nx || j >= L.ny) return;  // ghosts are never written
  const int64_t p = L.index(i, j), P = L.pitch;
  auto as = [&](int64_t q) { return sand_mobility(ld<RO>(alpha + q), ld<RO>(s + q)); };
  auto bm = [&](int64_t q) { return mud_mobility(ld<RO>(beta + q), ld<RO>(s + q)); };
  h_new[p] = h_update(k, ld<RO>(h + p), ld<RO>(h + p + 1), ld<RO>(h + p - 1), ld<RO>(h + p + P), ld<RO>(h + p - P),
                      as(p), as(p + 1), as(p - 1), as(p + P), as(p - P), bm(p), bm(p + 1), bm(p - 1), bm(p + P),
                      bm(p - P));
}

// OPT-2: block = tile; edge threads also fill the apron.
template <class T>
__global__ void h_shared(const T* __restrict__ alpha, const T* __restrict__ beta, const T* __restrict__ s,
                         const T* __restrict__ h, T* __restrict__ h_new, SedimentLayout L, SedimentCoeffs<T> k) {
  const int W = blockDim.x + 2;
  const HTiles<T> t = h_tiles<T>(W * (blockDim.y + 2));
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.x * blockDim.x + tx, j = blockIdx.y * blockDim.y + ty;
  const bool inside = i < L.nx && j < L.ny;
  const int64_t p = L.index(i, j), P = L.pitch;
  auto put = [&](int lx, int ly, int64_t q) {
    const T sq = ld<true>(s + q);
    t.as[(ly + 1) * W + lx + 1] = sand_mobility(ld<true>(alpha + q), sq);
    t.bm[(ly + 1) * W + lx + 1] = mud_mobility(ld<true>(beta + q), sq);
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
  h_new[p] = h_update(k, ld<true>(h + p), ld<true>(h + p + 1), ld<true>(h + p - 1), ld<true>(h + p + P),
                      ld<true>(h + p - P), t.as[c], t.as[c + 1], t.as[c - 1], t.as[c + W], t.as[c - W], t.bm[c],
                      t.bm[c + 1], t.bm[c - 1], t.bm[c + W], t.bm[c - W]);
}

// OPT-3: block = (tile + 2) threads per side; one shared entry per thread.
template <class T>
__global__ void h_halo(const T* __restrict__ alpha, const T* __restrict__ beta, const T* __restrict__ s,
                       const T* __restrict__ h, T* __restrict__ h_new, SedimentLayout L, SedimentCoeffs<T> k) {
  const int W = blockDim.x, TX = blockDim.x - 2, TY = blockDim.y - 2;
  const HTiles<T> t = h_tiles<T>(W * blockDim.y);
  const int tid = threadIdx.y * W + threadIdx.x;
  {
    const int gi = blockIdx.x * TX + threadIdx.x - 1, gj = blockIdx.y * TY + threadIdx.y - 1;  // >= -1: ghost
    if (gi <= L.nx && gj <= L.ny) {
      const int64_t q = L.index(gi, gj);
      const T sq = ld<true>(s + q);
      t.as[tid] = sand_mobility(ld<true>(alpha + q), sq);
      t.bm[tid] = mud_mobility(ld<true>(beta + q), sq);
    }
  }
  __syncthreads();
  if (tid >= TX * TY) return;  // the halo threads' work is done
  const int lx = tid % TX, ly = tid / TX;
  const int i = blockIdx.x * TX + lx, j = blockIdx.y * TY + ly;
  if (i >= L.nx || j >= L.ny) return;
  const int64_t p = L.index(i, j), P = L.pitch;
  const int c = (ly + 1) * W + lx + 1;
  h_new[p] = h_update(k, ld<true>(h + p), ld<true>(h + p + 1), ld<true>(h + p - 1), ld<true>(h + p + P),
                      ld<true>(h + p - P), t.as[c], t.as[c + 1], t.as[c - 1], t.as[c + W], t.as[c - W], t.bm[c],
                      t.bm[c + 1], t.bm[c - 1], t.bm[c + W], t.bm[c - W]);
}

enum class Version { Baseline, Opt1, Opt2, Opt3 };

template <class T, Version V>
void launch_h(const SedimentArgs<T>& a, BlockShape b, cudaStream_t stream) {
  const SedimentLayout& L = a.layout;
  const dim3 block(b.x, b.y, 1);
  if constexpr (V == Version::Opt3) {
    const dim3 grid(ceil_div(L.nx, b.x - 2), ceil_div(L.ny, b.y - 2), 1);
    const size_t shm = 2 * sizeof(T) * b.x * b.y;
    h_halo<T><<<grid, block, shm, stream>>>(a.alpha, a.beta, a.s, a.h, a.h_new, L, a.k);
  } else {
    const dim3 grid(ceil_div(L.nx, b.x), ceil_div(L.ny, b.y), 1);
    if constexpr (V == Version::Opt2) {
      const size_t shm = 2 * sizeof(T) * (b.x + 2) * (b.y + 2);
      h_shared<T><<<grid, block, shm, stream>>>(a.alpha, a.beta, a.s, a.h, a.h_new, L, a.k);
    } else {
      h_direct<T, V == Version::Opt1><<<grid, block, 0, stream>>>(a.alpha, a.beta, a.s, a.h, a.h_new, L, a.k);
    }
  }
  CUDA_CHECK_LAUNCH();
}

template <Version V>
SedimentKernel entry(const char* id, const char* name, const char* version, BlockShape block, bool halo, int shared) {
  SedimentKernel k;
  k.id = id;
  k.name = name;
  k.kind = SedimentKernelKind::H;
  k.version = version;
  k.default_block = block;
  k.halo_threads = halo;
  k.shared_arrays = shared;
  k.launch_float = launch_h<float, V>;
  k.launch_double = launch_h<double, V>;
  return k;
}

}  // namespace

void register_sediment_h_kernels(SedimentKernelRegistry& r) {
  r.add(entry<Version::Baseline>("h-baseline", "h-kernel, baseline (global loads)", "Baseline", {32, 4, 1}, false, 0));
  r.add(entry<Version::Opt1>("h-opt1", "h-kernel, read-only data cache", "OPT-1", {32, 4, 1}, false, 0));
  r.add(entry<Version::Opt2>("h-opt2", "h-kernel, shared alpha s and beta (1-s)", "OPT-2", {32, 4, 1}, false, 2));
  r.add(entry<Version::Opt3>("h-opt3", "h-kernel, shared + halo threads", "OPT-3", {34, 6, 1}, true, 2));
}

}  // namespace ws
