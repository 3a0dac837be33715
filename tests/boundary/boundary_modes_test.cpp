// A rigid-walled box rings at the discrete mode frequencies of the scheme.
// With rigid walls the boundary nodes make the graph Laplacian of an Nx x Ny x Nz
// box of cell-centred nodes; its eigenvectors are products of cos(pi m (i + 1/2) / N)
// with eigenvalues mu = sum_d 4 sin^2(pi m_d / (2 N_d)), and the two-step scheme turns
// each into a mode of frequency f = acos(1 - lambda^2 mu / 2) / (2 pi T).
#include <fftw3.h>
#include <gtest/gtest.h>

#include <cmath>

#include "boundary_fixtures.hpp"
#include "common/random_field.hpp"

namespace ws {
namespace {

struct Mode {
  double f_discrete, f_continuous;
};

TEST(BoundaryModes, RigidBoxRingsAtTheSchemesModes) {
  const int N[3] = {5, 4, 3};
  const double rate = 8000.0, T = 1.0 / rate;
  auto p = testing::planned_cpu(N[0], N[1], N[2], testing::walls_all(WallCondition::rigid()), {}, 1.0, rate);
  const double lambda = p.solver->courant(), X = 343.0 * T / lambda;
  const auto& L = p.solver->layout();
  // A random state with u^n = u^{n-1}: every mode excited, no net momentum (no DC drift).
  const auto u0 = testing::random_field(L, 5);
  p.solver->write_state(u0, u0, 0);
  p.solver->set_receivers({{0, 0, 0}});  // a corner node: no mode has a node there
  const int n = 1 << 15;
  p.solver->advance(n);
  std::vector<double> x = p.solver->take_receiver_samples()[0];
  double mean = 0;
  for (double v : x) mean += v / n;
  for (int q = 0; q < n; ++q) x[q] = (x[q] - mean) * 0.5 * (1 - std::cos(2 * M_PI * q / (n - 1)));  // Hann
  std::vector<fftw_complex> X_(n / 2 + 1);
  fftw_plan plan = fftw_plan_dft_r2c_1d(n, x.data(), X_.data(), FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  std::vector<double> mag(n / 2 + 1);
  for (int b = 0; b <= n / 2; ++b) mag[b] = std::hypot(X_[b][0], X_[b][1]);
  const double bin_hz = rate / n;

  std::vector<Mode> modes;
  for (int a = 0; a < N[0]; ++a)
    for (int b = 0; b < N[1]; ++b)
      for (int c = 0; c < N[2]; ++c) {
        if (a + b + c == 0) continue;
        const int m[3] = {a, b, c};
        double mu = 0, kc2 = 0;
        for (int d = 0; d < 3; ++d) {
          mu += 4 * std::pow(std::sin(M_PI * m[d] / (2.0 * N[d])), 2);
          kc2 += std::pow(m[d] / (2.0 * N[d] * X), 2);  // the room is N X long between the walls
        }
        modes.push_back({std::acos(1 - lambda * lambda * mu / 2) / (2 * M_PI * T), 343.0 * std::sqrt(kc2)});
      }
  int checked = 0, continuous_off = 0;
  for (const Mode& md : modes) {
    bool isolated = true;  // skip modes with a distinct neighbour closer than 8 bins
    for (const Mode& o : modes)
      if (std::fabs(o.f_discrete - md.f_discrete) > 1e-9 && std::fabs(o.f_discrete - md.f_discrete) < 8 * bin_hz)
        isolated = false;
    if (!isolated || md.f_discrete > 0.49 * rate) continue;
    const int b0 = (int)std::lround(md.f_discrete / bin_hz);
    int best = b0;
    for (int b = b0 - 4; b <= b0 + 4; ++b)
      if (mag[b] > mag[best]) best = b;
    // Parabolic interpolation of the log magnitude around the peak.
    const double l = std::log(mag[best - 1]), c = std::log(mag[best]), r = std::log(mag[best + 1]);
    const double peak_hz = (best + 0.5 * (l - r) / (l - 2 * c + r)) * bin_hz;
    EXPECT_NEAR(peak_hz, md.f_discrete, 0.5 * bin_hz) << "mode at " << md.f_discrete << " Hz";
    EXPECT_GT(mag[best], 1e-4 * *std::max_element(mag.begin(), mag.end())) << "no peak at " << md.f_discrete;
    if (std::fabs(md.f_continuous - peak_hz) > 5 * bin_hz) ++continuous_off;
    ++checked;
  }
  EXPECT_GE(checked, 20);
  // The test discriminates: the continuous box's modes miss most peaks (numerical dispersion).
  EXPECT_GE(continuous_off, checked / 2);
}

}  // namespace
}  // namespace ws
