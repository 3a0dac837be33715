#pragma once
// The new value of one boundary node, shared by the boundary-compute kernel and the
// kernels that run whole steps (kernels/persistent_l2.cu), so both give the same bits:
//   u^{n+1} = u + cd (u - u^{n-1}) + cl (sum_air (u_y - u) - n_fixed u),
// the expression and order of boundary_compute_cpu (boundary_plan.hpp: exact for a
// constant field). `mask` bit d: neighbour d (-x,+x,-y,+y,-z,+z) is an air node.
#include <cstdint>

#include "core/field_layout.hpp"
#include "cuda/kernels/exact_update.cuh"

namespace ws {

// The same from the node's value u and its six neighbours' (nb[d], d as in the mask;
// the ones the mask leaves out are not read), for kernels that hold u^n elsewhere than
// in a field array (kernels/temporal_2step.cu: a ring of planes in shared memory).
template <class T>
__device__ __forceinline__ T boundary_value(T u, const T (&nb)[6], T u_prev, uint8_t m, uint8_t nf, T cd, T cl) {
  T s = T(0);
  if (m & 1u) s += nb[0] - u;
  if (m & 2u) s += nb[1] - u;
  if (m & 4u) s += nb[2] - u;
  if (m & 8u) s += nb[3] - u;
  if (m & 16u) s += nb[4] - u;
  if (m & 32u) s += nb[5] - u;
  // Each product rounded once and never fused with the addition (ex::mul_rn): left to
  // the compiler, a + b * c may become an FMA of either product or of neither, depending
  // on what the function is inlined into, and two kernels (the per-step path's and a
  // whole-step kernel) then differ in the last bits. This is also boundary_compute_cpu's
  // rounding (its x86-64 build has no FMA).
  if (nf != 0) s -= ex::mul_rn(T(nf), u);
  return u + (ex::mul_rn(cd, u - u_prev) + ex::mul_rn(cl, s));
}

template <class T>
__device__ __forceinline__ T boundary_node_value(const T* uc, T u_prev, int64_t q, uint8_t m, uint8_t nf, T cd, T cl,
                                                 const FieldLayout& L) {
  const T nb[6] = {(m & 1u) ? uc[q - 1] : T(0),       (m & 2u) ? uc[q + 1] : T(0),
                   (m & 4u) ? uc[q - L.pitch] : T(0), (m & 8u) ? uc[q + L.pitch] : T(0),
                   (m & 16u) ? uc[q - L.plane] : T(0), (m & 32u) ? uc[q + L.plane] : T(0)};
  return boundary_value(uc[q], nb, u_prev, m, nf, cd, cl);
}

}  // namespace ws
