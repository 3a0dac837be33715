#pragma once
// The new value of one boundary node, shared by the boundary-compute kernel and the
// kernels that run whole steps (kernels/persistent_l2.cu), so both give the same bits:
//   u^{n+1} = u + cd (u - u^{n-1}) + cl (sum_air (u_y - u) - n_fixed u),
// the expression and order of boundary_compute_cpu (boundary_plan.hpp: exact for a
// constant field). `mask` bit d: neighbour d (-x,+x,-y,+y,-z,+z) is an air node.
#include <cstdint>

#include "core/field_layout.hpp"

namespace ws {

template <class T>
__device__ __forceinline__ T boundary_node_value(const T* uc, T u_prev, int64_t q, uint8_t m, uint8_t nf, T cd, T cl,
                                                 const FieldLayout& L) {
  const T u = uc[q];
  T s = T(0);
  if (m & 1u) s += uc[q - 1] - u;
  if (m & 2u) s += uc[q + 1] - u;
  if (m & 4u) s += uc[q - L.pitch] - u;
  if (m & 8u) s += uc[q + L.pitch] - u;
  if (m & 16u) s += uc[q - L.plane] - u;
  if (m & 32u) s += uc[q + L.plane] - u;
  if (nf != 0) s -= T(nf) * u;
  return u + (cd * (u - u_prev) + cl * s);
}

}  // namespace ws
