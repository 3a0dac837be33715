#include "decomp/slice_gather.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>

#include "core/cuda_check.hpp"

namespace ws {

namespace {

// `count` runs of `width` elements, the r-th starting at first + r * stride, of the field's
// element type, appended to `out` as doubles.
template <class T>
void read_runs(const FieldView& f, int64_t first, int64_t width, int64_t stride, int64_t count,
               std::vector<double>& out) {
  if (count <= 0 || width <= 0) return;
  std::vector<T> tmp((size_t)(width * count));
  const T* base = static_cast<const T*>(f.data) + first;
  if (f.on_device) {
    CUDA_CHECK(cudaMemcpy2D(tmp.data(), width * sizeof(T), base, stride * sizeof(T), width * sizeof(T), count,
                            cudaMemcpyDefault));
  } else {
    for (int64_t r = 0; r < count; ++r) std::memcpy(tmp.data() + r * width, base + r * stride, width * sizeof(T));
  }
  out.insert(out.end(), tmp.begin(), tmp.end());
}

template <class T>
void read_all(const FieldView& f, const Slab& s, const SliceAt& at, std::vector<double>& out) {
  const FieldLayout& L = f.layout;
  const int h = L.halo;
  if (at.k >= s.z0 && at.k < s.z0 + s.nz) read_runs<T>(f, (int64_t)(at.k - s.z0 + h) * L.plane, L.plane, 0, 1, out);
  read_runs<T>(f, (int64_t)h * L.plane + (int64_t)(at.j + h) * L.pitch, L.pitch, L.plane, s.nz, out);
  read_runs<T>(f, (int64_t)h * L.plane + L.x0 + at.i, 1, L.pitch, (int64_t)s.nz * (L.ny + 2 * h), out);
}

template <class T>
size_t write_all(const double* in, const FieldLayout& L, const Slab& s, const SliceAt& at, T* g) {
  const int h = L.halo;
  const double* p = in;
  if (at.k >= s.z0 && at.k < s.z0 + s.nz) {
    T* dst = g + (int64_t)(at.k + h) * L.plane;
    for (int64_t e = 0; e < L.plane; ++e) dst[e] = (T)*p++;
  }
  for (int kk = 0; kk < s.nz; ++kk) {
    T* dst = g + (int64_t)(s.z0 + kk + h) * L.plane + (int64_t)(at.j + h) * L.pitch;
    for (int64_t e = 0; e < L.pitch; ++e) dst[e] = (T)*p++;
  }
  const int64_t rows = (int64_t)s.nz * (L.ny + 2 * h);
  T* col = g + (int64_t)(s.z0 + h) * L.plane + L.x0 + at.i;
  for (int64_t r = 0; r < rows; ++r) col[r * L.pitch] = (T)*p++;
  return (size_t)(p - in);
}

}  // namespace

SliceAt clamp_slice(const FieldLayout& L, SliceAt at) {
  at.i = std::clamp(at.i, 0, std::max(0, L.nx - 1));
  at.j = std::clamp(at.j, 0, std::max(0, L.ny - 1));
  at.k = std::clamp(at.k, 0, std::max(0, L.nz - 1));
  return at;
}

size_t slab_slice_values(const FieldLayout& L, const Slab& s, const SliceAt& at) {
  size_t n = (size_t)s.nz * L.pitch + (size_t)s.nz * (L.ny + 2 * L.halo);
  if (at.k >= s.z0 && at.k < s.z0 + s.nz) n += (size_t)L.plane;
  return n;
}

void pack_slab_slices(const FieldView& f, const Slab& s, const SliceAt& at, std::vector<double>& out) {
  if (f.precision == Precision::Float) read_all<float>(f, s, at, out);
  else read_all<double>(f, s, at, out);
}

size_t unpack_slab_slices(const double* in, const FieldLayout& L, const Slab& s, const SliceAt& at, Precision p,
                          void* out) {
  if (p == Precision::Float) return write_all(in, L, s, at, static_cast<float*>(out));
  return write_all(in, L, s, at, static_cast<double*>(out));
}

}  // namespace ws
