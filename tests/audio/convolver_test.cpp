// Uniformly partitioned FFT convolution against direct convolution.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "dsp/partitioned_convolver.hpp"
#include "playback/auralizer.hpp"

using namespace ws::audio;

namespace {
void check_against_direct(size_t x_len, size_t h_len, int block) {
  std::mt19937 rng(7 + block);
  std::normal_distribution<double> g;
  std::vector<double> x(x_len), h(h_len);
  for (auto& v : x) v = g(rng);
  for (size_t i = 0; i < h_len; ++i) h[i] = g(rng) * std::exp(-3.0 * i / h_len);  // a decaying "room"
  const auto ref = direct_convolution(x, h);
  PartitionedConvolver conv(std::vector<float>(h.begin(), h.end()), block);
  // Stream x plus enough zeros to flush the tail, block by block.
  const size_t total = ((x_len + h_len - 1 + block - 1) / block) * block;
  std::vector<float> in(total, 0.0f), out(total, 0.0f);
  for (size_t i = 0; i < x_len; ++i) in[i] = (float)x[i];
  for (size_t b = 0; b < total; b += block) conv.process_block(in.data() + b, out.data() + b);
  double max_ref = 0, max_err = 0;
  for (size_t i = 0; i < ref.size(); ++i) {
    max_ref = std::max(max_ref, std::fabs(ref[i]));
    max_err = std::max(max_err, std::fabs(ref[i] - out[i]));
  }
  for (size_t i = ref.size(); i < total; ++i) max_err = std::max(max_err, (double)std::fabs(out[i]));
  EXPECT_LT(max_err / max_ref, 2e-5) << "x " << x_len << " h " << h_len << " block " << block << " partitions "
                                     << conv.partitions();
}
}  // namespace

TEST(PartitionedConvolver, MatchesDirectConvolution) {
  check_against_direct(5000, 1234, 64);    // many partitions, last one partial
  check_against_direct(3000, 256, 256);    // exactly one partition
  check_against_direct(4000, 2000, 100);   // block not a power of two
  check_against_direct(777, 5, 128);       // IR shorter than a block
  check_against_direct(2048, 4096, 1);     // block of one sample
}

TEST(PartitionedConvolver, ResetClearsHistory) {
  PartitionedConvolver c({1.0f, 0.5f, 0.25f}, 4);
  float one[4] = {1, 0, 0, 0}, out[4];
  c.process_block(one, out);
  EXPECT_FLOAT_EQ(out[1], 0.5f);
  c.reset();
  float zero[4] = {0, 0, 0, 0};
  c.process_block(zero, out);
  for (float v : out) EXPECT_NEAR(v, 0.0f, 1e-7);
  EXPECT_THROW(PartitionedConvolver({}, 4), std::invalid_argument);
}

// The auralizer convolving a click train reproduces the (unit-energy) IR at
// each click.
TEST(Auralizer, ClickTrainGivesCopiesOfTheImpulseResponse) {
  std::vector<float> ir(300);
  for (size_t i = 0; i < ir.size(); ++i) ir[i] = (float)(std::sin(0.3 * i) * std::exp(-0.02 * i));
  Auralizer a;
  a.set_impulse_response({ir}, 48000.0);
  DryParams p;
  p.kind = DryKind::ClickTrain;
  p.amplitude = 1.0;
  p.repeat_period_s = 0.01;  // 480 samples
  a.set_dry(p);
  a.prepare(48000.0, 2, 64);
  std::vector<float> out(64 * 2 * 30);
  for (int b = 0; b < 30; ++b) a.render_block(out.data() + b * 128);
  double e = 0;
  for (float v : ir) e += (double)v * v;
  const float s = (float)(1.0 / std::sqrt(e));
  for (size_t i = 0; i < 480 * 3; ++i) {
    const size_t k = i % 480;
    const float want = k < ir.size() ? ir[k] * s : 0.0f;
    ASSERT_NEAR(out[2 * i], want, 1e-4) << i;
    ASSERT_NEAR(out[2 * i + 1], want, 1e-4) << i;  // a mono IR feeds both ears
  }
}
