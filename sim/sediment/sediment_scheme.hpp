#pragma once
// The numerical scheme of the dual-lithology sediment model (Su et al. 2013,
// after Rivenaes), written once as point formulas shared by the CPU reference
// and every CUDA kernel version.
//
//   dh/dt = 1/C_s div(alpha s grad h) + 1/C_m div(beta (1-s) grad h)          (1)
//   A ds/dt + s dh/dt = 1/C_s div(alpha s grad h)                              (2)
//
// h-equation, eq. (3) of the paper: forward Euler, central differences in flux
// form with arithmetic face means of alpha s and beta (1-s):
//   h' = h + dt/dx^2 (K_e (h_e - h) - K_w (h - h_w)) + dt/dy^2 (K_n (h_n - h) - K_s (h - h_s)),
//   K_e = (as + as_e) / (2 C_s) + (bm + bm_e) / (2 C_m),  as = alpha s, bm = beta (1 - s).
// Each face flux is computed identically by the two cells it separates, so the
// update conserves sum(h) up to rounding when the boundary fluxes are zero.
//
// s-equation. The paper's eq. (4) discretises the left side of (2) with the
// implicit s' (h' - h) term and keeps only grad(alpha s).grad h on the right
// (upwinded); the alpha s lap h part of div(alpha s grad h) is missing there,
// which makes a pure-sand basin (s = 1) change its fraction as soon as h
// changes. We use (2) with (1) substituted instead, which is the same model:
//   A ds/dt = s (1-s) Q + c(s) grad h . grad s,
//   Q = div(alpha grad h)/C_s - div(beta grad h)/C_m,   c(s) = (1-s) alpha/C_s + s beta/C_m >= 0,
// i.e. a convection equation for s with velocity -c grad h / A (downhill: the
// paper's remark that -grad h is the convection velocity) plus a logistic
// source that vanishes at s = 0 and s = 1. The convective term uses exactly
// the paper's upwind differences of (4) (one-sided difference of s taken on the
// uphill side, times the central difference of h^{l+1}, over 2 dx^2); Q uses
// central differences of h^{l+1} with arithmetic face means of
// gamma = alpha/C_s - beta/C_m. With w = sum of the upwind weights
// |h_+ - h_-|/(2 d^2), the update is
//   s' = (1 - lambda) s + lambda s_up + nu s (1 - s),  lambda = dt c w / A,  nu = dt Q / A,
// a convex combination plus a logistic step, so s' stays in [0, 1] whenever
// lambda + |nu| <= 1 (the top-layer condition, see layer_rate below). Like the
// paper's s-kernel it reads four arrays and writes one (alpha, beta, s, h^{l+1};
// the paper reads h^l instead of beta), so the traffic per point is the same.
#include <cmath>

#include "core/hd.hpp"

namespace ws {

// Scheme constants in the working precision; built on the host from the scene.
template <class T>
struct SedimentCoeffs {
  T inv_2cs = 0, inv_2cm = 0;  // 1/(2 C_s), 1/(2 C_m): face means of alpha s / C_s, beta (1-s) / C_m
  T inv_cs = 0, inv_cm = 0;    // 1/C_s, 1/C_m
  T dt_dx2 = 0, dt_dy2 = 0;    // dt/dx^2, dt/dy^2 (h-equation)
  // 1/(2 dx^2), 1/(2 dy^2): s-equation, central h difference over 2 dx times one-sided s over dx
  T inv_2dx2 = 0, inv_2dy2 = 0;
  T dt_over_a = 0;             // dt / A
};

template <class T>
SedimentCoeffs<T> make_sediment_coeffs(double cs, double cm, double a_m, double dx_m, double dy_m, double dt_s) {
  SedimentCoeffs<T> c;
  c.inv_2cs = T(0.5 / cs);
  c.inv_2cm = T(0.5 / cm);
  c.inv_cs = T(1.0 / cs);
  c.inv_cm = T(1.0 / cm);
  c.dt_dx2 = T(dt_s / (dx_m * dx_m));
  c.dt_dy2 = T(dt_s / (dy_m * dy_m));
  c.inv_2dx2 = T(0.5 / (dx_m * dx_m));
  c.inv_2dy2 = T(0.5 / (dy_m * dy_m));
  c.dt_over_a = T(dt_s / a_m);
  return c;
}

// alpha s and beta (1 - s) of one cell: what OPT-2/OPT-3 keep in shared memory.
template <class T>
WS_HD T sand_mobility(T alpha, T s) { return alpha * s; }
template <class T>
WS_HD T mud_mobility(T beta, T s) { return beta * (T(1) - s); }

// Eq. (3) at one cell from the mobilities (as, bm) and heights of the cell (c)
// and its east, west, north and south neighbours.
template <class T>
WS_HD T h_update(const SedimentCoeffs<T>& k, T h, T he, T hw, T hn, T hs, T as, T ase, T asw, T asn, T ass, T bm,
                 T bme, T bmw, T bmn, T bms) {
  const T ke = (as + ase) * k.inv_2cs + (bm + bme) * k.inv_2cm;
  const T kw = (as + asw) * k.inv_2cs + (bm + bmw) * k.inv_2cm;
  const T kn = (as + asn) * k.inv_2cs + (bm + bmn) * k.inv_2cm;
  const T ks = (as + ass) * k.inv_2cs + (bm + bms) * k.inv_2cm;
  return h + k.dt_dx2 * (ke * (he - h) - kw * (h - hw)) + k.dt_dy2 * (kn * (hn - h) - ks * (h - hs));
}

// gamma = alpha/C_s - beta/C_m of one cell: the per-cell intermediate of the
// s-kernel that OPT-2/OPT-3 keep in shared memory.
template <class T>
WS_HD T mobility_contrast(const SedimentCoeffs<T>& k, T alpha, T beta) { return alpha * k.inv_cs - beta * k.inv_cm; }

// Paper's upwind term along one axis: the one-sided difference of s on the
// uphill side times the central difference of h (both over 2 d^2 via inv_2d2).
template <class T>
WS_HD T upwind_term(T s, T s_plus, T s_minus, T h_plus, T h_minus) {
  return (h_minus > h_plus) ? (s_minus - s) * (h_minus - h_plus) : (s_plus - s) * (h_plus - h_minus);
}

// The s-update at one cell; h are h^{l+1}, g = gamma of the cell and its neighbours.
template <class T>
WS_HD T s_update(const SedimentCoeffs<T>& k, T s, T se, T sw, T sn, T ss, T h, T he, T hw, T hn, T hs, T g, T ge,
                 T gw, T gn, T gs, T alpha, T beta) {
  const T q = ((g + ge) * (he - h) - (g + gw) * (h - hw)) * k.inv_2dx2 +
              ((g + gn) * (hn - h) - (g + gs) * (h - hs)) * k.inv_2dy2;
  const T u = upwind_term(s, se, sw, he, hw) * k.inv_2dx2 + upwind_term(s, sn, ss, hn, hs) * k.inv_2dy2;
  const T one_minus_s = T(1) - s;
  const T c = one_minus_s * alpha * k.inv_cs + s * beta * k.inv_cm;
  return s + k.dt_over_a * (s * one_minus_s * q + c * u);
}

// (lambda + |nu|) / dt at one cell: the s-update keeps s in [0, 1] when
// dt * layer_rate <= 1 everywhere (units 1/s). Evaluated in double on the host.
inline double layer_rate(const SedimentCoeffs<double>& k, double s, double h, double he, double hw, double hn,
                         double hs, double g, double ge, double gw, double gn, double gs, double alpha, double beta,
                         double a_m) {
  const double q = ((g + ge) * (he - h) - (g + gw) * (h - hw)) * k.inv_2dx2 +
                   ((g + gn) * (hn - h) - (g + gs) * (h - hs)) * k.inv_2dy2;
  const double w = std::fabs(he - hw) * k.inv_2dx2 + std::fabs(hn - hs) * k.inv_2dy2;
  const double c = (1.0 - s) * alpha * k.inv_cs + s * beta * k.inv_cm;
  return (c * w + std::fabs(q)) / a_m;
}

// Ghost values on one boundary face. q_m2_s: prescribed sediment flux into the
// basin per metre of boundary (m^2/s, < 0 out of the basin); s_in: sand
// fraction of the incoming sediment; d_m: spacing normal to the boundary.
// The ghost alpha and beta equal the edge cell's (set once), so the face
// coefficient of (3) is K = alpha (s0 + sg)/(2 C_s) + beta ((1-s0) + (1-sg))/(2 C_m) and the face
// flux K (hg - h0)/d equals q when hg = h0 + q d / K. Inflow carries s_in; an
// outflow or closed face mirrors the edge cell's fraction, so the upwind term
// of the s-equation sees no spurious contrast there. Zero flux: hg = h0 exactly.
template <class T>
WS_HD void ghost_values(const SedimentCoeffs<T>& k, T h0, T s0, T alpha0, T beta0, T q_m2_s, T s_in, T d_m, T& hg,
                        T& sg) {
  sg = q_m2_s > T(0) ? s_in : s0;
  if (q_m2_s == T(0)) {
    hg = h0;
    return;
  }
  const T kf = (sand_mobility(alpha0, s0) + sand_mobility(alpha0, sg)) * k.inv_2cs +
               (mud_mobility(beta0, s0) + mud_mobility(beta0, sg)) * k.inv_2cm;
  hg = h0 + q_m2_s * d_m / kf;
}

// Floating-point operations per cell as the paper counts them (Table 2
// caption), used for GFLOP/s comparable with the paper, and as counted in our
// point formulas above (adds, multiplies, the upwind selection not counted).
constexpr int kPaperFlopsH = 55;
constexpr int kPaperFlopsS = 34;
constexpr int kCountedFlopsH = 49;  // 5 x (as, bm) = 15, 4 face K = 20, fluxes and update = 14
constexpr int kCountedFlopsS = 53;  // 5 x gamma = 15, Q = 17, upwind = 9, c = 6, update = 6

}  // namespace ws
