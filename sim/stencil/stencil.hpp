#pragma once
// A finite-difference Laplacian stencil: integer offsets and weights, scaled so
// that sum_p w_p u(x + p X) ~= X^2 (d2/dx2 + d2/dy2 + d2/dz2) u.
// The two-step scheme is u^{n+1} = 2 u^n + lambda^2 sum_p w_p u^n(x+p) - u^{n-1},
// lambda = c T / X.
#include <string>
#include <vector>

namespace ws {

struct StencilPoint {
  int dx = 0, dy = 0, dz = 0;
  double w = 0.0;
};

enum class StencilFamily { Leggy, Compact, Box, Named27 };

struct Stencil {
  std::string name;                 // canonical name, e.g. "leggy:1", "srl"
  StencilFamily family = StencilFamily::Leggy;
  std::vector<StencilPoint> points; // the centre (0,0,0) included
  int radius = 1;                   // max |offset| along any axis: the halo it needs
  double courant_max = 0.0;         // largest stable lambda, from the symbol

  int size() const { return (int)points.size(); }
  double centre_weight() const;
  // Weight of a leggy stencil at distance m along an axis (0 when absent).
  double axis_weight(int m) const;
  // True when every point lies on an axis (leggy): the kernels for axis-split stencils apply.
  bool is_leggy() const;
  // True for the classic 7-point stencil (leggy with M = 1).
  bool is_seven_point() const { return is_leggy() && radius == 1; }
};

// Builds a stencil from its name ("7pt", "leggy:M", "compact:R", "box:q1,q2,q3",
// "srl", "ccp", ...). Throws std::invalid_argument naming the valid forms.
Stencil make_stencil(const std::string& name);

// Largest stable Courant number from the von Neumann symbol
//   S(k) = sum_p w_p cos(k.p),  stable iff lambda^2 * max_k(-S(k)) <= 4.
double compute_courant_max(const std::vector<StencilPoint>& points);

}  // namespace ws
