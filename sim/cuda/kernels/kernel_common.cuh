#pragma once
// Pieces every 7-point kernel family shares: the pointer types that carry (or do
// not carry) the read-only promise, dynamic shared memory typed per precision,
// and the extent of a block that overhangs the interior.
//
// Grid convention (sim/core/field_layout.hpp): threads cover interior points
// only; the one-point halo ring around the interior holds the fixed (zero)
// boundary, is allocated, and may be read but is never written. So no kernel
// needs boundary branches for neighbour reads, only "is this thread inside".
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/kernels/load.cuh"

namespace ws {

// u^n and u^{n+1} as a kernel sees them. In the read-only instantiation (RO)
// both are __restrict__ and u^n is const: the promise that nothing written in
// this launch aliases u^n, which lets the compiler use the non-coherent
// read-only path (ld.global.nc) and hoist loads of the next z plane above the
// store of this one. Without RO both are plain pointers and every load is an
// ordinary ld.global that may not move past a store.
template <bool RO, class T> struct InPtrT { using type = const T*; };
template <class T> struct InPtrT<true, T> { using type = const T* __restrict__; };
template <bool RO, class T> using in_ptr = typename InPtrT<RO, T>::type;

template <bool RO, class T> struct OutPtrT { using type = T*; };
template <class T> struct OutPtrT<true, T> { using type = T* __restrict__; };
template <bool RO, class T> using out_ptr = typename OutPtrT<RO, T>::type;

// Dynamic shared memory as an array of T; one untyped declaration serves every
// instantiation (typed `extern __shared__ T[]` would clash between float and double).
template <class T>
__device__ __forceinline__ T* shared_tile() {
  extern __shared__ __align__(16) unsigned char ws_dynamic_smem[];
  return reinterpret_cast<T*>(ws_dynamic_smem);
}

// Number of threads of a block, starting at interior coordinate `start`, that
// own an interior point along an axis of `n` points (the last block overhangs).
__device__ __forceinline__ int block_extent(int n, int start, int block_dim) {
  const int left = n - start;
  return left < block_dim ? left : block_dim;
}

}  // namespace ws
