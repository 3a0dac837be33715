// Live stencil switches carry the pressure, its rate of change and the energy
// (sim/wave/stencil_switch.hpp): repeated switches cannot pump the field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>

#include "core/relayout.hpp"
#include "cpu/cpu_solver.hpp"
#include "scene_builders.hpp"
#include "wave/stencil_switch.hpp"
#include "wave/wave_model.hpp"

namespace ws {
namespace {

// The soak's room, smaller: fixed walls, 12 kHz, lambda = 0.45 (below 7pt's 0.577).
WaveScene switching_room() {
  WaveScene s = testing::cube_scene(1.0, 12000.0, Precision::Double);
  s.room_m = {1.0, 0.8, 0.6};
  s.courant = 0.45;
  s.sources.push_back({{0.3, 0.25, 0.2}, {SignalKind::RaisedCosine, 1.0, 1e-3, 0.0, 0.0}, SourceQuantity::Scheme,
                       Injection::Value});
  s.receivers.push_back({"r", {0.75, 0.55, 0.4}});
  return s;
}

double model_energy(WaveModel& m) {
  std::vector<double> u, up;
  m.solver().read_state(u, up);
  return switch_energy(u, up, m.solver().layout(), m.grid().stencil, m.grid().courant);
}

double model_peak(WaveModel& m) { return m.solver().field_stats().peak; }

std::vector<double> random_field(const FieldLayout& L, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-1.0, 1.0);
  std::vector<double> u(L.total, 0.0);
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) u[L.index(i, j, k)] = d(rng);
  return u;
}

TEST(StencilSwitch, TheNewSchemeStartsWithTheOldEnergy) {
  const Stencil a = make_stencil("7pt"), b = make_stencil("leggy:3");
  const FieldLayout La = make_layout(20, 17, 13, 1, 8), Lb = make_layout(20, 17, 13, 3, 8);
  const auto u = random_field(La, 1), v = random_field(La, 2);
  const auto r = carry_across_stencil_switch(u, v, La, Lb, a, b, 0.45);
  EXPECT_NEAR(r.energy_before, switch_energy(u, v, La, a, 0.45), 1e-9 * r.energy_before);
  EXPECT_NEAR(switch_energy(r.u_cur, r.u_prev, Lb, b, 0.45), r.energy_before, 1e-9 * r.energy_before);
  EXPECT_GT(r.energy_before, 0.0);
  // The new halo is zero (the fixed wall).
  for (int j = 0; j < Lb.ny; ++j) EXPECT_EQ(r.u_prev[Lb.index(-1, j, 0)], 0.0);
}

TEST(StencilSwitch, TheSameStencilChangesNothing) {
  const Stencil a = make_stencil("leggy:2");
  const FieldLayout L = make_layout(12, 11, 10, 2, 8);
  const auto u = random_field(L, 3), v = random_field(L, 4);
  const auto r = carry_across_stencil_switch(u, v, L, L, a, a, 0.4);
  EXPECT_EQ(r.scale, 1.0);
  EXPECT_EQ(r.u_cur, u);
  EXPECT_EQ(r.u_prev, v);
}

// -S(k): the stencil's symbol, the eigenvalue of -L on the sine mode of wavenumber k (all axes).
double minus_symbol(const Stencil& st, double k) {
  double s = 0.0;
  for (const auto& p : st.points) s += p.w * std::cos(k * p.dx) * std::cos(k * p.dy) * std::cos(k * p.dz);
  return -s;
}

TEST(StencilSwitch, AModeOfBothSchemesKeepsItsPressureAndRate) {
  // A sine mode of the box (about 20 points per wavelength) is an eigenmode of every radius-1
  // stencil under the zero halo, with c_i = cos(omega_i T) = 1 - lambda^2 a_i / 2. At phase
  // theta, u^n = cos(theta), u^{n-1} = cos(theta - omega_1). The map keeps u^n and
  // (u^{n+1} - u^{n-1}) / 2 = -sin(theta) sin(omega_1), then scales by s so the energy,
  // Q_i = A^2 sin^2(omega_i), is the old one:
  //   s = (sin omega_1 / sin omega_2) / sqrt(cos^2 theta + sin^2 theta sin^2 omega_1 / sin^2 omega_2).
  const Stencil a = make_stencil("7pt"), b = make_stencil("iwb");
  const FieldLayout L = make_layout(40, 40, 40, 1, 8);
  const double lambda = 0.45, kx = 4.0 * M_PI / 41.0, theta = 0.7;
  const double c1 = 1.0 - 0.5 * lambda * lambda * minus_symbol(a, kx);
  const double c2 = 1.0 - 0.5 * lambda * lambda * minus_symbol(b, kx);
  const double w1 = std::acos(c1), w2 = std::acos(c2);
  std::vector<double> u(L.total, 0.0), v(L.total, 0.0), mode(L.total, 0.0);
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const int64_t q = L.index(i, j, k);
        mode[q] = std::sin(kx * (i + 1)) * std::sin(kx * (j + 1)) * std::sin(kx * (k + 1));
        u[q] = mode[q] * std::cos(theta);
        v[q] = mode[q] * std::cos(theta - w1);
      }
  const auto r = carry_across_stencil_switch(u, v, L, L, a, b, lambda);
  const double ratio = std::sin(w1) / std::sin(w2);
  const double st = std::sin(theta), ct = std::cos(theta);
  const double s = ratio / std::sqrt(ct * ct + st * st * ratio * ratio);
  EXPECT_NEAR(r.scale, s, 1e-9);
  // Both levels are the mode: u'^n = s cos(theta), u'^{n-1} = s (cos(theta - omega_1) + c2 - c1) cos(theta).
  double err = 0.0;
  for (size_t q = 0; q < u.size(); ++q) {
    err = std::max(err, std::fabs(r.u_cur[q] - s * ct * mode[q]));
    err = std::max(err, std::fabs(r.u_prev[q] - s * (std::cos(theta - w1) + (c2 - c1) * ct) * mode[q]));
  }
  EXPECT_LT(err, 1e-12);
  // The pressure changes by the two schemes' dispersion difference at this wavenumber only.
  EXPECT_LT(std::fabs(r.scale - 1.0), 1.5 * std::fabs(ratio - 1.0));
  EXPECT_NE(w1, w2);
}

// Switching every `every` steps between two stencils, `pairs` times; returns the largest
// energy (in the running scheme's norm) seen after the source ended, relative to the
// energy then, and the largest peak relative to the peak then.
struct SwitchRun {
  double energy_growth = 0.0, peak_growth = 0.0;
  double pressure_jump = 0.0;  // the largest change of u^n at a switch, relative to the peak then
};

SwitchRun alternate(const std::string& a, const std::string& b, int every, int pairs, Precision p) {
  WaveScene s = switching_room();
  s.stencil = a;
  s.precision = p;
  WaveModel m(s, BackendChoice::Cpu);
  m.advance(4 * every);  // the pulse (12 steps) has left the source
  const double e0 = model_energy(m), p0 = model_peak(m);
  SwitchRun r;
  for (int n = 0; n < 2 * pairs; ++n) {
    std::vector<double> before, up, after;
    m.solver().read_state(before, up);
    const FieldLayout from = m.solver().layout();
    m.set_stencil(n % 2 == 0 ? b : a);
    m.solver().read_state(after, up);
    const auto moved = relayout(before, from, m.solver().layout());
    double jump = 0.0, peak = 0.0;
    for (size_t q = 0; q < after.size(); ++q) {
      jump = std::max(jump, std::fabs(after[q] - moved[q]));
      peak = std::max(peak, std::fabs(moved[q]));
    }
    r.pressure_jump = std::max(r.pressure_jump, jump / peak);
    m.advance(every);
    r.energy_growth = std::max(r.energy_growth, model_energy(m) / e0);
    r.peak_growth = std::max(r.peak_growth, model_peak(m) / p0);
  }
  return r;
}

TEST(StencilSwitch, RepeatedSwitchesKeepTheEnergyOfTheRoom) {
  // The GUI soak's finding: switching every 20 steps grew the field x1.4 per pair (7pt <-> iwb)
  // until the watchdog paused it. Fixed walls and no source: each scheme conserves its energy,
  // and a switch now hands it over exactly.
  for (const auto& [a, b] : std::vector<std::pair<std::string, std::string>>{
           {"7pt", "iwb"}, {"7pt", "leggy:2"}, {"leggy:2", "compact:2"}}) {
    SCOPED_TRACE(a + " <-> " + b);
    const SwitchRun r = alternate(a, b, 20, 100, Precision::Double);
    EXPECT_LT(r.energy_growth, 1.0 + 1e-9);
    EXPECT_LT(r.peak_growth, 3.0);
    std::printf("%s <-> %s: energy x%.12f, peak x%.3f, largest pressure change at a switch %.2e of the peak\n",
                a.c_str(), b.c_str(), r.energy_growth, r.peak_growth, r.pressure_jump);
  }
}

TEST(StencilSwitch, RepeatedSwitchesInFloatStayBounded) {
  // The soak's precision: float rounding moves the energy by ~1e-6 per step at most.
  const SwitchRun r = alternate("7pt", "leggy:2", 20, 100, Precision::Float);
  EXPECT_LT(r.energy_growth, 1.0 + 1e-3);
  EXPECT_LT(r.peak_growth, 3.0);
}

// The same switches with (u^n, u^{n-1}) copied as they are: the pumping the map prevents.
TEST(StencilSwitch, CopyingTheTwoLevelsPumpsTheField) {
  WaveScene s = switching_room();
  const DerivedGrid g = derive_grid(s);
  const Stencil a = make_stencil("7pt"), b = make_stencil("iwb");
  auto solver = make_cpu_solver(Precision::Double, a, g.nx, g.ny, g.nz, g.courant, g.dt_s);
  std::vector<double> u(solver->layout().total, 0.0), v;
  const FieldLayout& L = solver->layout();
  u[L.index(g.nx / 3, g.ny / 3, g.nz / 3)] = 1.0;
  v = u;
  solver->write_state(u, v, 0);
  const double e0 = switch_energy(u, v, L, a, g.courant);
  double grown = 0.0;
  for (int n = 0; n < 200; ++n) {
    solver->advance(20);
    const Stencil& cur = n % 2 == 0 ? a : b;
    const Stencil& next = n % 2 == 0 ? b : a;
    std::vector<double> uc, up;
    solver->read_state(uc, up);
    auto fresh = make_cpu_solver(Precision::Double, next, g.nx, g.ny, g.nz, g.courant, g.dt_s);
    (void)cur;
    fresh->write_state(relayout(uc, solver->layout(), fresh->layout()), relayout(up, solver->layout(), fresh->layout()), 0);
    solver = std::move(fresh);
    std::vector<double> c2, p2;
    solver->read_state(c2, p2);
    grown = std::max(grown, switch_energy(c2, p2, solver->layout(), next, g.courant) / e0);
  }
  EXPECT_GT(grown, 100.0);
}

}  // namespace
}  // namespace ws
