// The von Neumann limit of the 7-point scheme is lambda = 1/sqrt(3) (Webb eq. 4):
// at the limit a random field stays bounded, a little above it grows without bound.
#include <gtest/gtest.h>

#include <cmath>

#include "common/random_field.hpp"
#include "cpu/cpu_solver.hpp"

namespace ws {
namespace {

double max_abs_after(double courant, int steps) {
  const Stencil st = make_stencil("7pt");
  auto s = make_cpu_solver(Precision::Double, st, 16, 16, 16, courant, 1.0 / 44100);
  const auto& L = s->layout();
  const auto u0 = testing::random_field(L, 7);
  s->write_state(u0, u0, 0);
  s->advance(steps);
  std::vector<double> u, up;
  s->read_state(u, up);
  double m = 0;
  for (double v : u) m = std::isfinite(v) ? std::max(m, std::fabs(v)) : HUGE_VAL;  // overflow counts as growth
  return m;
}

TEST(Stability, SevenPointLimitIsOneOverSqrt3) {
  EXPECT_NEAR(make_stencil("7pt").courant_max, 1.0 / std::sqrt(3.0), 1e-12);
}

TEST(Stability, BoundedAtTheLimit) { EXPECT_LT(max_abs_after(1.0 / std::sqrt(3.0), 3000), 1e3); }

TEST(Stability, GrowsJustAboveTheLimit) { EXPECT_GT(max_abs_after(1.03 / std::sqrt(3.0), 3000), 1e6); }

}  // namespace
}  // namespace ws
