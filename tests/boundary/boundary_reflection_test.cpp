// A plane pulse at normal incidence on an absorbing wall reflects with
// R = (1 - beta) / (1 + beta) (beta: specific admittance; R = sqrt(1 - a) for
// absorption a). A duct one node wide with rigid side walls carries exact plane
// waves. The pulse is smooth (a Gaussian of 10 nodes), so the low-frequency
// limit applies; the tolerance of 0.01 covers the frequency dependence of the
// discrete wall over the pulse's band. Norms (not peaks) are compared, so
// dispersion, which conserves the norm, does not matter.
#include <gtest/gtest.h>

#include <cmath>

#include "boundary_fixtures.hpp"

namespace ws {
namespace {

struct Reflections {
  double rigid, absorbing;  // norm ratios to the direct pulse
};

Reflections measure(const WallCondition& far_wall) {
  const int nx = 3000;
  BoxWalls w = testing::walls_all(WallCondition::rigid());
  w[1] = far_wall;
  auto p = testing::planned_cpu(nx, 1, 1, w);
  const auto& L = p.solver->layout();
  std::vector<double> u(L.total, 0.0);
  for (int i = 0; i < nx; ++i) u[L.index(i, 0, 0)] = std::exp(-0.5 * std::pow((i - 600) / 10.0, 2));
  p.solver->write_state(u, u, 0);  // at rest: splits into a left and a right pulse of half height
  p.solver->set_receivers({{1800, 0, 0}});
  const double lambda = p.solver->courant();  // nodes per step
  const int steps = (int)(4200 / lambda);
  p.solver->advance(steps);
  const auto x = p.solver->take_receiver_samples()[0];
  auto norm_around = [&](double nodes) {
    const int c = (int)(nodes / lambda), half = (int)(300 / lambda);
    double s = 0;
    for (int q = std::max(0, c - half); q < std::min((int)x.size(), c + half); ++q) s += x[q] * x[q];
    return std::sqrt(s);
  };
  const double direct = norm_around(1200);     // 600 -> 1800
  const double via_left = norm_around(2400);   // 600 -> 0 (rigid) -> 1800
  const double via_right = norm_around(3600);  // 600 -> 3000 (far wall) -> 1800
  return {via_left / direct, via_right / direct};
}

TEST(BoundaryReflection, RigidWallReflectsEverything) { EXPECT_NEAR(measure(WallCondition::rigid()).rigid, 1.0, 0.01); }

TEST(BoundaryReflection, AdmittanceSetsTheReflection) {
  for (double beta : {0.2, 0.5, 2.0}) {
    const Reflections r = measure(WallCondition::with_admittance(beta));
    EXPECT_NEAR(r.absorbing, std::fabs((1 - beta) / (1 + beta)), 0.01) << "beta " << beta;
  }
}

TEST(BoundaryReflection, AbsorptionCoefficientSetsTheReflection) {
  for (double a : {0.3, 0.75}) {
    const Reflections r = measure(WallCondition::with_absorption(a));
    EXPECT_NEAR(r.absorbing, std::sqrt(1 - a), 0.01) << "absorption " << a;
  }
}

TEST(BoundaryReflection, OpenWallAbsorbsANormalPlaneWave) {
  // beta = 1 matches the continuous impedance exactly; what returns (1.8% of the norm
  // here) is the discrete wall's reflection, which grows with frequency like (kX)^2.
  EXPECT_LT(measure(WallCondition::open()).absorbing, 0.025);
}

}  // namespace
}  // namespace ws
