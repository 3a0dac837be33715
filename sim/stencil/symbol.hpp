#pragma once
// The symbol of a stencil, S(k) = sum_p w_p cos(k . p) (k in radians per grid spacing),
// evaluated fast enough to sample the whole wavenumber cube for 461-point stencils.
//
// For a stencil whose weights do not change when an offset component changes sign (every
// stencil here: leggy, shells, the 27-point family), the 2^n sign variants of an offset
// (a, b, c) sum to a product of cosines:
//   sum over signs of cos(+-a kx +- b ky +- c kz) = f(a, kx) f(b, ky) f(c, kz),
//   f(0, k) = 1,  f(m, k) = 2 cos(m k).
// So S is a sum over the distinct |offset| patterns (about K / 8 of them) of one weight
// times a product of three table lookups. Stencils without that symmetry fall back to the
// direct sum of cosines.
#include <vector>

#include "stencil/stencil.hpp"

namespace ws {

class StencilSymbol {
 public:
  explicit StencilSymbol(const std::vector<StencilPoint>& points);

  // S(k) for k = (kx, ky, kz).
  double operator()(double kx, double ky, double kz) const;

  // The product form on precomputed per-axis tables f[m] = f(m, k), m = 0..radius (fill_table):
  // sampling a grid then costs one multiply-add per |offset| group and point, no cosines.
  // Only for sign-symmetric stencils.
  void fill_table(double k, double* f) const;
  double from_tables(const double* fx, const double* fy, const double* fz) const {
    double s = 0.0;
    for (const auto& g : groups_) s += g.w * fx[g.a] * fy[g.b] * fz[g.c];
    return s;
  }

  // True when the weights are even in each offset component (the product form applies).
  bool sign_symmetric() const { return sign_symmetric_; }
  int radius() const { return radius_; }

 private:
  struct Group {
    int a, b, c;  // |dx|, |dy|, |dz|
    double w;     // the weight shared by the group's sign variants
  };
  std::vector<Group> groups_;
  std::vector<StencilPoint> points_;  // used only when not sign-symmetric
  bool sign_symmetric_ = true;
  int radius_ = 0;
};

}  // namespace ws
