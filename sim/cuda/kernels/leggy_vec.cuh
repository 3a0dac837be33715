#pragma once
// Vector pieces shared by the leggy kernels in which each thread updates N
// consecutive x points of one row (zvec_leggy, ztile_leggy, ztma_leggy): the
// aligned vector types, loads and stores of N elements, the x legs picked out of
// neighbouring vectors, and the leggy update of N points.
//
// Everything is force-inlined and indexed by values that are compile-time after
// unrolling, so the packs live in registers; the update keeps one order of
// additions in every kernel (the tests compare each with the CPU reference).
#include <cuda_runtime.h>

#include <utility>

#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/leggy_common.hpp"

namespace ws::lv {

// Aligned vector of N elements (8 or 16 bytes) and its unpacked form.
template <class T, int N> struct VecOf;
template <> struct VecOf<float, 2> { using type = float2; };
template <> struct VecOf<float, 4> { using type = float4; };
template <> struct VecOf<double, 2> { using type = double2; };

template <class T, int N>
struct Pack {
  T v[N];
};

template <class T, int N, class V>
__device__ __forceinline__ Pack<T, N> unpack(const V& x) {
  Pack<T, N> r;
  if constexpr (N == 2) r.v[0] = x.x, r.v[1] = x.y;
  else r.v[0] = x.x, r.v[1] = x.y, r.v[2] = x.z, r.v[3] = x.w;
  return r;
}

// Plain load (shared memory or global), read-only path (__ldg), streaming (__ldcs).
// The vector is copied into a value first: unpack() binding its reference to the
// memory itself lets the compiler split the load into N scalar ones (measured:
// ztma_leggy 2% slower at M = 8).
template <class T, int N>
__device__ __forceinline__ Pack<T, N> ld(const T* p) {
  const typename VecOf<T, N>::type x = *reinterpret_cast<const typename VecOf<T, N>::type*>(p);
  return unpack<T, N>(x);
}
template <class T, int N>
__device__ __forceinline__ Pack<T, N> ldg(const T* p) {
  return unpack<T, N>(__ldg(reinterpret_cast<const typename VecOf<T, N>::type*>(p)));
}
template <class T, int N>
__device__ __forceinline__ Pack<T, N> ldcs(const T* p) {
  return unpack<T, N>(__ldcs(reinterpret_cast<const typename VecOf<T, N>::type*>(p)));
}

// The N outputs of a thread at x = i .. i + N - 1: one vector store when all are
// inside the row (`full`), else element by element up to nx (never the halo).
template <class T, int N>
__device__ __forceinline__ void store(T* p, const T (&a)[N], int i, int nx, bool full) {
  if (full) {
    typename VecOf<T, N>::type x;
    if constexpr (N == 2) x.x = a[0], x.y = a[1];
    else x.x = a[0], x.y = a[1], x.z = a[2], x.w = a[3];
    *reinterpret_cast<typename VecOf<T, N>::type*>(p) = x;
  } else {
#pragma unroll
    for (int l = 0; l < N; ++l)
      if (i + l < nx) p[l] = a[l];
  }
}

// Element x = i + e of a row, for -XV N <= e < N + XV N, from the thread's own
// vector `mid` (x = i ..) and XV vectors on each side: xl[v] starts at
// x = i - (XV - v) N, xr[v] at x = i + (v + 1) N. `e` is a compile-time value
// after unrolling, so this is a register pick.
template <class T, int N, int XV>
__device__ __forceinline__ T x_at(const Pack<T, N> (&xl)[XV], const Pack<T, N>& mid, const Pack<T, N> (&xr)[XV],
                                  int e) {
  if (e < 0) {
    const int idx = e + XV * N;
    return xl[idx / N].v[idx % N];
  }
  if (e < N) return mid.v[e];
  const int idx = e - N;
  return xr[idx / N].v[idx % N];
}

// The packs at rows j - m and j + m (or planes k - m and k + m) of a leg.
template <class T, int N>
struct LegPair {
  Pack<T, N> lo, hi;
};

// u^{n+1} at the N points of a leggy stencil S_M, for every l:
//   (2u(l) - u^{n-1}(l)) + sum_m w_m (((x legs) + (y legs)) + (z legs) - round(6u(l))),
// with `y(m)` returning the packs at rows j - m and j + m (a LegPair) and
// `z(d)` the column's queue entry of plane k - M + d. Per point one product
// 6u and per leg one subtraction more than a centre coefficient would cost;
// in exchange every leg is exactly 0 for a constant field (exact_update.cuh).
template <class T, int N, int M, int XV, class Y, class Z>
__device__ __forceinline__ void leggy_update(T (&acc)[N], const LeggyCoeffs<T>& c, const Pack<T, N> (&xl)[XV],
                                             const Pack<T, N> (&xr)[XV], const Pack<T, N>& prev, Y&& y, Z&& z) {
  const Pack<T, N>& mid = z(M);
  T six_u[N];
#pragma unroll
  for (int l = 0; l < N; ++l) {
    acc[l] = ex::leapfrog(mid.v[l], prev.v[l]);
    six_u[l] = ex::six_times(mid.v[l]);
  }
#pragma unroll
  for (int m = 1; m <= M; ++m) {
    const LegPair<T, N> sn = y(m);
#pragma unroll
    for (int l = 0; l < N; ++l) {
      // leggy:1 is the 7-point stencil, which may run next to non-fixed walls: differences
      // first there (exact_update.cuh); one subtraction per leg for M >= 2.
      if constexpr (M == 1)
        acc[l] = fma(c.w[m],
                     ex::axis_shell_diff(x_at<T, N, XV>(xl, mid, xr, l - m), x_at<T, N, XV>(xl, mid, xr, l + m),
                                         sn.lo.v[l], sn.hi.v[l], z(M - m).v[l], z(M + m).v[l], mid.v[l]),
                     acc[l]);
      else
        acc[l] = fma(c.w[m],
                     ex::axis_shell_minus(x_at<T, N, XV>(xl, mid, xr, l - m), x_at<T, N, XV>(xl, mid, xr, l + m),
                                          sn.lo.v[l], sn.hi.v[l], z(M - m).v[l], z(M + m).v[l], six_u[l]),
                     acc[l]);
    }
  }
}

// f(std::integral_constant<int, I>) for I in Is, in order (a compile-time unroll).
template <class F, int... Is>
__device__ __forceinline__ void unroll(std::integer_sequence<int, Is...>, F&& f) {
  (f(std::integral_constant<int, Is>{}), ...);
}

}  // namespace ws::lv
