// Energy with boundary nodes: exactly conserved (to rounding) with rigid walls and
// rigid obstacles; never growing, and decaying, with absorbing walls and obstacles.
#include <gtest/gtest.h>

#include <cmath>

#include "boundary_fixtures.hpp"
#include "common/random_field.hpp"

namespace ws {
namespace {

using testing::planned_cpu;
using testing::walls_all;

void randomise(testing::PlannedSolver& p) {
  const auto& L = p.solver->layout();
  auto a = testing::random_field(L, 21), b = testing::random_field(L, 22);
  for (int64_t q : p.plan.solid) a[q] = b[q] = 0.0;  // solids hold zero
  p.solver->write_state(a, b, 0);
}

double max_relative_drift(testing::PlannedSolver& p, int blocks, int steps) {
  randomise(p);
  const double e0 = testing::energy(p);
  double worst = 0;
  for (int b = 0; b < blocks; ++b) {
    p.solver->advance(steps);
    worst = std::max(worst, std::fabs(testing::energy(p) - e0) / e0);
  }
  return worst;
}

TEST(BoundaryEnergy, RigidBoxConserves) {
  auto p = planned_cpu(13, 11, 9, walls_all(WallCondition::rigid()));
  EXPECT_LE(max_relative_drift(p, 10, 500), 1e-9);
}

TEST(BoundaryEnergy, MixedFixedAndRigidConserves) {
  BoxWalls w = walls_all(WallCondition::rigid());
  w[1] = w[4] = WallCondition::fixed();
  auto p = planned_cpu(12, 10, 11, w);
  EXPECT_LE(max_relative_drift(p, 10, 500), 1e-9);
}

TEST(BoundaryEnergy, RigidObstacleConserves) {
  auto p = planned_cpu(14, 13, 12, walls_all(WallCondition::rigid()),
                       testing::block_solid(14, 13, 12, 4, 9, 3, 7, 5, 11, 0.0));
  EXPECT_LE(max_relative_drift(p, 10, 500), 1e-9);
}

void expect_monotone_decay(testing::PlannedSolver& p, int blocks, int steps, double final_fraction) {
  randomise(p);
  const double e0 = testing::energy(p);
  double prev = e0;
  for (int b = 0; b < blocks; ++b) {
    p.solver->advance(steps);
    const double e = testing::energy(p);
    EXPECT_LE(e, prev * (1 + 1e-12) + 1e-15 * e0) << "energy grew in block " << b;
    EXPECT_GE(e, -1e-12 * e0) << "energy went negative: unstable";
    prev = e;
  }
  EXPECT_LT(prev, final_fraction * e0);
}

TEST(BoundaryEnergy, AbsorbingWallsNeverGrowAndDecay) {
  auto p = planned_cpu(13, 11, 9, walls_all(WallCondition::with_absorption(0.3)));
  // One step at a time for the first 200 steps: the bound holds per step.
  expect_monotone_decay(p, 200, 1, 1.0);
  expect_monotone_decay(p, 40, 100, 0.1);
}

TEST(BoundaryEnergy, OpenAndMixedWallsWithAbsorbingObstacle) {
  BoxWalls w = walls_all(WallCondition::open());
  w[0] = WallCondition::fixed();
  w[3] = WallCondition::rigid();
  auto p = planned_cpu(14, 13, 12, w, testing::block_solid(14, 13, 12, 4, 9, 3, 7, 5, 11, 2.0));
  expect_monotone_decay(p, 40, 100, 0.1);
}

TEST(BoundaryEnergy, HugeAdmittanceStaysStable) {
  auto p = planned_cpu(9, 9, 9, walls_all(WallCondition::with_admittance(1e4)));
  expect_monotone_decay(p, 20, 100, 1.0);
}

}  // namespace
}  // namespace ws
