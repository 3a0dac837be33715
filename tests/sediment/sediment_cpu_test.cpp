// The CPU reference of the sediment scheme: conservation, bounds of s, the
// sharpness of the stability limit, and the model on the CPU backend.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "sediment/cross_section.hpp"
#include "sediment/sediment_model.hpp"
#include "sediment_test_scenes.hpp"

namespace ws {
namespace {

using testing::river_scene;
using testing::volume_m3;

TEST(SedimentCpu, ZeroFluxBoundariesConserveVolumeToRounding) {
  const SedimentScene sc = river_scene(61, 47, /*fluxes=*/false);
  SedimentModel m(sc, BackendChoice::Cpu);
  std::vector<double> h0, s0, h, s;
  m.solver().read_state(h0, s0);
  const SedimentLayout L = make_sediment_layout(sc.nx, sc.ny, 8);
  const double v0 = volume_m3(h0, L, sc.dx_m, sc.dy_m);
  const int steps = 400;
  m.advance(steps);
  m.solver().read_state(h, s);
  const double v1 = volume_m3(h, L, sc.dx_m, sc.dy_m);
  // Each face flux is computed identically by both of its cells, so sum(h)
  // changes only by rounding: a few eps per cell and step, as a random walk.
  const double cells = (double)sc.nx * sc.ny;
  const double bound = 8 * std::numeric_limits<double>::epsilon() * std::sqrt(steps * cells) * std::fabs(v0);
  EXPECT_LE(std::fabs(v1 - v0), bound) << "v0 " << v0 << " v1 " << v1;
  // Not vacuous: the bump really diffused.
  double moved = 0;
  for (int j = 0; j < sc.ny; ++j)
    for (int i = 0; i < sc.nx; ++i) moved = std::max(moved, std::fabs(h[L.index(i, j)] - h0[L.index(i, j)]));
  EXPECT_GT(moved, 0.5) << "the bump barely moved: the test would not see a leak";
}

TEST(SedimentCpu, PrescribedFluxesChangeVolumeByTheInflow) {
  const SedimentScene sc = river_scene(61, 47, /*fluxes=*/true);
  SedimentModel m(sc, BackendChoice::Cpu);
  const SedimentInitialState st = build_initial_state(sc);
  const SedimentLayout& L = st.layout;
  std::vector<double> h, s;
  m.solver().read_state(h, s);
  const double v0 = volume_m3(h, L, sc.dx_m, sc.dy_m);
  const int steps = 300;
  m.advance(steps);
  m.solver().read_state(h, s);
  // Inflow per step: sum over boundary cells of q times the cell's side length.
  double rate_m3_s = 0;
  for (int t = 0; t < 2 * (sc.nx + sc.ny); ++t) rate_m3_s += st.q_m2_s[t] * (t < 2 * sc.ny ? sc.dy_m : sc.dx_m);
  ASSERT_GT(std::fabs(rate_m3_s), 0.0);
  const double expected = v0 + steps * m.grid().dt_s * rate_m3_s;
  const double v1 = volume_m3(h, L, sc.dx_m, sc.dy_m);
  EXPECT_NEAR(v1, expected, 1e-9 * std::fabs(v0)) << "inflow " << steps * m.grid().dt_s * rate_m3_s << " m^3";
}

// s must stay a volume fraction. The scene mixes everything that could push it
// out: pure-sand inflow at a river mouth, an outflow side, a bump whose slopes
// drive the upwind terms, and sand that is more mobile than mud near the mouth
// but less far from it (gamma changes sign).
TEST(SedimentCpu, SandFractionStaysInUnitInterval) {
  for (Precision p : {Precision::Double, Precision::Float}) {
    SedimentScene sc = river_scene(53, 41, /*fluxes=*/true);
    sc.precision = p;
    SedimentModel m(sc, BackendChoice::Cpu);
    const double eps = p == Precision::Double ? 1e-15 : 1e-6;  // rounding of s + small terms near 0 and 1
    double s_max_seen = 0;
    for (int chunk = 0; chunk < 20; ++chunk) {
      m.advance(100);
      const SedimentStats st = m.stats();
      ASSERT_GE(st.s_min, -eps) << to_string(p) << " step " << m.step();
      ASSERT_LE(st.s_max, 1.0 + eps) << to_string(p) << " step " << m.step();
      ASSERT_TRUE(std::isfinite(st.h_max_m) && std::isfinite(st.h_min_m));
      s_max_seen = std::max(s_max_seen, st.s_max);
    }
    EXPECT_GT(s_max_seen, 0.6) << "the sand inflow never raised s: the test would not exercise the upper bound";
  }
}

TEST(SedimentCpu, PureSandAndPureMudStayPure) {
  for (double s0 : {0.0, 1.0}) {
    SedimentScene sc = river_scene(37, 29, /*fluxes=*/true);
    sc.initial_s = s0;
    for (auto& b : sc.boundary) b.sand_fraction = s0;
    SedimentModel m(sc, BackendChoice::Cpu);
    m.advance(500);
    const SedimentStats st = m.stats();
    EXPECT_EQ(st.s_min, s0);
    EXPECT_EQ(st.s_max, s0);
  }
}

// The limit is sharp: just below it a checkerboard in h decays, 10 % above it
// grows (the scene parser refuses such a dt, so the problem is built directly).
TEST(SedimentCpu, StabilityLimitIsSharp) {
  SedimentScene sc = river_scene(32, 24, false);
  sc.alpha.type = "constant";
  sc.alpha.value_m2_s = 1.0;
  sc.initial_h.type = "flat";
  const SedimentGrid g = derive_sediment_grid(sc);
  for (double factor : {0.99, 1.1}) {
    SedimentProblem pb;
    pb.state = build_initial_state(sc);
    for (int j = 0; j < sc.ny; ++j)
      for (int i = 0; i < sc.nx; ++i) pb.state.h[pb.state.layout.index(i, j)] += ((i + j) % 2 ? 1e-3 : -1e-3);
    pb.compaction_sand = sc.compaction_sand;
    pb.compaction_mud = sc.compaction_mud;
    pb.top_layer_m = 1e9;  // keep s out of the way
    pb.dx_m = sc.dx_m;
    pb.dy_m = sc.dy_m;
    pb.dt_s = factor * g.dt_diffusion_limit_s;
    auto solver = make_cpu_sediment_solver(pb, Precision::Double);
    solver->advance(300);
    std::vector<double> h, s;
    solver->read_state(h, s);
    double dev = 0;
    for (int j = 0; j < sc.ny; ++j)
      for (int i = 0; i < sc.nx; ++i) dev = std::max(dev, std::fabs(h[pb.state.layout.index(i, j)] - 10.0));
    if (factor < 1) EXPECT_LT(dev, 1e-3) << "below the limit the checkerboard must not grow";
    else EXPECT_GT(dev, 1.0) << "above the limit the checkerboard should blow up";
  }
}

TEST(SedimentCpu, ModelOnCpuResetsAndReportsMetrics) {
  const SedimentScene sc = river_scene(45, 33, true);
  SedimentModel m(sc, BackendChoice::Cpu);
  EXPECT_EQ(m.cuda(), nullptr);
  EXPECT_NE(m.backend_note().find("CPU"), std::string::npos);
  EXPECT_THROW(m.set_kernel("h-opt1"), std::runtime_error);
  EXPECT_THROW(SedimentModel(sc, BackendChoice::Cpu, "h-fast"), std::invalid_argument);
  const SedimentStats before = m.stats();
  m.advance(50);
  EXPECT_EQ(m.step(), 50);
  EXPECT_DOUBLE_EQ(m.time_s(), 50 * m.grid().dt_s);
  const SedimentMetrics mt = m.metrics();
  EXPECT_EQ(mt.last_steps, 50);
  EXPECT_GT(mt.gpoints_per_s, 0.0);
  EXPECT_NEAR(mt.gflops_paper, mt.gpoints_per_s * 89, 1e-9 * mt.gflops_paper);
  EXPECT_DOUBLE_EQ(mt.bytes_per_point, 80.0);
  EXPECT_NE(m.stats().volume_m3, before.volume_m3);
  m.reset();
  EXPECT_EQ(m.step(), 0);
  EXPECT_DOUBLE_EQ(m.stats().volume_m3, before.volume_m3);
}

TEST(SedimentCpu, PrecisionSwitchKeepsTheState) {
  const SedimentScene sc = river_scene(45, 33, true);
  SedimentModel m(sc, BackendChoice::Cpu);
  m.advance(20);
  const SedimentStats a = m.stats();
  m.set_precision(Precision::Float);
  EXPECT_EQ(m.precision(), Precision::Float);
  EXPECT_EQ(m.view_h().precision, Precision::Float);
  EXPECT_EQ(m.step(), 20);
  const SedimentStats b = m.stats();
  EXPECT_NEAR(b.volume_m3, a.volume_m3, 1e-6 * a.volume_m3);
  m.advance(5);
  EXPECT_EQ(m.step(), 25);
}

TEST(SedimentCpu, CrossSectionReadsRowsAndColumns) {
  const SedimentScene sc = river_scene(23, 17, true);
  SedimentModel m(sc, BackendChoice::Cpu);
  m.advance(3);
  const SedimentFieldView h = m.view_h(), s = m.view_s();
  const auto* hp = static_cast<const double*>(h.data);
  const auto* sp = static_cast<const double*>(s.data);
  const CrossSection r = extract_cross_section(h, s, SectionAxis::Row, 5);
  ASSERT_EQ((int)r.h_m.size(), sc.nx);
  for (int i = 0; i < sc.nx; ++i) {
    EXPECT_EQ(r.h_m[i], hp[h.index(i, 5)]);
    EXPECT_EQ(r.s[i], sp[s.index(i, 5)]);
    EXPECT_DOUBLE_EQ(r.position_m[i], (i + 0.5) * sc.dx_m);
  }
  const CrossSection c = extract_cross_section(h, s, SectionAxis::Column, 7);
  ASSERT_EQ((int)c.h_m.size(), sc.ny);
  for (int j = 0; j < sc.ny; ++j) EXPECT_EQ(c.h_m[j], hp[h.index(7, j)]);
  EXPECT_THROW(extract_cross_section(h, s, SectionAxis::Row, sc.ny), std::invalid_argument);
}

}  // namespace
}  // namespace ws
