// Sampled source signals (WAV files, dry signals): the streams, the resampling to
// the simulation rate, the scene keys and their refusals, and the linearity test:
// a run playing a WAV equals the convolution of the resampled WAV with the same
// scene's response to one unit sample.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <fstream>

#include "dsp/resampler.hpp"
#include "sampled_fixtures.hpp"
#include "scene/scene_json.hpp"
#include "source/sampled_sources.hpp"

namespace ws {
namespace {

using namespace ws::testing;

TEST(SampleStream, ReadsForwardBackwardAndPastTheEnds) {
  std::vector<float> x(100000);
  for (size_t i = 0; i < x.size(); ++i) x[i] = (float)(i % 977) + 1.0f;
  BufferSampleStream s(x);
  EXPECT_EQ(s.length(), 100000);
  // Before the start and past the end: zeros.
  const auto a = read_all(s, -3, 6);
  EXPECT_EQ(a, (std::vector<float>{0, 0, 0, x[0], x[1], x[2]}));
  const auto b = read_all(s, 99998, 4);
  EXPECT_EQ(b, (std::vector<float>{x[99998], x[99999], 0, 0}));
  // Far back (before the kept history): the producer restarts and the values are the same.
  const auto c = read_all(s, 10, 5000);
  for (size_t i = 0; i < c.size(); ++i) ASSERT_EQ(c[i], x[10 + i]) << i;
  // Overlapping windows in uneven steps, as the solvers read them.
  for (long long first = 0; first < 90000; first += 4095) {
    const auto w = read_all(s, first - 1, 4097);
    for (size_t i = 0; i < w.size(); ++i)
      ASSERT_EQ(w[i], first - 1 + (long long)i < 0 ? 0.0f : x[first - 1 + i]) << first << " " << i;
  }
}

TEST(SampleStream, StartAndEndSteps) {
  SourceSignal s;
  s.kind = SignalKind::Sampled;
  const double dt = 1.0 / 8000;
  EXPECT_EQ(sampled_start_step(s, dt), 0);
  s.delay_s = 25 * dt;
  EXPECT_EQ(sampled_start_step(s, dt), 25);  // exactly k T: step k
  s.delay_s = 25.2 * dt;
  EXPECT_EQ(sampled_start_step(s, dt), 26);  // the first step at or after the delay
  BufferSampleStream b(std::vector<float>(100, 1.0f));
  EXPECT_DOUBLE_EQ(sampled_end_s(s, b, dt), (26 + 100 + 1) * dt);
}

// The resampled WAV is the WAV at the simulation rate: a tone keeps its frequency in
// hertz, the length follows the ratio, and streaming in blocks equals converting at once.
TEST(WavSampleStream, ResamplesToTheSimulationRate) {
  const int file_rate = 44100;
  const double sim_rate = 32000.0, f = 1000.0;
  audio::AudioClip c;
  c.sample_rate_hz = file_rate;
  c.channels = 1;
  for (int i = 0; i < file_rate / 2; ++i) c.interleaved.push_back((float)(0.5 * std::sin(2 * M_PI * f * i / file_rate)));
  const std::string path = sampled_tmp("sampled_tone.wav");
  audio::write_float_wav(path, c);
  audio::WavSampleStream s(path, sim_rate);
  EXPECT_EQ(s.length(), (long long)std::ceil(file_rate / 2 * sim_rate / file_rate - 1e-9));
  EXPECT_EQ(s.length(), 16000);
  const auto y = read_all(s, 0, (size_t)s.length() + 50);
  // Away from the ends (the converter's filter sees the edges), the tone at 32 kHz.
  double err = 0.0;
  for (size_t n = 200; n + 200 < (size_t)s.length(); ++n)
    err = std::max(err, std::fabs(y[n] - 0.5 * std::sin(2 * M_PI * f * n / sim_rate)));
  EXPECT_LT(err, 1e-4);
  for (size_t n = (size_t)s.length(); n < y.size(); ++n) ASSERT_EQ(y[n], 0.0f);
  // libsamplerate on the whole signal at once gives the same samples.
  const auto whole = audio::resample_offline(c.interleaved, 1, sim_rate / file_rate);
  double diff = 0.0;
  for (size_t n = 0; n < std::min(whole.size(), (size_t)s.length()); ++n) diff = std::max(diff, (double)std::fabs(whole[n] - y[n]));
  EXPECT_LT(diff, 1e-6);
  // Read again in small uneven blocks after a restart: identical.
  std::vector<float> again;
  for (long long first = 0; first < s.length();) {
    const size_t n = 37 + (size_t)(first % 101);
    auto b = read_all(s, first, n);
    again.insert(again.end(), b.begin(), b.end());
    first += (long long)n;
  }
  for (size_t n = 0; n < (size_t)s.length(); ++n) ASSERT_EQ(again[n], y[n]) << n;
}

TEST(WavSampleStream, SameRatePassesSamplesThroughAndStereoMixesToMono) {
  const auto c = music_clip(8000, 2, 0.25);
  const std::string path = sampled_tmp("sampled_stereo.wav");
  audio::write_float_wav(path, c);
  audio::WavSampleStream s(path, 8000.0);
  EXPECT_EQ(s.file_channels(), 2);
  ASSERT_EQ(s.length(), 2000);
  const auto y = read_all(s, 0, 2000);
  // Channels v and v / 2: the mono mixdown is their mean, 0.75 v, sample for sample.
  for (size_t n = 0; n < 2000; ++n) ASSERT_EQ(y[n], (c.interleaved[2 * n] + c.interleaved[2 * n + 1]) / 2) << n;
}

TEST(WavSampleStream, RefusesAMissingFileARatioTooFarAndNonAudio) {
  try {
    audio::WavSampleStream s(sampled_tmp("no_such_music.wav"), 8000.0);
    FAIL() << "a missing file was accepted";
  } catch (const audio::WavError& e) {
    EXPECT_NE(std::string(e.what()).find("no_such_music.wav"), std::string::npos) << e.what();
  }
  const std::string path = write_music_wav("sampled_8k.wav", 8000, 1, 0.05);
  try {
    audio::WavSampleStream s(path, 8000.0 * 300);
    FAIL() << "a ratio of 300 was accepted";
  } catch (const audio::WavError& e) {
    EXPECT_NE(std::string(e.what()).find("sampled_8k.wav"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("256"), std::string::npos) << e.what();
  }
  const std::string text = sampled_tmp("sampled_not_audio.wav");
  std::ofstream(text) << "this is not a WAV file";
  EXPECT_THROW(audio::WavSampleStream(text, 8000.0), audio::WavError);
}

// Power of x at f_hz (a direct DFT term).
double power_at(const std::vector<float>& x, double f_hz, double rate_hz) {
  double re = 0.0, im = 0.0;
  for (size_t n = 0; n < x.size(); ++n) {
    re += x[n] * std::cos(2 * M_PI * f_hz * n / rate_hz);
    im -= x[n] * std::sin(2 * M_PI * f_hz * n / rate_hz);
  }
  return re * re + im * im;
}

// The dry signals keep their period at the simulation rate and leave the top half of its
// band empty (generated at half the rate, converted up), and a read before the history
// regenerates them identically.
TEST(DrySampleStream, BandLimitedAtTheSimulationRateAndRestarts) {
  const double rate = 16000.0;
  audio::DrySampleStream s("click_train", rate);
  EXPECT_EQ(s.length(), -1);
  const auto y = read_all(s, 0, 48000);
  for (size_t k = 0; k < 3; ++k) {  // a click per second, on its sample, peak about 1
    size_t at = k * 16000;
    for (size_t n = k * 16000; n < (k + 1) * 16000; ++n)
      if (std::fabs(y[n]) > std::fabs(y[at])) at = n;
    EXPECT_EQ(at, k * 16000) << k;
    EXPECT_GT(y[at], 0.9f) << k;
  }
  // Power in the lower and upper quarter of the band, of one whole click or burst mid-window.
  auto bands = [rate](const std::vector<float>& x) {
    double low = 0.0, high = 0.0;
    for (int k = 0; k < 20; ++k) {
      low += power_at(x, (0.05 + 0.01 * k) * rate, rate);
      high += power_at(x, (0.3 + 0.01 * k) * rate, rate);
    }
    return std::make_pair(low, high);
  };
  const auto click = bands(std::vector<float>(y.begin() + 8000, y.begin() + 24000));
  EXPECT_LT(click.second, 1e-8 * click.first);
  audio::DrySampleStream noise("noise_bursts", rate);
  const auto burst = bands(read_all(noise, 8000, 16000));
  EXPECT_LT(burst.second, 1e-8 * burst.first);
  const auto a = read_all(noise, 100, 16000);
  (void)read_all(noise, 200000, 10);
  const auto b = read_all(noise, 100, 16000);  // back before the history: regenerated identically
  EXPECT_EQ(a, b);
  EXPECT_THROW(audio::DrySampleStream("violin", rate), std::invalid_argument);
  for (const auto& name : dry_signal_names()) {  // every name plays at a low rate too
    audio::DrySampleStream d(name, 1000.0);
    const auto z = read_all(d, 0, 3000);
    EXPECT_GT(*std::max_element(z.begin(), z.end()), 0.1f) << name;
  }
}

// ---- scene keys ----

std::string scene_text(const std::string& signal) {
  return R"({"room_m": [0.6, 0.5, 0.4], "sample_rate_hz": 8000,
    "sources": [{"position_m": [0.2, 0.2, 0.2], "signal": )" + signal + R"(}],
    "receivers": [{"name": "left", "position_m": [0.4, 0.3, 0.2]}]})";
}

std::string scene_error(const std::string& signal, const std::string& dir) {
  try {
    parse_wave_scene(nlohmann::json::parse(scene_text(signal)), dir);
  } catch (const SceneError& e) {
    return e.what();
  }
  return "";
}

TEST(SampledScene, ParsesWavAndDrySignalsAndWritesThemBack) {
  // The scene's folder is where the fixture wrote the file: a clean build folder has no other copy.
  const std::string dir =
      std::filesystem::path(write_music_wav("sampled_scene_music.wav", 11025, 2, 0.1)).parent_path().string();
  WaveScene s = parse_wave_scene(
      nlohmann::json::parse(scene_text(R"({"type": "wav", "path": "sampled_scene_music.wav", "amplitude": 0.002, "delay_s": 0.01})")),
      dir);
  ASSERT_EQ(s.sources[0].signal.kind, SignalKind::Sampled);
  EXPECT_EQ(s.sources[0].sampled.kind, SampledSignalSpec::Kind::Wav);
  EXPECT_EQ(s.sources[0].sampled.resolved_path, dir + "/sampled_scene_music.wav");
  EXPECT_DOUBLE_EQ(s.sources[0].signal.amplitude, 0.002);
  EXPECT_DOUBLE_EQ(s.sources[0].signal.delay_s, 0.01);
  EXPECT_EQ(s.sources[0].sampled.stream, nullptr);  // attached by the loader, not the parser
  audio::load_scene_signals(s);
  ASSERT_NE(s.sources[0].sampled.stream, nullptr);
  EXPECT_EQ(s.sources[0].sampled.stream->length(), 801);  // 1103 frames at 11025 Hz: ceil(800.36) at 8000 Hz
  const auto j = to_json(s);
  EXPECT_EQ(j["sources"][0]["signal"]["type"], "wav");
  EXPECT_EQ(j["sources"][0]["signal"]["path"], "sampled_scene_music.wav");
  const WaveScene back = parse_wave_scene(j, dir);
  EXPECT_EQ(back.sources[0].sampled.resolved_path, s.sources[0].sampled.resolved_path);

  WaveScene d = parse_wave_scene(nlohmann::json::parse(scene_text(R"({"type": "dry", "name": "chirp"})")), dir);
  EXPECT_EQ(d.sources[0].sampled.kind, SampledSignalSpec::Kind::Dry);
  EXPECT_EQ(d.sources[0].sampled.dry_name, "chirp");
  audio::load_scene_signals(d);
  EXPECT_EQ(d.sources[0].sampled.stream->length(), -1);
  EXPECT_EQ(to_json(d)["sources"][0]["signal"]["name"], "chirp");
}

TEST(SampledScene, RefusesBadSignalsNamingTheKeyAndTheValue) {
  const std::string dir =
      std::filesystem::path(write_music_wav("sampled_scene_music.wav", 11025, 2, 0.1)).parent_path().string();
  std::string e = scene_error(R"({"type": "wav"})", dir);
  EXPECT_NE(e.find("sources[0].signal.path is required"), std::string::npos) << e;
  e = scene_error(R"({"type": "wav", "path": "missing_song.wav"})", dir);
  EXPECT_NE(e.find("missing_song.wav"), std::string::npos) << e;
  EXPECT_NE(e.find("no such file"), std::string::npos) << e;
  e = scene_error(R"({"type": "wav", "path": "."})", dir);
  EXPECT_NE(e.find("folder"), std::string::npos) << e;
  e = scene_error(R"({"type": "wav", "path": 3})", dir);
  EXPECT_NE(e.find("sources[0].signal.path = 3"), std::string::npos) << e;
  e = scene_error(R"({"type": "dry", "name": "violin"})", dir);
  EXPECT_NE(e.find("\"violin\" is not allowed; allowed: click_train, chirp, plucked_string, noise_bursts"),
            std::string::npos)
      << e;
  e = scene_error(R"({"type": "dry"})", dir);
  EXPECT_NE(e.find("sources[0].signal.name is required"), std::string::npos) << e;
  e = scene_error(R"({"type": "dry", "name": "chirp", "width_s": 0.1})", dir);
  EXPECT_NE(e.find("unknown key 'sources[0].signal.width_s'"), std::string::npos) << e;
  e = scene_error(R"({"type": "wav", "path": "sampled_scene_music.wav", "delay_s": -1})", dir);
  EXPECT_NE(e.find("delay_s = -1"), std::string::npos) << e;
  e = scene_error(R"({"type": "mp3"})", dir);
  EXPECT_NE(e.find("wav, dry"), std::string::npos) << e;
}

TEST(SampledScene, AnUnreadableFileFailsAtLoadNamingTheSourceAndTheFile) {
  const std::string dir = std::string(WS_BINARY_DIR) + "/tests";
  std::ofstream(dir + "/sampled_garbage.wav") << "RIFF but not really";
  WaveScene s = parse_wave_scene(nlohmann::json::parse(scene_text(R"({"type": "wav", "path": "sampled_garbage.wav"})")), dir);
  try {
    audio::load_scene_signals(s);
    FAIL() << "a file that is not audio was loaded";
  } catch (const SceneError& e) {
    EXPECT_NE(std::string(e.what()).find("sources[0].signal"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("sampled_garbage.wav"), std::string::npos) << e.what();
  }
  // A model refuses a sampled source whose samples were never loaded.
  EXPECT_THROW(WaveModel(s, BackendChoice::Cpu), std::invalid_argument);
}

// ---- the scheme plays the samples ----

// One unit sample injects exactly what the impulse signal does (same form: a centred
// difference for a volume velocity), so the two runs are equal bit for bit.
TEST(SampledRun, AUnitSampleIsTheImpulse) {
  for (Precision p : {Precision::Float, Precision::Double}) {
    WaveScene imp = sampled_room(8000.0, p);
    imp.sources[0].signal = SourceSignal{SignalKind::Impulse, 1e-3, 1e-3, 0.0, 0.0};
    const WaveScene smp = with_samples(sampled_room(8000.0, p), std::make_shared<BufferSampleStream>(std::vector<float>{1.0f}), 1e-3, 0.0);
    const auto a = run_scene(imp, BackendChoice::Cpu, 300), b = run_scene(smp, BackendChoice::Cpu, 300);
    ASSERT_GT(max_abs(a[0]), 0.0);
    for (size_t r = 0; r < 2; ++r) ASSERT_EQ(a[r], b[r]) << to_string(p) << " receiver " << r;
  }
}

// The linearity test of issue 14: receivers(WAV) = amplitude * (resampled WAV) * h, where h
// is the same scene's answer to one unit sample in the same injection form. 9000 steps
// cross two 4096-step sample windows; the WAV (11025 Hz) is resampled to 8000 Hz and
// starts 25 steps late.
void expect_run_is_convolution(Precision p, double tolerance) {
  const double rate = 8000.0, amp = 2e-3;
  const long long steps = 9000, delay = 25;
  const std::string path = write_music_wav("sampled_linearity.wav", 11025, 2, 1.0);
  const WaveScene room = sampled_room(rate, p);
  const auto wav = std::make_shared<audio::WavSampleStream>(path, rate);
  const auto heard = run_scene(with_samples(room, wav, amp, delay / rate), BackendChoice::Cpu, steps);
  const auto h = run_scene(with_samples(room, std::make_shared<BufferSampleStream>(std::vector<float>{1.0f}), 1.0, 0.0),
                           BackendChoice::Cpu, steps);
  audio::WavSampleStream fresh(path, rate);
  const auto y = read_all(fresh, 0, (size_t)fresh.length());
  ASSERT_EQ(y.size(), 8000u);
  for (size_t r = 0; r < 2; ++r) {
    ASSERT_EQ(heard[r].size(), (size_t)steps);
    const auto want = convolve(y, h[r], delay, amp, (size_t)steps);
    const double peak = max_abs(want);
    ASSERT_GT(peak, 0.0);
    const double err = max_abs_diff(heard[r], want);
    std::cout << to_string(p) << " receiver " << r << ": max |run - convolution| / peak = " << err / peak << "\n";
    EXPECT_LT(err, tolerance * peak) << to_string(p) << " receiver " << r;
    // The same run with the samples one step late differs by far more: the test can fail.
    const auto late = convolve(y, h[r], delay + 1, amp, (size_t)steps);
    EXPECT_GT(max_abs_diff(heard[r], late), 100 * tolerance * peak);
  }
}

TEST(SampledRun, AWavSourceIsTheConvolutionOfTheWavWithTheImpulseResponseDouble) {
  expect_run_is_convolution(Precision::Double, 1e-10);
}

TEST(SampledRun, AWavSourceIsTheConvolutionOfTheWavWithTheImpulseResponseFloat) {
  expect_run_is_convolution(Precision::Float, 1e-4);
}

// A reset plays the music from its start again (the stream is read from sample 0 anew).
TEST(SampledRun, ResetReplaysTheSamples) {
  const std::string path = write_music_wav("sampled_reset.wav", 8000, 1, 0.5);
  const WaveScene s = with_samples(sampled_room(8000.0, Precision::Double),
                                   std::make_shared<audio::WavSampleStream>(path, 8000.0), 1e-3, 0.0);
  WaveModel m(s, BackendChoice::Cpu);
  m.advance(5000);
  const auto first = m.receiver_history();
  m.reset();
  m.advance(5000);
  EXPECT_EQ(m.receiver_history(), first);
  EXPECT_NEAR(m.quiet_step(), 4000 + 1 + 2, 1);  // the last sample's difference, then the usual margin
}

// A precision switch mid-run rebuilds the solver at step 3000: the new one reads its
// first window there and the music goes on (within float rounding of an unswitched run).
TEST(SampledRun, APrecisionSwitchKeepsPlaying) {
  const std::string path = write_music_wav("sampled_switch.wav", 11025, 1, 0.75);
  const WaveScene s = with_samples(sampled_room(8000.0, Precision::Double),
                                   std::make_shared<audio::WavSampleStream>(path, 8000.0), 1e-3, 0.0);
  WaveModel a(s, BackendChoice::Cpu), b(s, BackendChoice::Cpu);
  a.advance(6000);
  b.advance(3000);
  b.set_precision(Precision::Float);
  b.advance(3000);
  for (size_t r = 0; r < 2; ++r) {
    const auto& x = a.receiver_history()[r];
    const auto& y = b.receiver_history()[r];
    ASSERT_EQ(y.size(), 6000u);
    const double peak = max_abs(x);
    ASSERT_GT(peak, 0.0);
    EXPECT_LT(max_abs_diff(x, y), 1e-4 * peak) << r;
    // The samples after the switch are not silence: the stream was rewired.
    const std::vector<double> late(y.begin() + 4000, y.begin() + 5500);
    EXPECT_GT(max_abs(late), 0.05 * peak) << r;
  }
}

// A live change of signal (the GUI's picker) plays the new samples from the step it lands on.
TEST(SampledRun, SetSourceSignalSwitchesToSamples) {
  const WaveScene s = sampled_room(8000.0, Precision::Double);
  WaveModel m(s, BackendChoice::Cpu);
  m.advance(100);
  SourceSignal sig;
  sig.kind = SignalKind::Sampled;
  sig.amplitude = 1e-3;
  sig.delay_s = m.time_s();
  SampledSignalSpec spec;
  spec.kind = SampledSignalSpec::Kind::Dry;
  spec.dry_name = "click_train";
  spec.stream = std::make_shared<audio::DrySampleStream>("click_train", 8000.0);
  m.set_source_signal(0, sig, spec);
  EXPECT_EQ(m.quiet_step(), -1);  // a dry signal repeats forever
  m.advance(400);
  ASSERT_EQ(m.receiver_history()[0].size(), 500u);
  EXPECT_GT(max_abs(m.receiver_history()[0]), 0.0);
  SampledSignalSpec unloaded = spec;
  unloaded.stream = nullptr;
  EXPECT_THROW(m.set_source_signal(0, sig, unloaded), std::invalid_argument);
  EXPECT_EQ(m.scene().sources[0].sampled.dry_name, "click_train");  // the refused change left the running one
  m.advance(10);
}

}  // namespace
}  // namespace ws
