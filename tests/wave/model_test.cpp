// WaveModel: CPU fallback with a reason, blow-up detection, precision switching
// that keeps the field, receiver moves that keep the history.
#include <gtest/gtest.h>

#include <cmath>

#include "scene_builders.hpp"
#include "wave/wave_model.hpp"

namespace ws {
namespace {

WaveScene small_scene() {
  WaveScene s = testing::cube_scene(1.0, 8000.0, Precision::Double);
  // A raw unit pulse (the tolerances below are for fields of order 1).
  s.sources.push_back({{0.5, 0.5, 0.5}, {SignalKind::RaisedCosine, 1.0, 2e-3, 0.0, 0.0}, SourceQuantity::Scheme,
                       Injection::Value});
  s.receivers.push_back({"r", {0.7, 0.5, 0.5}});
  return s;
}

TEST(Model, AutoBackendSaysWhichSolverRuns) {
  WaveModel m(small_scene(), BackendChoice::Auto);
  if (m.cuda()) EXPECT_NE(m.backend_note().find("CUDA"), std::string::npos);
  else EXPECT_NE(m.backend_note().find("CPU"), std::string::npos);
  EXPECT_FALSE(m.backend_note().empty());
}

TEST(Model, BlowUpIsReportedNotHidden) {
  WaveScene s = small_scene();
  s.sources[0].signal.amplitude = 1e300;
  s.receivers[0].position_m = s.sources[0].position_m;
  WaveModel m(s, BackendChoice::Cpu);
  try {
    m.advance(40);
    FAIL() << "no BlowUpError";
  } catch (const BlowUpError& e) {
    EXPECT_NE(std::string(e.what()).find("blew up"), std::string::npos);
  }
}

TEST(Model, PrecisionSwitchKeepsTheField) {
  WaveModel a(small_scene(), BackendChoice::Cpu), b(small_scene(), BackendChoice::Cpu);
  a.advance(30);
  b.advance(30);
  b.set_precision(Precision::Float);
  b.set_precision(Precision::Double);
  a.advance(30);
  b.advance(30);
  ASSERT_EQ(a.receiver_history()[0].size(), 60u);
  ASSERT_EQ(b.receiver_history()[0].size(), 60u);
  for (size_t q = 0; q < 60; ++q) EXPECT_NEAR(a.receiver_history()[0][q], b.receiver_history()[0][q], 1e-6);
  EXPECT_EQ(b.step(), 60);
}

TEST(Model, MovingAReceiverKeepsItsHistory) {
  WaveModel m(small_scene(), BackendChoice::Cpu);
  m.advance(10);
  m.set_receiver_position(0, {0.3, 0.5, 0.5});
  m.advance(10);
  EXPECT_EQ(m.receiver_history()[0].size(), 20u);
  EXPECT_THROW(m.set_receiver_position(0, {3.0, 0.5, 0.5}), SceneError);
}

}  // namespace
}  // namespace ws

namespace ws {
namespace {

TEST(Model, StencilSwitchKeepsTheRunGoing) {
  WaveScene s = small_scene();
  s.courant_fraction = 0.5;  // low enough for the larger stencils' limits
  WaveModel m(s, BackendChoice::Cpu);
  m.advance(20);
  const double before = m.receiver_history()[0].back();
  m.set_stencil("leggy:3");
  EXPECT_EQ(m.solver().layout().halo, 3);
  EXPECT_EQ(m.step(), 20);
  std::vector<double> u, up;
  m.solver().read_state(u, up);
  const auto& L = m.solver().layout();
  const GridIndex r = m.grid().receiver_nodes[0];
  // The field was carried over: the pressure is kept up to the energy match between the two
  // schemes (wave/stencil_switch.hpp), 4% for this pulse of about 5 points per wavelength.
  EXPECT_NEAR(u[L.index(r.i, r.j, r.k)], before, 0.06 * std::fabs(before));
  EXPECT_NE(before, 0.0);
  m.advance(20);
  EXPECT_EQ(m.receiver_history()[0].size(), 40u);
}

TEST(Model, StencilSwitchAboveItsLimitIsRefusedAndTheRunGoesOn) {
  WaveScene s = small_scene();
  s.stencil = "iwb";  // limit 1
  WaveModel m(s, BackendChoice::Cpu);
  m.advance(5);
  EXPECT_THROW(m.set_stencil("7pt"), SceneError);  // 7pt allows only 1/sqrt(3)
  EXPECT_EQ(m.grid().stencil.name, "iwb");
  m.advance(5);
  EXPECT_EQ(m.step(), 10);
}

// On the CPU the frame loop's advance is the synchronous one: nothing stays queued.
TEST(Model, AsyncAdvanceOnTheCpuAdvancesAtOnce) {
  WaveModel a(small_scene(), BackendChoice::Cpu), b(small_scene(), BackendChoice::Cpu);
  a.advance_async(37);
  EXPECT_FALSE(a.advance_in_flight());
  EXPECT_EQ(a.step(), 37);
  a.finish_advance();  // nothing to wait for
  b.advance(37);
  EXPECT_EQ(a.receiver_history(), b.receiver_history());
}

}  // namespace
}  // namespace ws
