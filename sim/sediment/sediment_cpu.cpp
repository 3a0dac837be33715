#include "sediment/sediment_cpu.hpp"

namespace ws {

template <class T>
void cpu_fill_ghosts(T* h, T* s, const T* alpha, const T* beta, const SedimentLayout& L, const SedimentCoeffs<T>& k,
                     const BoundaryData<T>& b, bool write_s) {
  for (int t = 0; t < perimeter_cells(L); ++t) fill_ghost(h, s, alpha, beta, L, k, b, t, write_s);
}

template <class T>
void cpu_h_update(const SedimentArgs<T>& a) {
  const SedimentLayout& L = a.layout;
  const int64_t P = L.pitch;
  const T *al = a.alpha, *be = a.beta, *s = a.s, *h = a.h;
#pragma omp parallel for schedule(static)
  for (int j = 0; j < L.ny; ++j)
    for (int i = 0; i < L.nx; ++i) {
      const int64_t p = L.index(i, j);
      auto as = [&](int64_t q) { return sand_mobility(al[q], s[q]); };
      auto bm = [&](int64_t q) { return mud_mobility(be[q], s[q]); };
      a.h_new[p] = h_update(a.k, h[p], h[p + 1], h[p - 1], h[p + P], h[p - P], as(p), as(p + 1), as(p - 1),
                            as(p + P), as(p - P), bm(p), bm(p + 1), bm(p - 1), bm(p + P), bm(p - P));
    }
}

template <class T>
void cpu_s_update(const SedimentArgs<T>& a) {
  const SedimentLayout& L = a.layout;
  const int64_t P = L.pitch;
  const T *al = a.alpha, *be = a.beta, *s = a.s, *h = a.h_new;
#pragma omp parallel for schedule(static)
  for (int j = 0; j < L.ny; ++j)
    for (int i = 0; i < L.nx; ++i) {
      const int64_t p = L.index(i, j);
      auto g = [&](int64_t q) { return mobility_contrast(a.k, al[q], be[q]); };
      a.s_new[p] = s_update(a.k, s[p], s[p + 1], s[p - 1], s[p + P], s[p - P], h[p], h[p + 1], h[p - 1], h[p + P],
                            h[p - P], g(p), g(p + 1), g(p - 1), g(p + P), g(p - P), al[p], be[p]);
    }
}

template void cpu_fill_ghosts<float>(float*, float*, const float*, const float*, const SedimentLayout&,
                                     const SedimentCoeffs<float>&, const BoundaryData<float>&, bool);
template void cpu_fill_ghosts<double>(double*, double*, const double*, const double*, const SedimentLayout&,
                                      const SedimentCoeffs<double>&, const BoundaryData<double>&, bool);
template void cpu_h_update<float>(const SedimentArgs<float>&);
template void cpu_h_update<double>(const SedimentArgs<double>&);
template void cpu_s_update<float>(const SedimentArgs<float>&);
template void cpu_s_update<double>(const SedimentArgs<double>&);

}  // namespace ws
