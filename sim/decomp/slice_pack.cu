#include "decomp/slice_pack.hpp"

#include <algorithm>
#include <cstdint>

#include "core/cuda_check.hpp"

namespace ws {

namespace {

// The three runs of pack_slab_slices: plane k (`plane_values`, 0 when the slab does not
// own it), then row j of each interior plane (`row_values` = nz * pitch), then column i of
// each interior plane's rows, halo rows included (one value every `pitch`). `first` are
// the runs' starts in the field the kernel reads (pack) or writes (unpack).
struct SliceRuns {
  int64_t plane_values, plane_first, row_values, row_first, pitch, plane, column_values, column_first;
  __host__ __device__ int64_t total() const { return plane_values + row_values + column_values; }
  __device__ int64_t field_index(int64_t n) const {
    if (n < plane_values) return plane_first + n;
    if (n < plane_values + row_values) {
      const int64_t m = n - plane_values;
      return row_first + (m / pitch) * plane + m % pitch;
    }
    return column_first + (n - plane_values - row_values) * pitch;
  }
};

// Slab s's runs in a field whose interior plane kk is slab plane kk + z_shift (the slab's
// own field: 0; the grid: s.z0).
SliceRuns slice_runs(const FieldLayout& L, const Slab& s, const SliceAt& at, int z_shift) {
  const int64_t h = L.halo, shift = (int64_t)z_shift * L.plane;
  const bool owns_k = at.k >= s.z0 && at.k < s.z0 + s.nz;
  SliceRuns r;
  r.plane_values = owns_k ? L.plane : 0;
  r.plane_first = owns_k ? (at.k - s.z0 + h) * L.plane + shift : 0;
  r.row_values = (int64_t)s.nz * L.pitch;
  r.row_first = h * L.plane + (at.j + h) * L.pitch + shift;
  r.pitch = L.pitch;
  r.plane = L.plane;
  r.column_values = (int64_t)s.nz * (L.ny + 2 * h);
  r.column_first = h * L.plane + L.x0 + at.i + shift;
  return r;
}

template <class T>
__global__ void pack_slices(const T* __restrict__ f, T* __restrict__ out, SliceRuns r) {
  for (int64_t n = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; n < r.total(); n += (int64_t)gridDim.x * blockDim.x)
    out[n] = f[r.field_index(n)];
}

template <class T>
__global__ void unpack_slices(const T* __restrict__ in, T* __restrict__ f, SliceRuns r) {
  for (int64_t n = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; n < r.total(); n += (int64_t)gridDim.x * blockDim.x)
    f[r.field_index(n)] = in[n];
}

int blocks_for(int64_t total, int threads) { return (int)std::min<int64_t>((total + threads - 1) / threads, 1024); }

template <class T>
void launch_pack(const FieldView& f, const Slab& s, const SliceAt& at, void* dst, cudaStream_t stream) {
  const SliceRuns r = slice_runs(f.layout, s, at, 0);
  if (r.total() <= 0) return;
  pack_slices<T><<<blocks_for(r.total(), 256), 256, 0, stream>>>(static_cast<const T*>(f.data), static_cast<T*>(dst), r);
  CUDA_CHECK(cudaGetLastError());
}

template <class T>
void launch_unpack(const void* packed, const FieldLayout& L, const Slab& s, const SliceAt& at, void* grid,
                   cudaStream_t stream) {
  const SliceRuns r = slice_runs(L, s, at, s.z0);
  if (r.total() <= 0) return;
  unpack_slices<T><<<blocks_for(r.total(), 256), 256, 0, stream>>>(static_cast<const T*>(packed),
                                                                    static_cast<T*>(grid), r);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void pack_slab_slices_on_device(const FieldView& f, const Slab& s, const SliceAt& at, void* dst,
                                cudaStream_t stream) {
  if (f.precision == Precision::Float) launch_pack<float>(f, s, at, dst, stream);
  else launch_pack<double>(f, s, at, dst, stream);
}

void unpack_slab_slices_on_device(const void* packed, const FieldLayout& grid_layout, const Slab& s,
                                  const SliceAt& at, Precision precision, void* grid, cudaStream_t stream) {
  if (precision == Precision::Float) launch_unpack<float>(packed, grid_layout, s, at, grid, stream);
  else launch_unpack<double>(packed, grid_layout, s, at, grid, stream);
}

}  // namespace ws
