// The reverberation time of a box with uniformly absorbing walls against
// Eyring's and Sabine's formulas. The walls are locally reacting with a real
// specific admittance beta, so the diffuse-field (statistical) absorption is
// Paris' formula with zeta = 1/beta:
//   a_st = (8/zeta) [1 + 1/(1 + zeta) - (2/zeta) ln(1 + zeta)].
// T is measured as T20 (Schroeder backward integration, -5 to -25 dB, times 3)
// of the energy summed over several receivers, in a room of about 4 x 3 x 2.5 m
// at 8 kHz (about 100k nodes). A box is not a perfectly diffuse room (axial
// modes decay slower), so the stated tolerance is 20% of Eyring's value.
#include <gtest/gtest.h>

#include <cmath>

#include "boundary_fixtures.hpp"

namespace ws {
namespace {

double statistical_absorption(double beta) {
  const double z = 1.0 / beta;
  return 8.0 / z * (1.0 + 1.0 / (1.0 + z) - 2.0 / z * std::log(1.0 + z));
}

TEST(Reverberation, T20MatchesEyringWithinTwentyPercent) {
  const double rate = 8000.0;
  const double beta = 0.03;
  const Stencil st = make_stencil("7pt");
  const double X = 343.0 / rate / st.courant_max;
  const int nx = 54, ny = 40, nz = 33;  // cell-centred: the walls are nx X, ny X, nz X apart
  auto p = testing::planned_cpu(nx, ny, nz, testing::walls_all(WallCondition::with_admittance(beta)), {}, 1.0, rate);
  p.solver->set_sources({{{7, 9, 5}, {SignalKind::RaisedCosine, 1.0, 8.0 / rate, 0.0, 0.0}}});
  p.solver->set_receivers({{40, 30, 20}, {20, 12, 25}, {33, 25, 8}, {45, 8, 28}});
  const double Lx = nx * X, Ly = ny * X, Lz = nz * X;
  const double V = Lx * Ly * Lz, S = 2 * (Lx * Ly + Ly * Lz + Lx * Lz);
  const double a = statistical_absorption(beta);
  const double eyring = 24 * std::log(10.0) / 343.0 * V / (-S * std::log(1 - a));
  const double sabine = 24 * std::log(10.0) / 343.0 * V / (S * a);
  const int steps = (int)(1.2 * eyring * rate);
  p.solver->advance(steps);
  const auto rec = p.solver->take_receiver_samples();
  std::vector<double> e(steps, 0.0);
  for (const auto& r : rec)
    for (int q = 0; q < steps; ++q) e[q] += r[q] * r[q];
  // Schroeder: backward integral of the energy, in dB re its start.
  std::vector<double> sch(steps);
  double acc = 0;
  for (int q = steps - 1; q >= 0; --q) sch[q] = (acc += e[q]);
  auto t_at = [&](double db) {
    for (int q = 0; q < steps; ++q)
      if (10 * std::log10(sch[q] / sch[0]) <= db) return q / rate;
    return steps / rate;
  };
  const double t20 = 3.0 * (t_at(-25) - t_at(-5));
  RecordProperty("T20_s", std::to_string(t20));
  std::printf("T20 %.3f s, Eyring %.3f s, Sabine %.3f s (a_st %.3f, V %.1f m3, S %.1f m2)\n", t20, eyring, sabine, a,
              V, S);
  EXPECT_NEAR(t20, eyring, 0.2 * eyring);
  EXPECT_LT(t20, 1.3 * sabine);
}

}  // namespace
}  // namespace ws
