#pragma once
// Carrying the field across a live stencil switch.
//
// A switch keeps lambda = c T / X, so the grid and the time step stay; only the
// Laplacian L changes (L_1 -> L_2). The two-step scheme's state is (u^n, u^{n-1}).
// Handing the same two arrays to the new scheme (what a plain copy does) keeps the
// backward difference u^n - u^{n-1}, a first-order velocity at n - 1/2 that each
// scheme reads with its own dispersion: every switch changes a mode's amplitude by
// a factor that depends on its phase, and switching back and forth every N steps is
// a parametric oscillator whose resonant modes grow without bound (the GUI soak saw
// x1.4 per pair of switches between 7pt and iwb).
//
// The map used here keeps the physical state at time n:
//  1. the pressure u^n, and its centred time derivative
//       (u^{n+1} - u^{n-1}) / 2T = (u^n - u^{n-1} + lambda^2/2 L_1 u^n) / T
//     as the old scheme would continue it (second order at t_n), so
//       u'^{n-1} = u^{n-1} + lambda^2/2 (L_2 - L_1) u^n.
//     A mode of the new scheme then starts with the old one's pressure and rate of
//     change; modes both schemes resolve (|L_2 - L_1| small) are untouched.
//  2. the energy. Each scheme conserves
//       Q_i = ||u^n - u^{n-1}||^2 - lambda^2 <u^n, L_i u^{n-1}>
//           = <u^n, (I - C_i^2) u^n> + ||C_i u^n - u^{n-1}||^2,   C_i = I + lambda^2/2 L_i,
//     a norm of the field below the stability limit (twice scheme_energy()). Step 1
//     keeps the second term and changes the first by <u^n, (C_1^2 - C_2^2) u^n>:
//     a change of stiffness, which pumps a mode that is switched in phase with it,
//     as it would a physical oscillator. The state is therefore scaled by
//     s = sqrt(Q_1 / Q_2'), so that the new scheme starts with exactly the energy
//     the old one had. Between switches each scheme conserves its Q, so the energy
//     at any time is what the sources put in minus what the walls took out, however
//     often the stencil changes, and the field stays bounded (Q_i bounds ||u||).
//     s - 1 is the schemes' dispersion difference weighted by the field's spectrum:
//     for a mode both resolve, the ratio of sin(omega T) of the two schemes (0.3% at
//     20 points per wavelength for 7pt/iwb); for a pulse of about 5 points per
//     wavelength, 1.5-4% per switch. Step 1 alone is not enough: it only slows the
//     pumping (the soak's room still blew up, after 2,340 steps instead of 1,300).
//     What the scale cannot do is stop a mode that resonates with a strictly periodic
//     switching from gathering the (conserved) energy of the others: after ~60 switches
//     every 20 steps the field is that mode, bounded but not the room's sound.
// The zero halo (fixed walls) is assumed: the large stencils run only with fixed
// walls and no obstacles (derive_grid refuses the rest), and the only stencil that
// runs with boundary nodes is the 7-point one, where L_1 = L_2 and nothing changes.
#include <vector>

#include "core/field_layout.hpp"
#include "stencil/stencil.hpp"

namespace ws {

struct StencilSwitchResult {
  std::vector<double> u_cur, u_prev;  // padded in the new layout, zero halo
  double energy_before = 0.0;         // Q_1 of the state handed over
  double energy_after = 0.0;          // Q_2 of the state returned (= energy_before unless it was 0)
  double scale = 1.0;                 // s applied to both levels
};

// u_cur = u^n, u_prev = u^{n-1} in layout `from` (zero halo) under stencil `from_st`;
// returns the state for `to_st` in layout `to`. Same interior size, same lambda.
// Taken by value and released once copied: the peak is four double copies of the field.
StencilSwitchResult carry_across_stencil_switch(std::vector<double> u_cur, std::vector<double> u_prev,
                                                const FieldLayout& from, const FieldLayout& to,
                                                const Stencil& from_st, const Stencil& to_st, double courant);

// Q = ||u_cur - u_prev||^2 - lambda^2 <u_cur, L u_prev> over the interior (zero halo).
double switch_energy(const std::vector<double>& u_cur, const std::vector<double>& u_prev, const FieldLayout& layout,
                     const Stencil& st, double courant);

}  // namespace ws
