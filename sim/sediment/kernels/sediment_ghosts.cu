// The ghost kernel: one thread per perimeter cell writes the ghost values that
// impose the prescribed boundary fluxes (sediment_boundary.hpp). 2 (nx + ny)
// threads, negligible next to the nx*ny kernels.
#include "core/cuda_check.hpp"
#include "cuda/kernels/load.cuh"
#include "sediment/sediment_boundary.hpp"
#include "sediment/sediment_kernels.hpp"

namespace ws {

namespace {

template <class T>
__global__ void ghost_kernel(T* h, T* s, const T* alpha, const T* beta, SedimentLayout L, SedimentCoeffs<T> k,
                             BoundaryData<T> b, bool write_s) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < perimeter_cells(L)) fill_ghost(h, s, alpha, beta, L, k, b, t, write_s);
}

}  // namespace

template <class T>
void launch_sediment_ghosts(T* h, T* s, const T* alpha, const T* beta, const SedimentLayout& L,
                            const SedimentCoeffs<T>& k, const T* q_m2_s, const T s_in[4], double dx_m, double dy_m,
                            bool write_s, cudaStream_t stream) {
  BoundaryData<T> b;
  b.q_m2_s = q_m2_s;
  for (int q = 0; q < 4; ++q) b.s_in[q] = s_in[q];
  b.dx_m = T(dx_m);
  b.dy_m = T(dy_m);
  const int n = perimeter_cells(L);
  ghost_kernel<T><<<ceil_div(n, 256), 256, 0, stream>>>(h, s, alpha, beta, L, k, b, write_s);
  CUDA_CHECK_LAUNCH();
}

template void launch_sediment_ghosts<float>(float*, float*, const float*, const float*, const SedimentLayout&,
                                            const SedimentCoeffs<float>&, const float*, const float[4], double,
                                            double, bool, cudaStream_t);
template void launch_sediment_ghosts<double>(double*, double*, const double*, const double*, const SedimentLayout&,
                                             const SedimentCoeffs<double>&, const double*, const double[4], double,
                                             double, bool, cudaStream_t);

}  // namespace ws
