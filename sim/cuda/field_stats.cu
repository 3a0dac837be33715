#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "core/cuda_check.hpp"
#include "cuda/field_stats.hpp"

namespace ws {

namespace {

// One pass over the interior: per-block sums and maxima in shared memory, then
// one atomic each. The maximum of |u| is taken on the bit patterns: for
// non-negative doubles (and NaN, whose pattern lies above +inf's) the unsigned
// order is the numeric order, so a NaN anywhere shows as a NaN peak.
template <class T>
__global__ void field_stats_kernel(const T* u, FieldLayout L, double* out) {
  __shared__ double sum_s[256];
  __shared__ unsigned long long max_s[256];
  double sum = 0.0;
  unsigned long long peak = 0ull;
  // Each block's 8 warps take 8 rows (j, k) of the interior at a time, a warp's lanes
  // strided along the row: several independent loads per thread per row and no 64-bit
  // division per point (the kernel runs on the solver's stream among the steps).
  const long long rows = (long long)L.ny * L.nz;
  const int lane = (int)(threadIdx.x % 32), warp = (int)(threadIdx.x / 32), warps = (int)(blockDim.x / 32);
  for (long long r = (long long)blockIdx.x * warps + warp; r < rows; r += (long long)gridDim.x * warps) {
    const T* row = u + L.index(0, (int)(r % L.ny), (int)(r / L.ny));
#pragma unroll 4
    for (int i = lane; i < L.nx; i += 32) {
      const double v = (double)row[i];
      sum += v;
      const unsigned long long bits = (unsigned long long)__double_as_longlong(fabs(v));
      peak = bits > peak ? bits : peak;
    }
  }
  sum_s[threadIdx.x] = sum;
  max_s[threadIdx.x] = peak;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if ((int)threadIdx.x < s) {
      sum_s[threadIdx.x] += sum_s[threadIdx.x + s];
      max_s[threadIdx.x] = max_s[threadIdx.x] > max_s[threadIdx.x + s] ? max_s[threadIdx.x] : max_s[threadIdx.x + s];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    atomicAdd(out, sum_s[0]);
    atomicMax(reinterpret_cast<unsigned long long*>(out + 1), max_s[0]);
  }
}

}  // namespace

template <class T>
void queue_field_stats(const T* u, const FieldLayout& L, double* scratch, double* host_out, cudaStream_t stream) {
  CUDA_CHECK(cudaMemsetAsync(scratch, 0, 2 * sizeof(double), stream));
  const int blocks = (int)std::min<long long>(1024, ((long long)L.ny * L.nz + 7) / 8);
  field_stats_kernel<T><<<blocks, 256, 0, stream>>>(u, L, scratch);
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaMemcpyAsync(host_out, scratch, 2 * sizeof(double), cudaMemcpyDeviceToHost, stream));
}

FieldStats field_stats_from(const double* h, const FieldLayout& L) {
  const long long n = (long long)L.nx * L.ny * L.nz;
  FieldStats f;
  f.peak = h[1];
  f.finite = std::isfinite(h[0]) && std::isfinite(h[1]);
  f.mean = h[0] / (double)n;
  if (!f.finite) f.peak = std::numeric_limits<double>::infinity();
  return f;
}

template <class T>
FieldStats device_field_stats(const T* u, const FieldLayout& L, double* scratch, cudaStream_t stream) {
  double h[2];
  queue_field_stats(u, L, scratch, h, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
  return field_stats_from(h, L);
}

template FieldStats device_field_stats<float>(const float*, const FieldLayout&, double*, cudaStream_t);
template FieldStats device_field_stats<double>(const double*, const FieldLayout&, double*, cudaStream_t);
template void queue_field_stats<float>(const float*, const FieldLayout&, double*, double*, cudaStream_t);
template void queue_field_stats<double>(const double*, const FieldLayout&, double*, double*, cudaStream_t);

}  // namespace ws
