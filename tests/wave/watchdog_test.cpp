// The watchdog names what grew: fed synthetic sequences of (mean, peak), and run
// on rooms that really drift (a "scheme" source whose signal has a non-zero sum in
// a closed rigid room ramps the mean) or stay put (the same pulse as a volume velocity).
#include <gtest/gtest.h>

#include <cmath>

#include "scene_builders.hpp"
#include "wave/watchdog.hpp"
#include "wave/wave_model.hpp"

namespace ws {
namespace {

FieldStats stats(double mean, double peak) { return {mean, peak, true}; }

TEST(Watchdog, QuietDuringTheSourceWhateverTheField) {
  Watchdog w(1000);
  for (long long s = 256; s < 1000; s += 256) EXPECT_FALSE(w.check(s, stats(s * 0.1, s * 10.0)));
}

TEST(Watchdog, NonFiniteFieldTripsAnyTime) {
  Watchdog w(1000000);
  EXPECT_FALSE(w.check(256, stats(0.0, 1.0)));
  auto m = w.check(512, {NAN, INFINITY, false});
  ASSERT_TRUE(m);
  EXPECT_NE(m->find("stopped being finite between step 256"), std::string::npos) << *m;
  EXPECT_NE(m->find("Courant"), std::string::npos) << *m;
}

TEST(Watchdog, PeakGrowthAfterTheSourcesEndedIsAnUnstableMode) {
  Watchdog w(300);
  EXPECT_FALSE(w.check(256, stats(0.0, 2.0)));
  EXPECT_FALSE(w.check(512, stats(0.0, 1.0)));  // first quiet check: the reference
  EXPECT_FALSE(w.check(768, stats(0.0, 5.0)));  // a focus, below 10x
  auto m = w.check(1024, stats(0.01, 25.0));
  ASSERT_TRUE(m);
  EXPECT_NE(m->find("grew from 2 "), std::string::npos) << *m;
  EXPECT_NE(m->find("unstable mode"), std::string::npos) << *m;
}

TEST(Watchdog, GrowingMeanIsAZeroMode) {
  Watchdog w(0);
  double mean = 0.001;
  std::optional<std::string> m;
  EXPECT_FALSE(w.check(256, stats(0.0, 1.0)));
  for (long long s = 512; s < 256 * 60 && !m; s += 256, mean *= 1.6) m = w.check(s, stats(mean, std::fabs(mean) + 0.5));
  ASSERT_TRUE(m);
  EXPECT_NE(m->find("zero mode"), std::string::npos) << *m;
}

TEST(Watchdog, LinearMeanIsADcRamp) {
  Watchdog w(0);
  std::optional<std::string> m;
  EXPECT_FALSE(w.check(256, stats(0.0, 1.0)));
  long long s = 512;
  for (; s < 256 * 100 && !m; s += 256) m = w.check(s, stats(0.01 * (s / 256), 0.5 + 0.01 * (s / 256)));
  ASSERT_TRUE(m);
  EXPECT_NE(m->find("DC ramp"), std::string::npos) << *m;
  EXPECT_NE(m->find("from 0 at step 256"), std::string::npos) << *m;
  EXPECT_LT(s, 256 * 40);  // 0.25 of the peak: within 26 checks
}

TEST(Watchdog, ConstantOffsetAndDecayAreFine) {
  Watchdog w(0);
  EXPECT_FALSE(w.check(256, stats(0.3, 1.0)));
  for (long long s = 512; s < 256 * 200; s += 256)
    EXPECT_FALSE(w.check(s, stats(0.3 + 1e-7 * std::sin(s * 0.1), std::exp(-s * 1e-4))));
}

WaveScene rigid_cube(double side_m, Precision p) {
  WaveScene s = testing::cube_scene(side_m, 8000.0, p);
  s.walls.fill(WallCondition::rigid());
  return s;
}

TEST(Watchdog, SchemeSourceWithNonZeroSumRampsAndStopsTheModel) {
  WaveScene s = rigid_cube(0.5, Precision::Double);
  SourceSpec src{{0.2, 0.2, 0.2}, {SignalKind::RaisedCosine, 1.0, 1e-3, 0.0, 0.0}, SourceQuantity::Scheme,
                 Injection::Value};
  s.sources.push_back(src);
  s.receivers.push_back({"r", {0.3, 0.3, 0.3}});
  WaveModel m(s, BackendChoice::Cpu);
  try {
    m.advance(200000);
    FAIL() << "the DC ramp was not caught; mean " << m.solver().field_stats().mean;
  } catch (const BlowUpError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("DC ramp"), std::string::npos) << what;
    EXPECT_NE(what.find("scheme"), std::string::npos) << what;
    EXPECT_LT(m.step(), 200000);
    EXPECT_EQ((long long)m.receiver_history()[0].size(), m.step());  // nothing recorded is lost
  }
}

TEST(Watchdog, TheSamePulseAsAVolumeVelocityDoesNotTrip) {
  for (Injection how : {Injection::Difference}) {
    WaveScene s = rigid_cube(0.5, Precision::Float);
    SourceSpec src{{0.2, 0.2, 0.2}, {SignalKind::RaisedCosine, 1e-4, 1e-3, 0.0, 0.0}};
    s.sources.push_back(src);
    WaveModel m(s, BackendChoice::Cpu);
    EXPECT_NO_THROW(m.advance(100000)) << to_string(how);
    s.sources[0].quantity = SourceQuantity::Scheme;
    s.sources[0].injection = how;
    WaveModel m2(s, BackendChoice::Cpu);
    EXPECT_NO_THROW(m2.advance(100000)) << "scheme source injected as its difference";
  }
}

}  // namespace
}  // namespace ws
