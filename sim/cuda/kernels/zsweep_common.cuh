#pragma once
// The z sweep shared by zsweep_leggy.cu and zsweep_box.cu: a 2.5-D scheme in
// which every plane of u^n is brought into shared memory exactly once per block
// and pushed FORWARD into the outputs it contributes to.
//
// Output plane k needs planes k-R..k+R. Instead of keeping 2R+1 input planes
// (a ring in shared memory or a queue of raw values in registers) the block
// reads one plane p at a time and adds its contribution to each of the 2R+1
// outputs p-R..p+R, held per thread in a register queue Q[0..2R] of partial
// sums (Q[d] is output p-R+d). After plane p, output p-R is complete: it is
// written and the queue shifts. So shared memory only ever holds the plane in
// hand, and the z legs / z offsets cost no loads at all.
//
// Planes arrive with cp.async (global -> shared without registers), kStages
// buffers deep: plane p+kStages-1 is in flight while plane p is computed, so
// the loads of several planes overlap the arithmetic, with one __syncthreads
// per plane. Each thread owns NY consecutive outputs of one x column (register
// blocking along y: the column's NY + 2R values are read from shared memory
// once and serve all NY outputs' y legs / y offsets).
//
// Tile of plane p: rows y = j0-R .. j0+by*NY+R-1, columns x = i0-A .. i0+bx+A-1.
// Cells beyond the halo (x >= nx+R or y >= ny+R, only under blocks that
// overhang the grid) are not loaded (or hold row padding): they are read only
// by threads that write nothing.
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <algorithm>

#include "core/field_layout.hpp"
#include "cuda/kernels/bigstencil_launch.hpp"

namespace ws::zs {

constexpr int kStages = 4;        // plane buffers: kStages - 1 planes in flight
constexpr int kMaxThreads = 256;  // the launch bound of the sweep kernels

// One block's view of the sweep: where its tiles sit in shared memory, and the
// copies of one pipeline stage. A stage is input plane p of u^n (with the R-wide
// y apron and an x apron of A >= R, A a multiple of the 16-byte vector so rows
// start aligned) plus the block's bx x (by NY) patch of u^{n-1} at the output
// plane p - R that this iteration completes, so u^{n-1} is also fetched
// kStages - 1 planes ahead. (Measured on the H200 against an earlier version
// that loaded u^{n-1} into registers one plane ahead and copied 4-byte elements:
// no gain for the box stencils, and slower for the leggy kernel at large M.)
// When bx is a multiple of V (the 16-byte vector in elements) every copy is a
// 16-byte cp.async; otherwise they fall back to one element each.
template <class T>
struct Sweep {
  static constexpr int V = 16 / (int)sizeof(T);
  int R, NY, A;         // stencil radius, outputs per thread along y, x apron
  int tw, th, ts, ps;   // input tile width, height, size; u^{n-1} patch size
  int i0, j0, k0, k1;   // block origin, z chunk [k0, k1)
  bool vec;
  bool linear;          // copies spread over the block's threads in one linear range (shift_own)
  T* in;                // kStages input tiles
  T* prv;               // kStages u^{n-1} patches
  const T* uc0;         // u^n at interior (0,0,0)
  const T* un0;         // u^{n-1} at interior (0,0,0)

  __device__ __forceinline__ void init(T* smem, const FieldLayout& L, int radius, int ny_per_thread, int z_planes,
                                       const T* un, const T* uc, bool linear_copies = false) {
    R = radius;
    NY = ny_per_thread;
    A = (R + V - 1) / V * V;
    tw = blockDim.x + 2 * A;
    th = blockDim.y * NY + 2 * R;
    ts = tw * th;
    ps = blockDim.x * blockDim.y * NY;
    i0 = blockIdx.x * blockDim.x;
    j0 = blockIdx.y * blockDim.y * NY;
    k0 = blockIdx.z * z_planes;
    k1 = min(k0 + z_planes, L.nz);
    vec = blockDim.x % V == 0;
    linear = linear_copies;
    in = smem;
    prv = smem + kStages * ts;
    uc0 = uc + L.index(0, 0, 0);
    un0 = un + L.index(0, 0, 0);
  }

  // Copies rows [0, rows) x columns [0, cols) of a w-wide shared tile from `src`
  // (global, row stride pitch); columns past `cols` in the last vector come along.
  __device__ __forceinline__ void copy_rect(T* dst, int w, const T* src, int pitch, int rows, int cols) const {
    if (linear && vec) {
      const int chunks = (cols + V - 1) / V, n = rows * chunks, nt = blockDim.x * blockDim.y;
      for (int e = threadIdx.y * blockDim.x + threadIdx.x; e < n; e += nt) {
        const int r = e / chunks, c = e - r * chunks;
        __pipeline_memcpy_async(dst + r * w + c * V, src + (int64_t)r * pitch + c * V, 16);
      }
    } else if (vec) {
      const int chunks = (cols + V - 1) / V;
      for (int r = threadIdx.y; r < rows; r += blockDim.y)
        for (int c = threadIdx.x; c < chunks; c += blockDim.x)
          __pipeline_memcpy_async(dst + r * w + c * V, src + (int64_t)r * pitch + c * V, 16);
    } else {
      for (int r = threadIdx.y; r < rows; r += blockDim.y)
        for (int c = threadIdx.x; c < cols; c += blockDim.x)
          __pipeline_memcpy_async(dst + r * w + c, src + (int64_t)r * pitch + c, sizeof(T));
    }
  }

  // Subtracts r from the input-plane cells this thread copied into buffer `slot` for
  // iteration p (the same cells issue() asked for), once its own copies have landed
  // (__pipeline_wait_prior): no other thread touches them, and the block barrier that
  // follows publishes the shifted tile.
  __device__ __forceinline__ void shift_own(int p, int slot, const FieldLayout& L, T r) const {
    if (p > k1 - 1 + R) return;
    const int rows = min(th, L.ny + 2 * R - j0);
    const int cols = min(tw, L.nx + R + A - i0);
    T* t = in + slot * ts;
    if (linear && vec) {
      const int chunks = (cols + V - 1) / V, n = rows * chunks, nt = blockDim.x * blockDim.y;
      for (int e = threadIdx.y * blockDim.x + threadIdx.x; e < n; e += nt) {
        const int rr = e / chunks, c = e - rr * chunks;
        T* d = t + rr * tw + c * V;
#pragma unroll
        for (int v = 0; v < V; ++v) d[v] -= r;
      }
    } else if (vec) {
      const int chunks = (cols + V - 1) / V;
      for (int rr = threadIdx.y; rr < rows; rr += blockDim.y)
        for (int c = threadIdx.x; c < chunks; c += blockDim.x) {
          T* d = t + rr * tw + c * V;
#pragma unroll
          for (int v = 0; v < V; ++v) d[v] -= r;
        }
    } else {
      for (int rr = threadIdx.y; rr < rows; rr += blockDim.y)
        for (int c = threadIdx.x; c < cols; c += blockDim.x) t[rr * tw + c] -= r;
    }
  }

  // Stage for iteration p into buffer `slot`: input plane p when p <= k1 - 1 + R,
  // the u^{n-1} patch of output plane p - R when that lies in [k0, k1); one commit.
  // Only cells inside interior + halo (input) or the interior (u^{n-1}) are asked
  // for, apart from the rest of a last 16-byte vector, which stays inside the row
  // (rows are padded to 32 elements and the vectors are aligned).
  __device__ __forceinline__ void issue(int p, int slot, const FieldLayout& L) const {
    const int pitch = (int)L.pitch;
    if (p <= k1 - 1 + R) {
      const int rows = min(th, L.ny + 2 * R - j0);      // y = j0 - R + r < ny + R
      const int cols = min(tw, L.nx + R + A - i0);      // x = i0 - A + c < nx + R
      copy_rect(in + slot * ts, tw, uc0 + (int64_t)p * L.plane + (j0 - R) * pitch + (i0 - A), pitch, rows, cols);
    }
    const int ko = p - R;
    if (ko >= k0 && ko < k1) {
      const int rows = min((int)blockDim.y * NY, L.ny - j0), cols = min((int)blockDim.x, L.nx - i0);
      copy_rect(prv + slot * ps, blockDim.x, un0 + (int64_t)ko * L.plane + j0 * pitch + i0, pitch, rows, cols);
    }
    __pipeline_commit();
  }
};

// Planes per z chunk: enough blocks for ~3 resident per SM, each chunk at least
// `min_planes` long (a chunk re-reads 2R planes, so its overhead is <= 2R / min_planes).
inline int chunk_planes(int nz, long long xy_blocks, int min_planes) {
  const long long want = 3LL * big::sm_count();
  long long chunks = (want + xy_blocks - 1) / std::max(1LL, xy_blocks);
  chunks = std::max(1LL, std::min<long long>(chunks, nz / std::max(1, min_planes)));
  chunks = std::min<long long>(chunks, 65535);
  return (int)((nz + chunks - 1) / chunks);
}

inline size_t sweep_smem_bytes(size_t elem, int bx, int by, int ny_per_thread, int R) {
  const int V = 16 / (int)elem;
  const int A = (R + V - 1) / V * V;
  const size_t tile = (size_t)(bx + 2 * A) * (size_t)(by * ny_per_thread + 2 * R);
  const size_t patch = (size_t)bx * (size_t)by * ny_per_thread;
  return elem * (size_t)kStages * (tile + patch);
}

}  // namespace ws::zs
