// Pacing arithmetic with a synthetic clock.
#include <gtest/gtest.h>

#include "playback/pacer.hpp"

using namespace ws::audio;

TEST(Pacer, RealTimeStepsRefillTheRingToTarget) {
  Pacer p;
  p.set_rates(96000.0, 48000.0);  // 2 simulated samples per device frame
  // Ring holds 1000 frames, target 4000, the next frame lasts 1/60 s (800 frames).
  EXPECT_EQ(p.steps_for_frame(1000, 4000, 1.0 / 60, 1 << 20), 2 * (4000 + 800 - 1000));
  EXPECT_EQ(p.steps_for_frame(6000, 4000, 1.0 / 60, 1 << 20), 0);  // already ahead
  EXPECT_EQ(p.steps_for_frame(0, 4000, 1.0 / 60, 100), 100);       // capped
}

TEST(Pacer, MeasuresRealTimeFactor) {
  Pacer p;
  p.set_rates(48000.0, 48000.0);
  EXPECT_EQ(p.real_time_factor(), 0.0);
  double t = 10.0;
  p.on_push(480, t);  // starts the clock
  for (int i = 0; i < 100; ++i) p.on_push(120, t += 0.01);  // 12000 samples/s = 0.25 x real time
  EXPECT_NEAR(p.real_time_factor(), 0.25, 1e-9);
  EXPECT_NEAR(p.achieved_rate_hz(), 12000.0, 1e-6);
}

TEST(Pacer, SlowMotionPlaysAtTheAchievedRateGapsAtTruePitch) {
  Pacer p;
  p.set_rates(96000.0, 48000.0);
  double t = 0;
  p.on_push(0, t);
  for (int i = 0; i < 100; ++i) p.on_push(240, t += 0.01);  // 24000 samples/s = 0.25 x
  EXPECT_DOUBLE_EQ(p.playback_ratio(SlowPolicy::Gaps, 100, 4000), 0.5);
  EXPECT_NEAR(p.playback_speed(SlowPolicy::SlowMotion, 4000, 4000), 0.25, 1e-12);  // at target: exactly achieved
  EXPECT_NEAR(p.playback_ratio(SlowPolicy::SlowMotion, 4000, 4000), 2.0, 1e-12);  // 48000 / 24000
  // Fill below target plays a little slower, above a little faster.
  EXPECT_LT(p.playback_speed(SlowPolicy::SlowMotion, 0, 4000), 0.25);
  EXPECT_GT(p.playback_speed(SlowPolicy::SlowMotion, 8000, 4000), 0.25);
}
