#include <vector>

#include "boundary/boundary_kernels.hpp"
#include "boundary/boundary_node.cuh"
#include "core/cuda_check.hpp"

namespace ws {

namespace {

// The boundary nodes' new values (boundary_node.cuh) into the side buffer.
template <class T>
__global__ void boundary_compute_kernel(const int64_t* node, const uint8_t* mask, const uint8_t* n_fixed,
                                        const T* cd, const T* cl, size_t n, FieldLayout L, const T* uc, const T* up,
                                        T* side) {
  const size_t b = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (b >= n) return;
  const int64_t q = node[b];
  side[b] = boundary_node_value(uc, up[q], q, mask[b], n_fixed[b], cd[b], cl[b], L);
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
  std::vector<T> cd(nodes_), cl(nodes_);
  std::vector<uint8_t> nf(nodes_);
  for (size_t b = 0; b < nodes_; ++b) {
    const BoundaryCoeffs c = boundary_coeffs(p.count[b], p.neighbours[b], p.beta_sum[b], p.lambda);
    cd[b] = T(c.cd);
    cl[b] = T(c.cl);
    nf[b] = (uint8_t)c.n_fixed;
  }
  node_ = upload(p.node);
  solid_ = upload(p.solid);
  mask_ = upload(p.neighbours);
  n_fixed_ = upload(nf);
  cd_ = upload(cd);
  cl_ = upload(cl);
  side_ = DeviceBuffer<T>(nodes_);
}

template <class T>
void DeviceBoundary<T>::compute(const T* uc, const T* up, cudaStream_t s) const {
  if (nodes_ == 0) return;
  const int block = 256;
  boundary_compute_kernel<T><<<(unsigned)((nodes_ + block - 1) / block), block, 0, s>>>(
      node_.get(), mask_.get(), n_fixed_.get(), cd_.get(), cl_.get(), nodes_, layout_, uc, up, side_.get());
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
