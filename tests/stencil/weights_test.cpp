// Weights that make a Laplacian: Fornberg's closed form for leggy stencils, the (a, b) family of
// Kowalczyk & van Walstijn, and the fitted shell weights; consistency for every family member.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "stencil/dispersion.hpp"
#include "stencil/families.hpp"
#include "stencil/named27.hpp"
#include "stencil/shell_weights.hpp"

namespace ws {
namespace {

std::vector<std::string> every_member() {
  std::vector<std::string> out;
  for (auto f : {StencilFamily::Leggy, StencilFamily::Compact, StencilFamily::Box, StencilFamily::Named27})
    for (const auto& n : family_member_names(f, 40)) out.push_back(n);
  return out;
}

TEST(LeggyWeights, MatchTheFactorialClosedForm) {
  // beta_{M,m} = 2 (-1)^{m+1} (M!)^2 / (m^2 (M-m)! (M+m)!), beta_0 = -2 sum_{m>=1} beta_m,
  // evaluated here with lgamma in long double, independently of the product form in the library.
  for (int M = 1; M <= 8; ++M) {
    const Stencil s = make_stencil("leggy:" + std::to_string(M));
    long double sum = 0;
    for (int m = 1; m <= M; ++m) {
      const long double mag = std::exp(2 * std::lgamma((long double)M + 1) - std::lgamma((long double)M - m + 1) -
                                       std::lgamma((long double)M + m + 1)) * 2 / (m * m);
      const long double beta = (m % 2 ? 1 : -1) * mag;
      sum += beta;
      EXPECT_NEAR(s.axis_weight(m), (double)beta, 1e-13) << "M=" << M << " m=" << m;
      EXPECT_NEAR(s.axis_weight(-m), (double)beta, 1e-13);
    }
    EXPECT_NEAR(s.centre_weight(), (double)(3 * -2 * sum), 1e-12) << "three axes share the centre";
  }
  const Stencil s2 = make_stencil("leggy:2");  // the textbook fourth-order weights
  EXPECT_NEAR(s2.axis_weight(1), 4.0 / 3.0, 1e-15);
  EXPECT_NEAR(s2.axis_weight(2), -1.0 / 12.0, 1e-15);
  EXPECT_NEAR(s2.centre_weight(), 3 * -2.5, 1e-14);
}

TEST(LeggyWeights, AreExactOnPolynomialsUpToDegree2MPlus1) {
  // sum_m beta_m m^n = n! [n == 2] for n <= 2M + 1: order 2M for d2/dx2.
  for (int M = 1; M <= 8; ++M) {
    const auto beta = centred_second_derivative(M);
    for (int n = 0; n <= 2 * M + 1; ++n) {
      double s = n == 0 ? beta[0] : 0.0;
      double scale = std::fabs(beta[0]);
      for (int m = 1; m <= M; ++m) {
        s += beta[m] * (std::pow(m, n) + std::pow(-m, n));
        scale += 2 * std::fabs(beta[m]) * std::pow(m, n);
      }
      EXPECT_NEAR(s, n == 2 ? 2.0 : 0.0, 1e-12 * scale) << "M=" << M << " n=" << n;
    }
  }
}

TEST(Consistency, EveryMemberIsASecondOrderLaplacian) {
  // sum w = 0 (constants), sum w p_i = 0 (linear), sum w p_i p_j = 2 delta_ij (so that
  // sum w u(x + p) = Laplacian u X^2 + O(X^4)), and the symbol is -|k|^2 + O(k^4).
  for (const auto& n : every_member()) {
    const Stencil s = make_stencil(n);
    double m0 = 0, m1[3] = {0, 0, 0}, m2[3][3] = {{0}}, scale = 0;
    for (const auto& p : s.points) {
      const int d[3] = {p.dx, p.dy, p.dz};
      m0 += p.w;
      scale += std::fabs(p.w) * (1 + p.dx * p.dx + p.dy * p.dy + p.dz * p.dz);
      for (int i = 0; i < 3; ++i) {
        m1[i] += p.w * d[i];
        for (int j = 0; j < 3; ++j) m2[i][j] += p.w * d[i] * d[j];
      }
    }
    EXPECT_NEAR(m0, 0.0, 1e-13 * scale) << n;
    for (int i = 0; i < 3; ++i) {
      EXPECT_NEAR(m1[i], 0.0, 1e-13 * scale) << n;
      for (int j = 0; j < 3; ++j) EXPECT_NEAR(m2[i][j], i == j ? 2.0 : 0.0, 1e-12 * scale) << n << " " << i << j;
    }
    for (const auto& p : s.points) EXPECT_NE(p.w, 0.0) << n << ": a zero weight is a wasted read";
  }
}

TEST(Consistency, ShellFamiliesHaveOneWeightPerShell) {
  for (auto f : {StencilFamily::Compact, StencilFamily::Box}) {
    for (const auto& n : family_member_names(f, 20)) {
      const Stencil s = make_stencil(n);
      std::map<Triplet, double> w;
      for (const auto& p : s.points) {
        Triplet q = {std::abs(p.dx), std::abs(p.dy), std::abs(p.dz)};
        std::sort(q.begin(), q.end(), std::greater<int>());
        if (w.count(q)) {
          EXPECT_DOUBLE_EQ(w[q], p.w) << n << " " << triplet_text(q);
        }
        w[q] = p.w;
      }
      EXPECT_EQ(w.size(), stencil_shells(n).size() + 1) << n;
    }
  }
}

TEST(Named27, WeightsFollowFromAB) {
  for (const auto& sc : named27_schemes()) {
    const Stencil s = make_stencil(sc.name);
    EXPECT_NEAR(s.centre_weight(), -6 + 12 * sc.a - 8 * sc.b, 1e-15) << sc.name;
    for (const auto& p : s.points) {
      const int nz = (p.dx != 0) + (p.dy != 0) + (p.dz != 0);
      const double expect = nz == 0 ? -6 + 12 * sc.a - 8 * sc.b : nz == 1 ? 1 - 4 * sc.a + 4 * sc.b
                                                                          : nz == 2 ? sc.a - 2 * sc.b : sc.b;
      EXPECT_NEAR(p.w, expect, 1e-15) << sc.name;
    }
  }
  const Stencil srl = make_stencil("srl"), seven = make_stencil("7pt");
  EXPECT_TRUE(srl.is_seven_point());
  EXPECT_EQ(seven.name, "leggy:1");
  for (int m = 0; m <= 1; ++m) EXPECT_DOUBLE_EQ(srl.axis_weight(m), seven.axis_weight(m));
}

double spread_of_v(const Stencil& s, double kX) {
  double lo = 1e9, hi = -1e9;
  for (const auto& d : dispersion_directions()) {
    const double v = relative_phase_velocity(s, 0.95 * s.courant_max, {(double)d[0], (double)d[1], (double)d[2]}, kX);
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  return hi - lo;
}

TEST(ShellWeights, AreFarMoreIsotropicThanTheSevenPointStencil) {
  // At kX = pi/4 (8 points per wavelength) the 7-point scheme's v/c differs by about 1% between
  // axis and diagonal; any shell stencil with more than one shell should do at least 10x better.
  const double srl = spread_of_v(make_stencil("srl"), 3.14159265358979 / 4);
  EXPECT_GT(srl, 5e-3);
  for (auto f : {StencilFamily::Compact, StencilFamily::Box})
    for (const auto& n : family_member_names(f, 20)) {
      if (stencil_shells(n).size() < 2) continue;
      EXPECT_LT(spread_of_v(make_stencil(n), 3.14159265358979 / 4), srl / 10) << n;
    }
  // The 19-point fit is at least as isotropic as iiso, the (a, b) member designed for isotropy.
  EXPECT_LE(spread_of_v(make_stencil("compact:2"), 3.14159265358979 / 2),
            spread_of_v(make_stencil("iiso"), 3.14159265358979 / 2) * 1.0001);
}

TEST(ShellWeights, ConvexCombinationOfShellLaplacians) {
  const auto w = isotropic_shell_weights(compact_shells(2));
  double sum = 0;
  for (double a : w.alpha) sum += a;
  EXPECT_NEAR(sum, 1.0, 1e-14);
  EXPECT_EQ(w.method, "convex");
  for (double a : w.alpha) EXPECT_GE(a, kShellWeightFloor / 2 - 1e-15);
}

}  // namespace
}  // namespace ws
