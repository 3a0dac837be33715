#include <vector>

#include "boundary/boundary_kernels.hpp"
#include "core/cuda_check.hpp"

namespace ws {

namespace {

template <class T>
__global__ void boundary_compute_kernel(const int64_t* node, const uint8_t* mask, const T* cu, const T* cn,
                                        const T* cp, size_t n, FieldLayout L, const T* uc, const T* up, T* side) {
  const size_t b = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (b >= n) return;
  const int64_t q = node[b];
  const uint8_t m = mask[b];
  T s = T(0);
  if (m & 1u) s += uc[q - 1];
  if (m & 2u) s += uc[q + 1];
  if (m & 4u) s += uc[q - L.pitch];
  if (m & 8u) s += uc[q + L.pitch];
  if (m & 16u) s += uc[q - L.plane];
  if (m & 32u) s += uc[q + L.plane];
  side[b] = cu[b] * uc[q] + cn[b] * s + cp[b] * up[q];
}

template <class T>
__global__ void boundary_scatter_kernel(const int64_t* node, size_t n, const T* side, const int64_t* solid,
                                        size_t ns, T* un) {
  const size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (t < n) un[node[t]] = side[t];
  else if (t < n + ns) un[solid[t - n]] = T(0);
}

template <class T>
DeviceBuffer<T> upload(const std::vector<T>& h) {
  DeviceBuffer<T> d(h.size());
  if (!h.empty()) copy_to_device(d.get(), h.data(), d.bytes());
  return d;
}

}  // namespace

template <class T>
DeviceBoundary<T>::DeviceBoundary(const BoundaryPlan& p, const FieldLayout& L)
    : layout_(L), nodes_(p.node.size()), solids_(p.solid.size()) {
  std::vector<T> cu(nodes_), cn(nodes_), cp(nodes_);
  for (size_t b = 0; b < nodes_; ++b) {
    const BoundaryCoeffs c = boundary_coeffs(p.count[b], p.beta_sum[b], p.lambda);
    cu[b] = T(c.cu);
    cn[b] = T(c.cn);
    cp[b] = T(c.cp);
  }
  node_ = upload(p.node);
  solid_ = upload(p.solid);
  mask_ = upload(p.neighbours);
  cu_ = upload(cu);
  cn_ = upload(cn);
  cp_ = upload(cp);
  side_ = DeviceBuffer<T>(nodes_);
}

template <class T>
void DeviceBoundary<T>::compute(const T* uc, const T* up, cudaStream_t s) const {
  if (nodes_ == 0) return;
  const int block = 256;
  boundary_compute_kernel<T><<<(unsigned)((nodes_ + block - 1) / block), block, 0, s>>>(
      node_.get(), mask_.get(), cu_.get(), cn_.get(), cp_.get(), nodes_, layout_, uc, up, side_.get());
  CUDA_CHECK_LAUNCH();
}

template <class T>
void DeviceBoundary<T>::scatter(T* un, cudaStream_t s) const {
  const size_t n = nodes_ + solids_;
  if (n == 0) return;
  const int block = 256;
  boundary_scatter_kernel<T><<<(unsigned)((n + block - 1) / block), block, 0, s>>>(node_.get(), nodes_, side_.get(),
                                                                                   solid_.get(), solids_, un);
  CUDA_CHECK_LAUNCH();
}

template class DeviceBoundary<float>;
template class DeviceBoundary<double>;

}  // namespace ws
