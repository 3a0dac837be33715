#pragma once
// WS_HD marks small inline functions shared by the CPU reference and the kernels.
#if defined(__CUDACC__)
#define WS_HD __host__ __device__ __forceinline__
#else
#define WS_HD inline
#endif
