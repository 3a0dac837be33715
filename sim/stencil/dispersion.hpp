#pragma once
// Numerical dispersion of the two-step scheme u^{n+1} = 2u^n + lambda^2 sum_p w_p u^n(x+p) - u^{n-1}.
//
// A plane wave u = e^{i(omega n T + k . x)} solves it iff
//   cos(omega T) = 1 + lambda^2 S(k) / 2,   S(k) = sum_p w_p cos(k . p X)
// and travels at the phase velocity v = omega / |k|. With kX = |k| X (radians per grid
// spacing) and lambda = c T / X, the relative phase velocity is
//   v / c = (omega T) / (lambda kX).
// The exact wave equation has v / c = 1 for every k; the scheme's departure from 1, and its
// dependence on the direction of k, is the dispersion error.
#include <array>
#include <vector>

#include "stencil/stencil.hpp"

namespace ws {

// v / c for a wave of wavenumber magnitude kX (radians per grid spacing, > 0) travelling along
// `direction` (need not be normalised). NaN when lambda lies beyond the stencil's limit for this k
// (|1 + lambda^2 S / 2| > 1: the wave grows instead of travelling). kX -> 0 gives 1.
double relative_phase_velocity(const Stencil& stencil, double courant, const std::array<double, 3>& direction,
                               double kX);

// The three directions the tools report: the axis (1,0,0), the face diagonal (1,1,0) and the
// body diagonal (1,1,1).
const std::array<std::array<int, 3>, 3>& dispersion_directions();

// Samples of v / c against kX along the three directions, for plotting (the GUI) and tables.
struct DispersionCurves {
  double courant = 0.0;
  std::array<std::array<int, 3>, 3> directions{};
  std::vector<double> kX;                         // sample points in (0, kX_max]
  std::array<std::vector<double>, 3> v_over_c;    // one curve per direction, NaN where unstable
};

// `samples` points evenly spaced in (0, kX_max]; kX_max = pi is the Nyquist wavenumber along an axis.
DispersionCurves dispersion_curves(const Stencil& stencil, double courant, int samples = 128,
                                   double kX_max = 3.14159265358979323846);

}  // namespace ws
