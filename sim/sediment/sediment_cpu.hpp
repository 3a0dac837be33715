#pragma once
// The CPU reference of the sediment scheme (OpenMP over rows): the same point
// formulas as the CUDA kernels (sediment_scheme.hpp), one function per kernel
// so the tests can compare a single application of each.
#include "sediment/sediment_boundary.hpp"
#include "sediment/sediment_kernels.hpp"

namespace ws {

template <class T>
void cpu_fill_ghosts(T* h, T* s, const T* alpha, const T* beta, const SedimentLayout& L, const SedimentCoeffs<T>& k,
                     const BoundaryData<T>& b, bool write_s);

// h_new from alpha, beta, s, h (interior only).
template <class T>
void cpu_h_update(const SedimentArgs<T>& a);

// s_new from alpha, beta, s and h_new (= h^{l+1}, ghosts filled; interior only).
template <class T>
void cpu_s_update(const SedimentArgs<T>& a);

}  // namespace ws
