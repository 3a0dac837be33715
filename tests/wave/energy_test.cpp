// The lossless two-step scheme conserves E = 1/2||u^{n+1}-u^n||^2 - lambda^2/2 <u^{n+1}, L u^n>
// (sim/wave/energy.hpp) exactly in exact arithmetic; in double it drifts only by rounding.
#include <gtest/gtest.h>

#include <cmath>

#include "common/random_field.hpp"
#include "cpu/cpu_solver.hpp"
#include "wave/energy.hpp"

namespace ws {
namespace {

double energy_of(WaveSolver& s) {
  std::vector<double> u, up;
  s.read_state(u, up);
  return scheme_energy(u, up, s.layout(), s.stencil(), s.courant());
}

void check_conservation(double courant_fraction, int steps) {
  const Stencil st = make_stencil("7pt");
  auto s = make_cpu_solver(Precision::Double, st, 19, 22, 17, st.courant_max * courant_fraction, 1.0 / 44100);
  const auto& L = s->layout();
  s->write_state(testing::random_field(L, 1), testing::random_field(L, 2), 0);
  const double e0 = energy_of(*s);
  ASSERT_GT(e0, 0.0);
  double worst = 0.0;
  for (int block = 0; block < steps / 1000; ++block) {
    s->advance(1000);
    worst = std::max(worst, std::fabs(energy_of(*s) - e0) / e0);
  }
  EXPECT_LE(worst, 1e-9) << "energy drifted at courant fraction " << courant_fraction;
}

TEST(Energy, ConservedOverTenThousandStepsAtTheLimit) { check_conservation(1.0, 10000); }
TEST(Energy, ConservedOverTenThousandStepsBelowTheLimit) { check_conservation(0.8, 10000); }

TEST(Energy, DetectsAWrongUpdate) {
  // Advancing with one Courant number and measuring with another must show drift:
  // the conserved quantity is specific to the scheme actually run.
  const Stencil st = make_stencil("7pt");
  auto s = make_cpu_solver(Precision::Double, st, 15, 15, 15, st.courant_max * 0.9, 1.0 / 44100);
  const auto& L = s->layout();
  s->write_state(testing::random_field(L, 3), testing::random_field(L, 4), 0);
  std::vector<double> u, up;
  s->read_state(u, up);
  const double e0 = scheme_energy(u, up, L, st, st.courant_max * 0.8);
  s->advance(500);
  s->read_state(u, up);
  const double e1 = scheme_energy(u, up, L, st, st.courant_max * 0.8);
  EXPECT_GT(std::fabs(e1 - e0) / e0, 1e-6);
}

}  // namespace
}  // namespace ws
