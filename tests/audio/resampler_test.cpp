// libsamplerate streaming: pitch is kept, and content above the new Nyquist
// frequency is removed rather than folded back.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "dsp/resampler.hpp"

using namespace ws::audio;

namespace {
std::vector<float> sine(double f_hz, double rate_hz, size_t n, double amp = 0.5) {
  std::vector<float> x(n);
  for (size_t i = 0; i < n; ++i) x[i] = (float)(amp * std::sin(2 * M_PI * f_hz * i / rate_hz));
  return x;
}

// Frequency from the mean interval between upward zero crossings (interpolated).
double zero_crossing_frequency(const std::vector<float>& x, double rate_hz, size_t skip) {
  double first = -1, last = -1;
  int count = 0;
  for (size_t i = skip + 1; i + skip < x.size(); ++i)
    if (x[i - 1] < 0 && x[i] >= 0) {
      const double t = (i - 1) + x[i - 1] / (x[i - 1] - x[i]);
      if (first < 0) first = t; else ++count;
      last = t;
    }
  return count > 0 ? count * rate_hz / (last - first) : 0.0;
}

double rms(const std::vector<float>& x, size_t skip) {
  double s = 0;
  size_t n = 0;
  for (size_t i = skip; i + skip < x.size(); ++i, ++n) s += (double)x[i] * x[i];
  return std::sqrt(s / n);
}

// Streams x through the resampler in uneven chunks, as frames would.
std::vector<float> stream(const std::vector<float>& x, double ratio, ResampleQuality q) {
  StreamResampler r(1, q);
  std::vector<float> out;
  size_t i = 0, k = 0;
  while (i < x.size()) {
    const size_t n = std::min<size_t>(x.size() - i, 100 + 37 * (k++ % 11));
    r.process(x.data() + i, (long)n, ratio, out);
    i += n;
  }
  return out;
}
}  // namespace

TEST(Resampler, SineKeepsItsFrequencyDown96kTo48k) {
  const auto y = stream(sine(1000.0, 96000, 96000), 0.5, ResampleQuality::Best);
  EXPECT_NEAR((double)y.size(), 48000.0, 200.0);
  EXPECT_NEAR(zero_crossing_frequency(y, 48000, 2000), 1000.0, 0.05);
  EXPECT_NEAR(rms(y, 2000), 0.5 / std::sqrt(2.0), 0.005);
}

TEST(Resampler, SineKeepsItsFrequencyUp44k1To48kAllQualities) {
  for (auto q : {ResampleQuality::Best, ResampleQuality::Medium, ResampleQuality::Fastest, ResampleQuality::Linear}) {
    const auto y = stream(sine(440.0, 44100, 44100), 48000.0 / 44100.0, q);
    EXPECT_NEAR(zero_crossing_frequency(y, 48000, 2000), 440.0, 0.05) << resample_quality_name(q);
  }
}

TEST(Resampler, EnergyAboveNewNyquistIsSuppressed) {
  // 30 kHz at 96 kHz is above the 24 kHz Nyquist of 48 kHz: a naive decimator
  // would fold it to 18 kHz at full level; the sinc converter must remove it.
  const auto y = stream(sine(30000.0, 96000, 96000), 0.5, ResampleQuality::Best);
  EXPECT_LT(20 * std::log10(rms(y, 2000) / (0.5 / std::sqrt(2.0))), -80.0);
  const auto m = stream(sine(30000.0, 96000, 96000), 0.5, ResampleQuality::Medium);
  EXPECT_LT(20 * std::log10(rms(m, 2000) / (0.5 / std::sqrt(2.0))), -60.0);
  // And a 10 kHz tone next to it survives at its level.
  auto mix = sine(30000.0, 96000, 96000);
  const auto low = sine(10000.0, 96000, 96000);
  for (size_t i = 0; i < mix.size(); ++i) mix[i] += low[i];
  const auto z = stream(mix, 0.5, ResampleQuality::Best);
  EXPECT_NEAR(rms(z, 2000), 0.5 / std::sqrt(2.0), 0.005);
}

TEST(Resampler, OfflineMatchesLengthAndRejectsBadRatio) {
  const auto x = sine(100.0, 8000, 8000);
  const auto y = resample_offline(x, 1, 6.0);
  EXPECT_NEAR((double)y.size(), 48000.0, 10.0);
  EXPECT_NEAR(zero_crossing_frequency(y, 48000, 2000), 100.0, 0.05);
  StreamResampler r(1, ResampleQuality::Best);
  std::vector<float> out;
  EXPECT_THROW(r.process(x.data(), 10, 1000.0, out), std::invalid_argument);
  EXPECT_THROW(parse_resample_quality("great"), std::invalid_argument);
  EXPECT_EQ(parse_resample_quality("zoh"), ResampleQuality::ZeroOrderHold);
}
