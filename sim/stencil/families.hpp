#pragma once
// Stencil families (Hamilton, Webb, Gray & Bilbao, section 2): builds the points and weights
// of a stencil from its name.
//   7pt                 alias of leggy:1 (the 7-point stencil, same weights as srl)
//   leggy:M             M = 1..8: the (6M+1)-point stencil S_M^(l), centred 2M-order weights
//   compact:R           the compact-in-space S_R^(c): shells with |q|^2 <= R; R must add a shell
//                       (R a sum of three squares) and K <= 461 points, i.e. R <= 22
//   box:q1,q2,q3        the box-compact S_q^(b): shells up to q in the lexicographic order of Q
//                       (q1 >= q2 >= q3 >= 0, q1 >= 1), K <= 461 points; box:2,2,2 is the 5x5x5 box
//   srl ccp octa idwm iiso iiso2 iwb   the 27-point schemes of Kowalczyk & van Walstijn
#include <string>
#include <vector>

#include "stencil/shells.hpp"
#include "stencil/stencil.hpp"

namespace ws {

// Largest stencil the families build: the paper's largest, S_22^(c).
constexpr int kMaxStencilPoints = 461;
constexpr int kMaxLeggyM = 8;

// Points and weights of the named stencil (radius and courant_max are filled by make_stencil).
// Throws std::invalid_argument naming the valid forms.
Stencil build_stencil_by_name(const std::string& name);

// Leggy stencil S_M: the centred 2M-order second-derivative weights (Fornberg) on each axis.
Stencil make_leggy(int M);

// Compact-in-space S_R^(c) with the isotropic shell weights (shell_weights.hpp).
Stencil make_compact(int R);

// Box-compact S_q^(b) with the isotropic shell weights.
Stencil make_box(const Triplet& q);

// The centred 2M-order weights beta_{M,0..M} of d2/dx2 on offsets -M..M (beta_{M,-m} = beta_{M,m}).
std::vector<double> centred_second_derivative(int M);

// The shells Omega a family member is built from: leggy {(m,0,0)}, compact, box. Empty for the
// named 27-point schemes (they are not built per shell).
std::vector<Triplet> stencil_shells(const std::string& name);

// The first `count` members of a family in the paper's order, as names make_stencil accepts:
// leggy:1..8, compact:R over the R that add a shell, box:q over Q in lexicographic order (each
// list stops at the family's largest supported member), or the seven named schemes.
std::vector<std::string> family_member_names(StencilFamily family, int count);

// "leggy", "compact", "box", "named27".
std::string family_name(StencilFamily family);

// One line listing every accepted form, for error messages.
std::string stencil_name_forms();

}  // namespace ws
