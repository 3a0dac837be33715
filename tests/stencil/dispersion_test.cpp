// The dispersion relation cos(omega T) = 1 + lambda^2 S(k) / 2 against simulations:
//  * standing modes of a box with fixed walls in the CPU solver (exact eigenvectors for every
//    radius-1 stencil, because the 27-point family is a polynomial in the 1-D Dirichlet
//    second differences);
//  * plane waves on a periodic lattice for the large stencils (a small stepper here: the
//    solver's fixed walls would break the plane wave of a radius > 1 stencil).
// The measured frequency must match the prediction to 2e-5 (5e-5 for the short periodic runs) while differing from the exact
// c |k| by far more, so a wrong dispersion function, weight or time step cannot pass.
#include <gtest/gtest.h>

#include <cmath>

#include "cpu/cpu_solver.hpp"
#include "stencil/dispersion.hpp"
#include "stencil/families.hpp"

namespace ws {
namespace {

constexpr double kPi = 3.14159265358979323846;

// Angular frequency per step theta = omega T of a sampled sinusoid (any phase): the zero
// crossings (linear interpolation between samples) lie at t_j = (j pi + phase) / theta, so the
// least-squares slope of t_j against j is pi / theta. The interpolation error of each crossing
// depends on where it falls between samples, which cycles; the regression averages it out.
double measured_theta(const std::vector<double>& x) {
  std::vector<double> t;
  for (size_t n = 1; n < x.size(); ++n)
    if ((x[n - 1] < 0) != (x[n] < 0)) t.push_back((n - 1) + x[n - 1] / (x[n - 1] - x[n]));
  if (t.size() < 3) return NAN;
  const double m = t.size();
  double sj = 0, st = 0, sjj = 0, sjt = 0;
  for (size_t j = 0; j < t.size(); ++j) {
    sj += j;
    st += t[j];
    sjj += double(j) * j;
    sjt += j * t[j];
  }
  const double slope = (m * sjt - sj * st) / (m * sjj - sj * sj);
  return kPi / slope;
}

double predicted_theta(const Stencil& s, double courant, const std::array<double, 3>& k) {
  const double kX = std::sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
  return relative_phase_velocity(s, courant, k, kX) * courant * kX;
}

struct Mode {
  int m[3];
};

// Standing mode sin(pi m_d (i_d + 1) / (n + 1)) in an n^3 box with fixed walls, run from rest.
double standing_mode_theta(const Stencil& st, double courant, int n, const Mode& mode, int steps) {
  auto s = make_cpu_solver(Precision::Double, st, n, n, n, courant, 1.0 / 44100);
  const auto& L = s->layout();
  std::vector<double> u(L.total, 0.0);
  auto f = [&](int d, int i) { return std::sin(kPi * mode.m[d] * (i + 1) / (n + 1)); };
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) u[L.index(i, j, k)] = f(0, i) * f(1, j) * f(2, k);
  s->write_state(u, u, 0);
  int best[3];
  for (int d = 0; d < 3; ++d) {  // an antinode
    best[d] = 0;
    for (int i = 0; i < n; ++i)
      if (std::fabs(f(d, i)) > std::fabs(f(d, best[d]))) best[d] = i;
  }
  s->set_receivers({{best[0], best[1], best[2]}});
  s->advance(steps);
  return measured_theta(s->take_receiver_samples()[0]);
}

TEST(Dispersion, StandingModesOfRadiusOneStencilsInTheCpuSolver) {
  const int n = 15;  // k = pi m / 16 per axis: m = 4 is kX = pi/4 along that axis
  const Mode modes[] = {{{4, 1, 1}}, {{4, 4, 1}}, {{4, 4, 4}}, {{11, 3, 6}}};
  struct Case {
    const char* name;
    double fraction;  // of the stencil's limit
  };
  const Case cases[] = {{"srl", 1.0}, {"srl", 0.6}, {"iiso2", 1.0}, {"iwb", 1.0},
                        {"idwm", 0.8}, {"octa", 1.0}, {"compact:3", 1.0}};
  for (const auto& c : cases) {
    const Stencil st = make_stencil(c.name);
    const double lambda = c.fraction * st.courant_max;
    for (const auto& md : modes) {
      const std::array<double, 3> k = {kPi * md.m[0] / (n + 1), kPi * md.m[1] / (n + 1), kPi * md.m[2] / (n + 1)};
      const double predicted = predicted_theta(st, lambda, k);
      const double measured = standing_mode_theta(st, lambda, n, md, 800);
      EXPECT_NEAR(measured / predicted, 1.0, 2e-5)
          << c.name << " lambda=" << lambda << " m=(" << md.m[0] << "," << md.m[1] << "," << md.m[2] << ")";
    }
  }
}

TEST(Dispersion, TheMeasurementResolvesTheDispersionError) {
  // srl at its limit along the axis at kX = pi/4: v/c = 0.985..., 1.5% from the exact wave
  // equation, far above the tolerance above.
  const Stencil st = make_stencil("srl");
  const double lambda = st.courant_max;
  const Mode md{{4, 1, 1}};
  const std::array<double, 3> k = {kPi * 4 / 16, kPi / 16, kPi / 16};
  const double exact = lambda * std::sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
  const double measured = standing_mode_theta(st, lambda, 15, md, 800);
  EXPECT_GT(std::fabs(measured / exact - 1.0), 5e-3);
}

// Plane wave cos(k . x) on an n^3 periodic lattice, two-step scheme with stencil st, from rest.
// Each step copies u^n into an array padded by the stencil radius with periodic wrap, so the
// stencil loop runs over plain linear offsets.
double periodic_plane_wave_theta(const Stencil& st, double courant, int n, const int m[3], int steps) {
  const int r = st.radius, np = n + 2 * r;
  const int N = n * n * n;
  std::vector<double> prev(N), cur(N), padded((size_t)np * np * np);
  auto wrap = [n](int i) { return (i % n + n) % n; };
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) cur[(k * n + j) * n + i] = std::cos(2 * kPi * (m[0] * i + m[1] * j + m[2] * k) / n);
  prev = cur;
  std::vector<long> off;
  std::vector<double> w;
  for (const auto& p : st.points) {
    off.push_back(((long)p.dz * np + p.dy) * np + p.dx);
    w.push_back(courant * courant * p.w);
  }
  std::vector<double> series;
  for (int s = 0; s < steps; ++s) {
    for (int k = 0; k < np; ++k)
      for (int j = 0; j < np; ++j)
        for (int i = 0; i < np; ++i)
          padded[((size_t)k * np + j) * np + i] = cur[(wrap(k - r) * n + wrap(j - r)) * n + wrap(i - r)];
    for (int k = 0; k < n; ++k)
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          const long q = ((long)(k + r) * np + (j + r)) * np + (i + r);
          double lap = 0;
          for (size_t p = 0; p < off.size(); ++p) lap += w[p] * padded[q + off[p]];
          const int c = (k * n + j) * n + i;
          prev[c] = 2 * cur[c] + lap - prev[c];  // prev now holds u^{n+1}
        }
    std::swap(prev, cur);
    series.push_back(cur[0]);
  }
  return measured_theta(series);
}

TEST(Dispersion, PlaneWavesOfLargeStencilsOnAPeriodicLattice) {
  const int n = 16;  // k = 2 pi m / 16: m = 2 is kX = pi/4 along an axis
  const int modes[][3] = {{2, 0, 0}, {2, 2, 0}, {2, 2, 2}, {4, 0, 0}, {3, 1, 0}};
  for (const std::string name : {"leggy:4", "leggy:8", "compact:9", "box:2,2,2", "compact:22"}) {
    const Stencil st = make_stencil(name);
    const int steps = st.size() > 200 ? 250 : 400;
    for (const auto& m : modes) {
      const std::array<double, 3> k = {2 * kPi * m[0] / n, 2 * kPi * m[1] / n, 2 * kPi * m[2] / n};
      const double predicted = predicted_theta(st, st.courant_max, k);
      const double measured = periodic_plane_wave_theta(st, st.courant_max, n, m, steps);
      EXPECT_NEAR(measured / predicted, 1.0, 5e-5) << name << " m=(" << m[0] << "," << m[1] << "," << m[2] << ")";
    }
  }
}

TEST(Dispersion, SrlAlongTheAxisMatchesTheClosedForm) {
  // S = -4 sin^2(kX/2) along (1,0,0): cos(theta) = 1 - 2 lambda^2 sin^2(kX/2).
  const Stencil st = make_stencil("srl");
  for (double lambda : {0.3, 0.5, 1 / std::sqrt(3.0)})
    for (double kX : {0.1, kPi / 4, kPi / 2, 3.0}) {
      const double theta = std::acos(1 - 2 * lambda * lambda * std::pow(std::sin(kX / 2), 2));
      EXPECT_NEAR(relative_phase_velocity(st, lambda, {1, 0, 0}, kX), theta / (lambda * kX), 1e-13);
    }
}

TEST(Dispersion, CurvesForTheGui) {
  const Stencil st = make_stencil("iwb");
  const auto c = dispersion_curves(st, st.courant_max, 64);
  ASSERT_EQ(c.kX.size(), 64u);
  EXPECT_NEAR(c.kX.back(), kPi, 1e-15);
  for (int d = 0; d < 3; ++d) {
    ASSERT_EQ(c.v_over_c[d].size(), 64u);
    EXPECT_NEAR(c.v_over_c[d][0], 1.0, 2e-3);  // long waves travel at c
    for (double v : c.v_over_c[d]) EXPECT_TRUE(v > 0.5 && v <= 1.0 + 1e-12) << v;
  }
  EXPECT_EQ(c.directions[2], (std::array<int, 3>{1, 1, 1}));
  // Above the limit the wave at (pi, pi, pi), the end of the (1,1,1) curve out to pi sqrt(3),
  // grows instead of travelling: NaN.
  const auto over = dispersion_curves(make_stencil("srl"), 1.1 / std::sqrt(3.0), 16, kPi * std::sqrt(3.0));
  EXPECT_TRUE(std::isnan(over.v_over_c[2].back()));
  EXPECT_FALSE(std::isnan(over.v_over_c[0].back()));
}

}  // namespace
}  // namespace ws
