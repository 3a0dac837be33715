// The callback's processing without a device: gaps fade (no clicks), the DC
// blocker, gain and mute, the limiter's bound, and the meters.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "playback/output_chain.hpp"

using namespace ws::audio;

namespace {
constexpr double kRate = 48000.0;

struct Rig {
  SpscRing<float> ring{1 << 16};
  OutputControls ctl;
  OutputMeters met;
  OutputChain chain{1, kRate};
  size_t t = 0;  // sine phase counter on the producer side
  double now_s = 0.0;  // the stream clock
  void feed(size_t n, double f_hz = 440.0, double amp = 0.5) {
    std::vector<float> x(n);
    for (auto& v : x) v = (float)(amp * std::sin(2 * M_PI * f_hz * (t++) / kRate));
    ring.write(x.data(), n);
  }
  std::vector<float> pull(size_t n) {
    std::vector<float> y(n);
    chain.process(ring, y.data(), n, ctl, met, (now_s += n / kRate));
    return y;
  }
};

float max_step(const std::vector<float>& y) {
  float m = 0;
  for (size_t i = 1; i < y.size(); ++i) m = std::max(m, std::fabs(y[i] - y[i - 1]));
  return m;
}
}  // namespace

TEST(OutputChain, PassesSignalThroughAtUnitGain) {
  Rig r;
  r.feed(48000);
  std::vector<float> all;
  for (int b = 0; b < 180; ++b) {
    auto y = r.pull(256);
    all.insert(all.end(), y.begin(), y.end());
  }
  // After the fade-in and the blocker's settling, a 440 Hz sine is unchanged
  // in level (10 Hz corner: -0.0023 dB at 440 Hz).
  float peak = 0;
  for (size_t i = 24000; i < all.size(); ++i) peak = std::max(peak, std::fabs(all[i]));
  EXPECT_NEAR(peak, 0.5f, 0.01f);
  EXPECT_EQ(r.met.gaps.load(), 0u);
  EXPECT_EQ(r.met.frames_played.load(), 180u * 256u);
}

TEST(OutputChain, StarvedRingFadesOutAndInWithoutClicks) {
  Rig r;
  std::vector<float> all;
  // Irregular feeding: sometimes more than a block, sometimes nothing.
  // 3150 frames per 20 blocks of 256 (5120): the ring starves again and again.
  const int feeds[] = {2000, 0, 0, 100, 0, 0, 50, 0, 0, 0, 700, 0, 0, 0, 0, 0, 300, 0, 0, 0};
  for (int k = 0; k < 200; ++k) {
    r.feed(feeds[k % 20]);
    auto y = r.pull(256);
    all.insert(all.end(), y.begin(), y.end());
  }
  EXPECT_GT(r.met.gaps.load(), 3u);
  EXPECT_GT(r.met.silent_frames.load(), 0u);
  // The largest sample-to-sample step of the 440 Hz, 0.5 sine is 2 pi 440/48000 * 0.5 = 0.029;
  // a hard cut at a peak would be a step of up to 0.5. Fades keep it near the sine's own slope.
  EXPECT_LT(max_step(all), 0.045f);
}

TEST(OutputChain, LimiterBoundsLoudInputAndMuteSilences) {
  Rig r;
  r.ctl.gain.store(20.0f);  // +26 dB on a 0.5 sine: 10x full scale
  r.feed(30000);
  std::vector<float> y;
  for (int b = 0; b < 100; ++b) {
    auto z = r.pull(256);
    y.insert(y.end(), z.begin(), z.end());
  }
  for (float v : y) ASSERT_LE(std::fabs(v), 1.0f);
  EXPECT_GT(r.met.limited_frames.load(), 0u);
  EXPECT_GT(r.met.take_peak(), 0.95f);
  EXPECT_EQ(r.met.take_peak(), 0.0f);  // taken
  r.ctl.mute.store(true);
  r.feed(30000);
  for (int b = 0; b < 40; ++b) r.pull(256);  // the gain glides down (10 ms time constant), then snaps to 0
  auto z = r.pull(256);
  for (float v : z) EXPECT_NEAR(v, 0.0f, 1e-6f);
}

TEST(OutputChain, DcBlockerRemovesOffset) {
  Rig r;
  std::vector<float> dc(48000, 0.3f);
  r.ring.write(dc.data(), dc.size());
  std::vector<float> y;
  for (int b = 0; b < 150; ++b) {
    auto z = r.pull(256);
    y.insert(y.end(), z.begin(), z.end());
  }
  // 10 Hz corner: time constant 16 ms; after 0.5 s nothing of the offset remains.
  EXPECT_LT(std::fabs(y[24000]), 1e-4f);
  EXPECT_LT(std::fabs(y.back()), 1e-4f);
}

TEST(OutputChain, SoftLimitIsIdentityBelowKneeAndBelowOneAbove) {
  EXPECT_EQ(soft_limit(0.5f), 0.5f);
  EXPECT_EQ(soft_limit(-0.8f), -0.8f);
  EXPECT_LE(soft_limit(100.0f), 1.0f);
  EXPECT_LT(soft_limit(1.2f), 1.0f);
  EXPECT_GT(soft_limit(100.0f), 0.99f);
  EXPECT_EQ(soft_limit(-3.0f), -soft_limit(3.0f));
  float prev = 0;
  for (float x = 0; x < 5; x += 0.01f) {  // monotonic
    EXPECT_GE(soft_limit(x), prev);
    prev = soft_limit(x);
  }
}

TEST(OutputChain, StereoKeepsChannelsApart) {
  SpscRing<float> ring(1 << 12);
  OutputControls ctl;
  OutputMeters met;
  OutputChain chain(2, kRate);
  std::vector<float> x(2 * 2000);
  for (int i = 0; i < 2000; ++i) x[2 * i] = 0.5f * (float)std::sin(0.05 * i), x[2 * i + 1] = 0.0f;
  ring.write(x.data(), x.size());
  std::vector<float> y(2 * 1000);
  chain.process(ring, y.data(), 1000, ctl, met, 0.0);
  float left = 0, right = 0;
  for (int i = 0; i < 1000; ++i) left = std::max(left, std::fabs(y[2 * i])), right = std::max(right, std::fabs(y[2 * i + 1]));
  EXPECT_GT(left, 0.3f);  // the gain glides up from 0 over the first ~20 ms
  EXPECT_EQ(right, 0.0f);
  EXPECT_THROW(OutputChain(3, kRate), std::invalid_argument);
}

TEST(OutputChain, ShortTailPlaysOnceTheProducerStops) {
  Rig r;
  r.ctl.resume_frames.store(4800);  // normally wait for 100 ms of audio
  r.feed(300);                      // but the simulation paused after 300 frames
  std::vector<float> all;
  for (int b = 0; b < 30; ++b) {  // 30 blocks = 160 ms of stream time
    auto y = r.pull(256);
    all.insert(all.end(), y.begin(), y.end());
  }
  EXPECT_EQ(r.ring.read_available(), 0u) << "the tail was played out after 100 ms without new data";
  float peak = 0;
  for (float v : all) peak = std::max(peak, std::fabs(v));
  EXPECT_GT(peak, 0.1f);
  EXPECT_LT(max_step(all), 0.045f);  // faded in and out
  EXPECT_EQ(all.front(), 0.0f);
  EXPECT_NEAR(all.back(), 0.0f, 1e-3f);  // silence after the tail (the DC blocker's decay aside)
  EXPECT_EQ(r.met.gaps.load(), 1u);      // played as one piece
}
