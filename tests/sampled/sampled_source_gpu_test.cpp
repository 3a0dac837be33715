// Sampled sources on the CUDA solver: its sample windows (copied to the device once
// per 4096 steps through two pinned buffers) give the CPU reference's receivers, and
// the linearity test holds on the device too.
#include <gtest/gtest.h>

#include <iostream>

#include "common/gpu.hpp"
#include "core/cuda_check.hpp"
#include "decomp/decomposed_solver.hpp"
#include "decomp/slab_kernel.hpp"
#include "sampled_fixtures.hpp"
#include "source/sampled_sources.hpp"

namespace ws {
namespace {

using namespace ws::testing;

// 9000 steps cross two windows; the CPU and CUDA runs share nothing but the WAV file.
// Under compute-sanitizer (WS_TEST_MAX_STEPS, WS_TEST_SAMPLE_WINDOW_STEPS) the run is
// shorter and so are the windows, and it must still cross two of them.
TEST(SampledGpu, WavSourceMatchesTheCpuSolverAndTheConvolution) {
  WS_REQUIRE_GPU();
  const double rate = 8000.0, amp = 2e-3;
  const long long steps = long_run_steps(9000), delay = 25;
  ASSERT_GT(steps, 2LL * SampleWindows::window_steps()) << "the run must turn the sample window twice";
  const std::string path = write_music_wav("sampled_gpu.wav", 11025, 2, 1.0);
  for (Precision p : {Precision::Double, Precision::Float}) {
    const double tol = p == Precision::Double ? 1e-10 : 1e-4;
    const WaveScene room = sampled_room(rate, p);
    const auto cpu = run_scene(with_samples(room, std::make_shared<audio::WavSampleStream>(path, rate), amp, delay / rate),
                               BackendChoice::Cpu, steps);
    const auto gpu = run_scene(with_samples(room, std::make_shared<audio::WavSampleStream>(path, rate), amp, delay / rate),
                               BackendChoice::Cuda, steps);
    const auto h = run_scene(with_samples(room, std::make_shared<BufferSampleStream>(std::vector<float>{1.0f}), 1.0, 0.0),
                             BackendChoice::Cuda, steps);
    audio::WavSampleStream fresh(path, rate);
    const auto y = read_all(fresh, 0, (size_t)fresh.length());
    for (size_t r = 0; r < 2; ++r) {
      ASSERT_EQ(gpu[r].size(), (size_t)steps);
      const double peak = max_abs(cpu[r]);
      ASSERT_GT(peak, 0.0);
      const auto want = convolve(y, h[r], delay, amp, (size_t)steps);
      const double vs_cpu = max_abs_diff(gpu[r], cpu[r]) / peak, vs_conv = max_abs_diff(gpu[r], want) / peak;
      std::cout << to_string(p) << " receiver " << r << ": max |gpu - cpu| / peak = " << vs_cpu
                << ", max |gpu - convolution| / peak = " << vs_conv << "\n";
      EXPECT_LT(vs_cpu, tol) << to_string(p) << " receiver " << r;
      EXPECT_LT(vs_conv, tol) << to_string(p) << " receiver " << r;
    }
  }
}

// Two sources share one stream at different delays (two tracks) beside an analytic
// source; one long advance of 10000 steps refills the device window inside the advance
// (shorter runs and windows under compute-sanitizer, as above).
TEST(SampledGpu, TracksAndWindowsInOneLongAdvance) {
  WS_REQUIRE_GPU();
  const double rate = 8000.0;
  const long long steps = long_run_steps(10000);
  ASSERT_GT(steps, 2LL * SampleWindows::window_steps()) << "the advance must turn the sample window twice";
  const std::string path = write_music_wav("sampled_gpu_tracks.wav", 8000, 1, 1.5);
  auto stream = std::make_shared<audio::WavSampleStream>(path, rate);
  WaveScene s = with_samples(sampled_room(rate, Precision::Double), stream, 1e-3, 0.0);
  SourceSpec second = s.sources[0];
  second.position_m = {0.35, 0.3, 0.25};
  second.signal.delay_s = 700 / rate;
  s.sources.push_back(second);
  SourceSpec pulse;
  pulse.position_m = {0.3, 0.1, 0.1};
  s.sources.push_back(pulse);
  std::vector<std::vector<double>> got[2];
  for (int b = 0; b < 2; ++b) {
    WaveModel m(s, b == 0 ? BackendChoice::Cpu : BackendChoice::Cuda);
    m.solver().advance(steps);  // one solver advance: the windows turn inside it
    got[b] = m.solver().take_receiver_samples();
  }
  for (size_t r = 0; r < 2; ++r) {
    ASSERT_EQ(got[1][r].size(), (size_t)steps);
    EXPECT_LT(max_abs_diff(got[1][r], got[0][r]), 1e-10 * max_abs(got[0][r])) << r;
  }
}

// Sampled sources on z-slabs (two on one GPU; one on each of two GPUs where present): the
// slabs replay their step graph in runs of up to 128 steps, the sample windows turn between
// replays, and the receivers equal one GPU's with the same kernel bit for bit.
TEST(SampledGpu, WavSourcesOnSlabsMatchOneGpuBitForBit) {
  WS_REQUIRE_GPU();
  const double rate = 24000.0;
  const long long steps = long_run_steps(9000);
  ASSERT_GT(steps, 2LL * SampleWindows::window_steps()) << "the run must turn the sample window twice";
  const std::string path = write_music_wav("sampled_slabs.wav", 24000, 1, 0.5);
  auto scene = [&] {
    WaveScene s = with_samples(sampled_room(rate, Precision::Float),
                               std::make_shared<audio::WavSampleStream>(path, rate), 1e-3, 0.0);
    SourceSpec second = s.sources[0];
    second.position_m = {0.35, 0.3, 0.3};
    second.signal.delay_s = 700 / rate;
    s.sources.push_back(second);
    return s;
  };
  const WaveScene s = scene();
  const std::string kernel = slab_kernel(make_stencil(s.stencil), s.precision, "");
  WaveModel one(scene(), BackendChoice::Cuda, kernel);
  const auto ref = advance_in_chunks(one, steps);
  ASSERT_GT(max_abs(ref[0]), 0.0);
  int count = 0;
  CUDA_CHECK(cudaGetDeviceCount(&count));
  std::vector<std::vector<int>> placements = {{0, 0}};
  if (count >= 2) placements.push_back({0, 1});
  for (const auto& devices : placements) {
    SCOPED_TRACE("devices " + std::to_string(devices[0]) + "," + std::to_string(devices[1]));
    DecompOptions d;
    d.slabs_per_process = (int)devices.size();
    d.devices = devices;
    WaveModel many(scene(), BackendChoice::Cuda, kernel, d);
    const auto got = advance_in_chunks(many, steps);
    const DecompGraphUse use = decomp_graph_use(many.solver());
    EXPECT_TRUE(use.replayed) << use.note;
    ASSERT_EQ(got.size(), ref.size());
    for (size_t r = 0; r < ref.size(); ++r) EXPECT_EQ(got[r], ref[r]) << "receiver " << r;
  }
}

}  // namespace
}  // namespace ws
