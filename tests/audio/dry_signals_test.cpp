// Dry signals: each one has the property its name promises.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "dsp/dry_signals.hpp"
#include "dsp/spectrum.hpp"

using namespace ws::audio;

namespace {
std::vector<float> gen(const DryParams& p, size_t n, double rate = 48000.0) {
  DryGenerator g(p, rate);
  std::vector<float> x(n);
  // In uneven blocks, as the auralizer asks for them.
  for (size_t i = 0; i < n;) {
    const size_t b = std::min<size_t>(n - i, 100 + i % 300);
    g.generate(x.data() + i, b);
    i += b;
  }
  return x;
}
}  // namespace

TEST(DrySignals, ClickTrainHasItsPeriod) {
  DryParams p;
  p.repeat_period_s = 0.1;
  const auto x = gen(p, 48000);
  for (size_t i = 0; i < x.size(); ++i) ASSERT_EQ(x[i], i % 4800 == 0 ? 0.5f : 0.0f) << i;
}

TEST(DrySignals, PluckedStringHasItsPitch) {
  DryParams p;
  p.kind = DryKind::PluckedString;
  p.string_frequency_hz = 200.0;  // period 240 samples at 48 kHz
  p.repeat_period_s = 2.0;
  const auto x = gen(p, 24000);
  // Autocorrelation peaks at the loop length.
  auto ac = [&](size_t lag) {
    double s = 0;
    for (size_t i = 2000; i < 20000; ++i) s += (double)x[i] * x[i + lag];
    return s;
  };
  size_t best = 0;
  double best_v = -1e30;
  for (size_t lag = 100; lag < 400; ++lag)
    if (ac(lag) > best_v) best_v = ac(lag), best = lag;
  EXPECT_NEAR((double)best, 240.0, 1.0);
  // It decays: the last quarter is quieter than the first.
  double e0 = 0, e1 = 0;
  for (size_t i = 0; i < 6000; ++i) e0 += x[i] * x[i], e1 += x[18000 + i] * x[18000 + i];
  EXPECT_LT(e1, 0.5 * e0);
}

TEST(DrySignals, ChirpAndBurstsAreBoundedAndSmoothAtEdges) {
  DryParams p;
  p.kind = DryKind::Chirp;
  p.chirp_start_hz = 100;
  p.chirp_end_hz = 2000;
  p.chirp_length_s = 0.5;
  const auto c = gen(p, 48000);
  float peak = 0;
  for (float v : c) peak = std::max(peak, std::fabs(v));
  EXPECT_LE(peak, 0.5f + 1e-6f);
  EXPECT_GT(peak, 0.45f);
  EXPECT_LT(std::fabs(c[1]), 0.01f);                       // starts from zero
  for (size_t i = 24000; i < 48000; ++i) ASSERT_EQ(c[i], 0.0f);  // silence after the sweep
  // Its spectrum spans the sweep: energy at 1 kHz, little at 5 kHz.
  SpectrumAnalyzer s(8192);
  s.push(c.data() + 4000, 8192);
  s.compute();
  const auto& db = s.magnitude_db();
  const double bin = 48000.0 / 8192;
  EXPECT_GT(db[(size_t)(1000 / bin)] - db[(size_t)(5000 / bin)], 30.0);

  p.kind = DryKind::NoiseBursts;
  p.burst_length_s = 0.05;
  p.repeat_period_s = 0.2;
  const auto b = gen(p, 48000);
  for (size_t i = 0; i < b.size(); ++i) {
    const size_t k = i % 9600;
    if (k >= 2400) ASSERT_EQ(b[i], 0.0f) << i;
  }
  EXPECT_THROW(DryGenerator(DryParams{DryKind::PluckedString, 0.5, 1.0, 50, 8000, 0.7, 5.0}, 48000), std::invalid_argument);
}

TEST(Spectrum, FullScaleSineReadsZeroDbAtItsBin) {
  SpectrumAnalyzer s(4096);
  const double rate = 32000;  // 1 kHz is bin 128 of 4096 at 32 kHz (7.8125 Hz per bin)
  std::vector<float> x(4096);
  for (size_t i = 0; i < x.size(); ++i) x[i] = (float)std::sin(2 * M_PI * 1000.0 * i / rate);
  s.push(x.data(), x.size());
  s.compute();
  EXPECT_NEAR(s.magnitude_db()[128], 0.0, 0.1);
  EXPECT_LT(s.magnitude_db()[400], -100.0);
}
