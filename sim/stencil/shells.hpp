#pragma once
// Shells of lattice points (Hamilton, Webb, Gray & Bilbao, section 2.2).
//
// A triplet q = (q1, q2, q3) of the set Q = {q in Z^3 : q1 >= q2 >= q3 >= 0, q1 >= 1}
// names the shell P(q): every distinct permutation of (+-q1, +-q2, +-q3). All points of a
// shell have the same norm |q| and are mapped onto each other by the 48 symmetries of the
// cube, so a cubic-symmetric Laplacian gives them one weight. |P(q)| is 6, 8, 12, 24 or 48.
// A stencil is S(Omega) = {(0,0,0)} united with the shells of a set Omega of triplets (eq. 7):
//   leggy S_M            Omega = {(1,0,0), ..., (M,0,0)}                 (eq. 8)
//   compact-in-space S_R Omega = {q in Q : |q|^2 <= R}                   (eq. 9)
//   box-compact S_q      Omega = {q' in Q : q' <= q lexicographically}   (eq. 10)
#include <array>
#include <string>
#include <vector>

namespace ws {

using Triplet = std::array<int, 3>;

// True when q lies in Q: q1 >= q2 >= q3 >= 0 and q1 >= 1.
bool in_shell_set(const Triplet& q);

// The points of the shell P(q), each once (q must lie in Q).
std::vector<Triplet> shell_points(const Triplet& q);

// |q|^2.
inline int norm2(const Triplet& q) { return q[0] * q[0] + q[1] * q[1] + q[2] * q[2]; }

// "(q1,q2,q3)".
std::string triplet_text(const Triplet& q);

// Omega_R^(c): the triplets of Q with |q|^2 <= R, ordered by |q|^2 then lexicographically.
std::vector<Triplet> compact_shells(int R);

// True when some q in Q has |q|^2 = R exactly, i.e. S_R^(c) has a shell S_{R-1}^(c) lacks.
// (Legendre: R is a sum of three squares unless R = 4^a (8b + 7).)
bool compact_radius_adds_shell(int R);

// Omega_q^(b): the triplets of Q that precede q or equal it in the lexicographic order.
std::vector<Triplet> box_shells(const Triplet& q);

// The successor of q in the lexicographic order of Q: (1,0,0), (1,1,0), (1,1,1), (2,0,0), ...
Triplet next_in_lex_order(const Triplet& q);

// Number of points of S(Omega): 1 + sum of |P(q)|.
int stencil_point_count(const std::vector<Triplet>& omega);

}  // namespace ws
