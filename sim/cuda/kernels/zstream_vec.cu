// z streaming with 16-byte vectors: zstream_cached's register queue and L1
// in-plane neighbours, but each thread owns N consecutive x points (4 floats or
// 2 doubles) and moves them with one 16-byte load or store. Per N points a
// thread issues 4 vector loads (u^n ahead, u^{n-1} ahead, the rows above and
// below), 2 scalar loads (the x neighbours just outside its vector) and one
// vector store, against 6 loads and a store per point in the scalar kernel; so
// in float, where a warp moves only 128 bytes per scalar access, far fewer
// memory instructions and 16 bytes instead of 4 per load in flight.
//
// Alignment: interior rows start on 128-byte lines (layout x0) and pitch and
// plane are multiples of 32 elements, so every vector starts on 16 bytes. The
// last vector of a row may pass nx; its loads stay inside the padded row (pitch
// - x0 >= nx rounded up to N) and only the lanes below nx are stored.
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

template <class T> struct Vec16;
template <> struct Vec16<float> { using type = float4; static constexpr int n = 4; };
template <> struct Vec16<double> { using type = double2; static constexpr int n = 2; };
template <class T> constexpr int kLanes = Vec16<T>::n;

template <bool RO, class T>
__device__ __forceinline__ void load_vec(const T* p, T (&out)[kLanes<T>]) {
  using V = typename Vec16<T>::type;
  V v;
  if constexpr (RO) v = __ldg(reinterpret_cast<const V*>(p));
  else v = *reinterpret_cast<const V*>(p);
  if constexpr (kLanes<T> == 4) {
    out[0] = v.x; out[1] = v.y; out[2] = v.z; out[3] = v.w;
  } else {
    out[0] = v.x; out[1] = v.y;
  }
}

template <class T>
__device__ __forceinline__ void load_vec_plain(const T* p, T (&out)[kLanes<T>]) { load_vec<false>(p, out); }

template <class T>
__device__ __forceinline__ void store_vec(T* p, const T (&in)[kLanes<T>]) {
  using V = typename Vec16<T>::type;
  V v;
  if constexpr (kLanes<T> == 4) v = make_float4(in[0], in[1], in[2], in[3]);
  else v = make_double2(in[0], in[1]);
  *reinterpret_cast<V*>(p) = v;
}

template <class T, bool RO>
__global__ void __launch_bounds__(1024, 1)
    zstream_vec_kernel(out_ptr<RO, T> un, in_ptr<RO, T> uc, FieldLayout L, T w, int chunk) {
  constexpr int N = kLanes<T>;
  const int i = (blockIdx.x * blockDim.x + threadIdx.x) * N;  // first of this thread's N points
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= L.nx || j >= L.ny) return;  // no barriers: threads outside the interior leave
  const bool full = i + N <= L.nx;
  const int k0 = blockIdx.z * chunk;
  const int k1 = min(L.nz, k0 + chunk);
  const int pitch = (int)L.pitch;
  const int64_t plane = L.plane;
  const int64_t p0 = L.index(i, j, k0);
  auto c = uc + p0;
  auto o = un + p0;

  // z queue below/centre/above = u^n(k-1, k, k+1), prev = u^{n-1}(k); the next
  // plane's DRAM loads are issued before this plane's store.
  T below[N], centre[N], above[N], prev[N];
  load_vec<RO>(c - plane, below);
  load_vec<RO>(c, centre);
  load_vec<RO>(c + plane, above);  // plane k0+1 <= k1 <= nz: at most the halo plane
  load_vec_plain(o, prev);
  for (int k = k0; k < k1; ++k) {
    const bool more = k + 1 < k1;
    T ahead[N], prev_next[N];
    if (more) {
      load_vec<RO>(c + 2 * plane, ahead);
      load_vec_plain(o + plane, prev_next);
    }
    T north[N], south[N];
    load_vec<RO>(c - pitch, north);
    load_vec<RO>(c + pitch, south);
    const T west = ld<RO>(c - 1), east = ld<RO>(c + N);
    T out[N];
#pragma unroll
    for (int q = 0; q < N; ++q) {
      const T xm = q == 0 ? west : centre[q - 1];
      const T xp = q == N - 1 ? east : centre[q + 1];
      out[q] = ex::seven_point_update(centre[q], prev[q], xm, xp, north[q], south[q], below[q], above[q], w);
    }
    if (full) {
      store_vec(o, out);
    } else {
#pragma unroll
      for (int q = 0; q < N; ++q)
        if (i + q < L.nx) o[q] = out[q];  // never the halo beyond the interior
    }
#pragma unroll
    for (int q = 0; q < N; ++q) {
      below[q] = centre[q];
      centre[q] = above[q];
      if (more) {
        above[q] = ahead[q];
        prev[q] = prev_next[q];
      }
    }
    c += plane;
    o += plane;
  }
}

template <class T>
void launch_zstream_vec(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  const auto c = seven_point_coeffs(a);
  const FieldLayout& L = a.layout;
  const dim3 block(o.block.x, o.block.y, 1);  // a 2-D slice of threads marching in z: block.z is not used
  const long long vectors_x = ceil_div(L.nx, kLanes<T>);
  const long long gx = ceil_div(vectors_x, o.block.x), gy = ceil_div(L.ny, o.block.y);
  const void* kernel = o.readonly_cache ? (const void*)zstream_vec_kernel<T, true> : (const void*)zstream_vec_kernel<T, false>;
  const int resident = resident_blocks_per_sm(kernel, block.x * block.y, 0) * device_sm_count();
  const int chunks = z_chunks_for(gx * gy, resident, L.nz, kTargetWaves, kMinChunkPlanes);
  const int chunk = (L.nz + chunks - 1) / chunks;
  const dim3 grid = checked_grid(gx, gy, (L.nz + chunk - 1) / chunk, "zstream_vec");
  if (o.readonly_cache)
    zstream_vec_kernel<T, true><<<grid, block, 0, stream>>>(a.u_next, a.u_cur, L, c.neighbour, chunk);
  else
    zstream_vec_kernel<T, false><<<grid, block, 0, stream>>>(a.u_next, a.u_cur, L, c.neighbour, chunk);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void register_zstream_vec_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "zstream_vec";
  v.name = "z-streaming register queue, 16-byte vectors";
  v.family = "fdtd3d";
  v.stencils = "7pt";
  v.supports = supports_seven_point;
  // threads; a block row covers 256 floats or 128 doubles. 64x8 measured best on the H200 at 512^3
  // in float (91% of the copy roofline against 88% at 32x8; docs/benchmarks.md).
  v.default_block = {64, 8, 1};
  v.block_uses_z = false;
  v.has_readonly_toggle = true;
  v.launch_float = launch_zstream_vec<float>;
  v.launch_double = launch_zstream_vec<double>;
  r.add(v);
}

}  // namespace ws
