#pragma once
// Laplacian weights for a stencil built from shells, S(Omega) = {0} u P(q_1) u ... u P(q_P).
//
// Construction (docs/stencils.md explains it at length):
//  * Each shell alone gives a consistent second-order Laplacian,
//      L_p u(x) = c_p sum_{l in P(q_p)} (u(x + l) - u(x)),   c_p = 6 / (|P(q_p)| |q_p|^2),
//    because the shell's cubic symmetry makes sum_l (k.l)^2 = |P| |q|^2 |k|^2 / 3.
//  * The stencil's Laplacian is a convex combination  L = sum_p alpha_p L_p,  alpha_p >= 0,
//    sum_p alpha_p = 1. Every such L is consistent (second order), its symbol is <= 0 at every
//    wavenumber (no growing modes at any lambda, so the stability limit is positive) and it is
//    symmetric under the 48 symmetries of the cube, so it has one weight per shell (P + 1
//    distinct weights, as in Hamilton et al. eq. 11).
//  * alpha is chosen to make the symbol as isotropic as the shells allow: it minimises the
//    spread of S(k) / |k|^2 over directions, on spheres |k| X = j pi / 16 (j = 1..8), plus a
//    small term for the distance of the spherical mean from the exact -|k|^2 that breaks ties
//    towards accuracy. That is a non-negative least-squares problem (nnls.hpp).
//  * Every shell keeps at least kShellWeightFloor / P of the combination, so every point of
//    S(Omega) has a non-zero weight (the stencil has the paper's K points) and the axis shell,
//    which rules out non-propagating modes, is always present.
//  * Convex weights cannot cancel the O(k^4) error, which caps their isotropy for large stencils.
//    So the same fit is also solved with signed alpha (plain least squares, small ridge); that
//    solution is taken when it is more isotropic and still has S(k) <= 0 everywhere (a positive
//    stability limit) and no zero weights. `method` says which one was taken.
#include <string>
#include <vector>

#include "stencil/shells.hpp"
#include "stencil/stencil.hpp"

namespace ws {

// Share of the combination spread evenly over all shells before the isotropy fit (see above).
constexpr double kShellWeightFloor = 0.02;

struct ShellWeights {
  std::vector<Triplet> shells;  // Omega, in the order given
  std::vector<double> alpha;    // convex weights of the shell Laplacians (sum 1, >= 0)
  std::vector<double> gamma;    // the stencil weight of every point of shell p: alpha_p c_p
  double centre = 0.0;          // weight of (0,0,0): -sum_p |P(q_p)| gamma_p
  std::string method;           // "single shell", "convex" or "signed"
  double anisotropy = 0.0;      // rms spread of S(k)/|k|^2 over directions in the fit (0 = isotropic)
};

// The construction above for the shells `omega` (each in Q, no repeats).
ShellWeights isotropic_shell_weights(const std::vector<Triplet>& omega);

// The stencil points of S(omega) with those weights: the centre first, then shell by shell.
std::vector<StencilPoint> shell_stencil_points(const ShellWeights& w);

}  // namespace ws
