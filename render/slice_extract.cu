// The slice extraction kernel: one thread per texel, a strided gather from the
// padded field (coalesced along u for XY and XZ, strided by the row pitch for
// YZ; a slice is tiny next to a solver step, so that is fine), a float
// conversion, and a block-wide max |u| folded into one atomicMax.
#include <cmath>

#include "core/cuda_check.hpp"
#include "slice_extract.hpp"

namespace ws::render {

namespace {

template <class T>
__global__ void extract_kernel(const T* __restrict__ field, SlicePlane p, float* __restrict__ out,
                               uint32_t* max_abs_bits) {
  const int u = blockIdx.x * blockDim.x + threadIdx.x;
  const int v = blockIdx.y * blockDim.y + threadIdx.y;
  float a = 0.0f;
  if (u < p.width && v < p.height) {
    const float val = (float)field[p.base + (int64_t)u * p.stride_u + (int64_t)v * p.stride_v];
    out[(int64_t)v * p.width + u] = val;
    // A NaN must show up in the range (it means the run blew up): make it +inf.
    a = isnan(val) ? INFINITY : fabsf(val);
  }
  for (int off = 16; off > 0; off /= 2) a = fmaxf(a, __shfl_xor_sync(0xffffffffu, a, off));
  if ((threadIdx.x + threadIdx.y * blockDim.x) % 32 == 0) atomicMax(max_abs_bits, __float_as_uint(a));
}

template <class T>
void launch_all(const FieldView& f, const SliceSet& set, float* out, uint32_t* max_bits, cudaStream_t s) {
  const dim3 block(32, 8);
  for (int q = 0; q < kSliceCount; ++q) {
    const SlicePlane& p = set.planes[q];
    const dim3 grid((p.width + block.x - 1) / block.x, (p.height + block.y - 1) / block.y);
    extract_kernel<T><<<grid, block, 0, s>>>(static_cast<const T*>(f.data), p, out + set.offset[q], max_bits);
    CUDA_CHECK_LAUNCH();
  }
}

template <class T>
float host_all(const FieldView& f, const SliceSet& set, float* out) {
  const T* src = static_cast<const T*>(f.data);
  float m = 0.0f;
  for (int q = 0; q < kSliceCount; ++q) {
    const SlicePlane& p = set.planes[q];
    float* dst = out + set.offset[q];
    for (int v = 0; v < p.height; ++v)
      for (int u = 0; u < p.width; ++u) {
        const float val = (float)src[p.base + (int64_t)u * p.stride_u + (int64_t)v * p.stride_v];
        dst[(int64_t)v * p.width + u] = val;
        m = std::isnan(val) ? INFINITY : std::fmax(m, std::fabs(val));
      }
  }
  return m;
}

}  // namespace

SliceSet make_slice_set(const FieldLayout& layout, const SlicePositions& pos) {
  SliceSet set;
  int64_t off = 0;
  for (int q = 0; q < kSliceCount; ++q) {
    set.planes[q] = slice_plane(layout, (SliceAxis)q, pos);
    set.offset[q] = off;
    off += set.planes[q].texels();
  }
  set.total = off;
  return set;
}

void extract_slices_device(const FieldView& f, const SliceSet& set, float* out, uint32_t* max_abs_bits,
                           cudaStream_t stream) {
  CUDA_CHECK(cudaMemsetAsync(max_abs_bits, 0, sizeof(uint32_t), stream));
  if (f.precision == Precision::Float)
    launch_all<float>(f, set, out, max_abs_bits, stream);
  else
    launch_all<double>(f, set, out, max_abs_bits, stream);
}

float extract_slices_host(const FieldView& f, const SliceSet& set, float* out) {
  return f.precision == Precision::Float ? host_all<float>(f, set, out) : host_all<double>(f, set, out);
}

}  // namespace ws::render
