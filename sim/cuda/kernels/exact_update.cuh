#pragma once
// The arithmetic of the update shared by the kernels, in the form that keeps
// the zero-frequency mode exact:
//   u^{n+1} = (2u - u^{n-1}) + lambda^2 sum_{p != 0} w_p (u(x+p) - u(x)),
// the centre weight being w_0 = -sum_{p != 0} w_p (true of every stencil the
// families build, to rounding) and never used. For a field that is constant,
// u^n = u^{n-1} = c at every point the update reads (halo included), the
// Laplacian term evaluates to exactly 0 and u^{n+1} to c bit for bit, in float
// and double, for any finite c whose 6c does not overflow. A centre coefficient
// c0 = 2 + lambda^2 w_0 folded into c0 u + ... does not have this property:
// the rounded coefficients do not sum to 0, so a constant gains or loses an
// ulp per step and the zero mode grows (like exp(n sqrt(eps)) in float),
// which rooms with rigid walls, where the constant mode is not damped, show
// after ~10^5 steps.
//
// Why each piece is exact for u = c (everything below is elementary IEEE
// arithmetic, round to nearest, no fast-math):
//  * leapfrog: fma(2, u, -u^{n-1}) rounds 2u - u^{n-1} once; for u = u^{n-1} = c
//    that is c, exactly representable, so the result is c. (2u is exact, so
//    (u + u) - u^{n-1} rounds the same value and gives the same bits for every
//    input: the fused form only saves an instruction.)
//  * a shell of 6 equal-weight points summed as ((a+b) + (c+d)) + (e+f): the
//    partial sums 2c, 2c, 4c, 2c are exact (doublings), only the last addition
//    rounds, to round(6c). six_u = round(6u) is the product rounded once, so
//    S - six_u = round(6c) - round(6c) = 0 exactly. The product must not be
//    contracted into the subtraction (nvcc turns S - 6*u into fma(-6, u, S) by
//    default, which rounds S - 6c, not 0): mul_rn (__fmul_rn / __dmul_rn) is
//    never contracted.
//  * sums of 2 or 4 equal values, ((a+b) + (c+d)), are 2c and 4c exactly, and
//    2u, 4u are exact, so ((a+b) + (c+d)) - 4u is 0 however it is contracted.
//  * a single difference u(x+p) - u(x) is c - c = 0.
//  * fma(w, 0, acc) = acc and acc + 0 = acc exactly (for acc != -0), so the
//    weighted terms, whatever the weights' rounding, leave 2u - u^{n-1} = c.
// The sign of zero is the one exception: c = -0 comes back as +0 (== -0).
//
// Exact on constants is not enough where the zero mode is neutral (rigid,
// absorbing and open walls: the 7-point stencil, which the leggy kernels also
// run as leggy:1). A sum S of six values near u rounds with an error of about
// eps |6u|, and so does round(6u): S - 6u then carries noise proportional to the
// field's mean, which feeds back into the mean and grows (float, a rigid room:
// the mean reached 4x the pulse's peak after 3.6e5 steps). Differences taken
// first, (u(x+p) - u), are exact whenever the neighbour lies within a factor 2
// of u (Sterbenz) and otherwise round relative to the difference: the noise then
// scales with the wave, not with the mean, and the mean only random-walks (about
// 1e-3 of the peak over the same run). So every update that can run next to a
// non-fixed wall sums differences (axis_shell_diff, pair_diff, quad_diff);
// axis_shell_minus, quad_minus and pair_minus, one subtraction per shell, serve
// the leggy radii >= 2, which only run between fixed walls (scene/derive.cpp),
// where no mode is neutral: there they cost 2-30% less than the differences.
//
// A shared reference. Kernels that accumulate many weighted values per output
// (the dense cube of compact_tiled, the class sums of zsweep_box, which sweep
// forward in z and meet an output's centre only after some of its neighbours)
// shift the field by one reference value r per thread, v = u - r (r is u^n at one
// point the thread updates), and evaluate
//   u^{n+1} = (2r - u^{n-1}) + sum_p c_p v(x+p),  c_0 = 2 - lambda^2 sum_{p != 0} w_p,
// with c_p = lambda^2 w_p for p != 0, which is the update above in exact arithmetic
// (sum_p c_p v(x+p) = 2(u - r) + lambda^2 sum_{p != 0} w_p (u(x+p) - u)). For a
// constant field r = c and every v is exactly 0, so the weighted sum is exactly 0
// whatever the rounding of the c_p, and the result is leapfrog(c, c) = c. For a
// field, v is exact wherever u lies within a factor 2 of r (Sterbenz) and the sum
// rounds relative to the wave, as with differences to the centre, at one
// subtraction per value read instead of one per (output, point).
#include <cuda_runtime.h>

#include <type_traits>

namespace ws::ex {

// a * b rounded once and never fused with a neighbouring addition.
template <class T>
__device__ __forceinline__ T mul_rn(T a, T b) {
  if constexpr (std::is_same_v<T, float>) return __fmul_rn(a, b);
  else return __dmul_rn(a, b);
}

// 2u - u^{n-1}: exactly c when u = u^{n-1} = c (see above).
template <class T>
__device__ __forceinline__ T leapfrog(T u, T u_prev) {
  return fma(T(2), u, -u_prev);
}

// round(6u), the value a 6-point shell of a constant sums to.
template <class T>
__device__ __forceinline__ T six_times(T u) {
  return mul_rn(T(6), u);
}

// Sum of the six points of an axis shell (x, y and z pairs) minus six_u = six_times(u):
// exactly 0 for a constant. The order of the additions is part of the proof.
template <class T>
__device__ __forceinline__ T axis_shell_minus(T xm, T xp, T ym, T yp, T zm, T zp, T six_u) {
  return (((xm + xp) + (ym + yp)) + (zm + zp)) - six_u;
}

// The six points of an axis shell as differences to the centre u, summed:
// 0 exactly for a constant, with rounding relative to the differences.
template <class T>
__device__ __forceinline__ T axis_shell_diff(T xm, T xp, T ym, T yp, T zm, T zp, T u) {
  return (((xm - u) + (xp - u)) + ((ym - u) + (yp - u))) + ((zm - u) + (zp - u));
}

// A pair of equal-weight points as differences to the centre u.
template <class T>
__device__ __forceinline__ T pair_diff(T a, T b, T u) {
  return (a - u) + (b - u);
}

// Two pairs of equal-weight points as differences to the centre u.
template <class T>
__device__ __forceinline__ T quad_diff(T a, T b, T c, T d, T u) {
  return ((a - u) + (b - u)) + ((c - u) + (d - u));
}

// A pair of equal-weight points minus 2u, one subtraction: (a + b) is 2c exactly for
// a constant and 2u is exact, so the result is 0 however it is contracted. For
// leggy radii >= 2 (fixed walls only, see above).
template <class T>
__device__ __forceinline__ T pair_minus(T a, T b, T u) {
  return (a + b) - (u + u);
}

// Two pairs of equal-weight points minus 4u, one subtraction: ((a + b) + (c + d)) is
// 4c exactly for a constant and 4u is exact (a power of two), so the result is 0
// whether or not the product is fused into the subtraction. Leggy radii >= 2 only.
template <class T>
__device__ __forceinline__ T quad_minus(T a, T b, T c, T d, T u) {
  return ((a + b) + (c + d)) - T(4) * u;
}

// The 7-point update u^{n+1} = (2u - u^{n-1}) + w sum (u(x+p) - u), w = lambda^2 w_1.
template <class T>
__device__ __forceinline__ T seven_point_update(T u, T u_prev, T xm, T xp, T ym, T yp, T zm, T zp, T w) {
  return fma(w, axis_shell_diff(xm, xp, ym, yp, zm, zp, u), leapfrog(u, u_prev));
}

}  // namespace ws::ex
