#pragma once
// Loads of u^n through the read-only data cache (__ldg, valid because u^n is not
// written during the launch even though the pointers swap every step) or plain.
#include <cuda_runtime.h>

namespace ws {

template <bool RO, class T>
__device__ __forceinline__ T ld(const T* p) {
  if constexpr (RO) return __ldg(p);
  else return *p;
}

inline unsigned ceil_div(long long a, int b) { return (unsigned)((a + b - 1) / b); }

}  // namespace ws
