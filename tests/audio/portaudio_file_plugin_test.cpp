// End to end through PortAudio: a receiver stream at the simulation rate goes
// through the session (resampler, ring, callback, output chain) to ALSA's file
// plugin, and the pulses in it come out at the right delay.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "alsa_file_home.hpp"
#include "playback/audio_session.hpp"

using namespace ws::audio;
using Clock = std::chrono::steady_clock;

namespace {
// Every test process gets its own HOME before PortAudio starts.
test::AlsaFileHome& home() {
  static test::AlsaFileHome h(true);
  return h;
}

// Drives the session like the GUI's frame loop: every 10 ms ask how many steps
// real time allows (at most max_steps_per_frame, the "solver's" speed),
// "simulate" them (copy from the signal), push, update.
//
// ALSA's null PCM is not clocked: it takes samples as fast as the callback
// makes them (about 25x real time here), so the ring runs dry after every
// push and playback comes in chunks separated by gaps. The tests therefore
// measure delays inside one chunk: playback resumes only once the ring holds
// resume_frames (half the target fill), and everything up to then plays
// without a break.
void play(AudioSession& s, const std::vector<double>& signal, double sim_rate_hz, long max_steps_per_frame) {
  std::vector<std::vector<double>> history(1);
  size_t pos = 0;
  const auto deadline = Clock::now() + std::chrono::seconds(20);
  while (pos < signal.size() && Clock::now() < deadline) {
    const long n = s.steps_for_frame(0.01, max_steps_per_frame);
    const size_t take = std::min(signal.size() - pos, (size_t)std::max(0L, n));
    history[0].insert(history[0].end(), signal.begin() + pos, signal.begin() + pos + take);
    pos += take;
    s.push_history(history, sim_rate_hz);
    s.update();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  // Let the ring drain and the device play it out.
  while (s.stats().ring_fill_s > 0 && Clock::now() < deadline) {
    s.update();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  s.update();
}

size_t argmax_abs(const std::vector<float>& x, size_t from, size_t to) {
  size_t best = from;
  for (size_t i = from; i < std::min(to, x.size()); ++i)
    if (std::fabs(x[i]) > std::fabs(x[best])) best = i;
  return best;
}
}  // namespace

TEST(PortAudioFilePlugin, PulsesArriveAtTheRightDelay) {
  home();
  AudioSession s;
  AudioSettings cfg;
  cfg.device_rate_hz = 48000;
  cfg.frames_per_buffer = 256;
  cfg.quality = ResampleQuality::Best;
  cfg.target_fill_s = 1.0;  // playback starts once 0.5 s (24000 frames) are queued
  ASSERT_TRUE(s.open(cfg)) << s.status();
  ASSERT_EQ(s.device_rate_hz(), 48000.0) << s.status();
  // 96 kHz simulation: a pulse at 0.1 s and a second 0.25 s later, then silence.
  const double sim_rate = 96000.0;
  std::vector<double> sig((size_t)(0.6 * sim_rate), 0.0);
  const size_t m1 = 9600, m2 = m1 + 24000;
  sig[m1] = 0.6;  // frame 4800 at 48 kHz
  sig[m2] = -0.6;
  // 0.1 s of simulation per frame: the first 24000 device frames arrive in five
  // pushes (five resampler calls, five ring writes) and then play as one chunk.
  play(s, sig, sim_rate, 9600);
  const AudioStats st = s.stats();
  ASSERT_TRUE(s.is_open()) << s.status();
  s.close();  // flushes and closes the file

  const auto out = home().read_output();
  ASSERT_GT(out.size(), 48000u) << "the file plugin wrote only " << out.size() << " samples";
  const size_t p1 = argmax_abs(out, 0, out.size());
  // The second pulse is the largest one more than 50 ms from the first.
  std::vector<float> rest = out;
  for (size_t i = p1 > 2400 ? p1 - 2400 : 0; i < std::min(out.size(), p1 + 2400); ++i) rest[i] = 0;
  const size_t p2 = argmax_abs(rest, 0, rest.size());
  const size_t first = std::min(p1, p2), second = std::max(p1, p2);
  // A unit impulse at 96 kHz band-limited to 24 kHz peaks near half its height.
  EXPECT_GT(std::fabs(out[first]), 0.2f);
  EXPECT_GT(std::fabs(out[second]), 0.2f);
  EXPECT_GT(out[first], 0.0f) << "the first pulse is positive";
  EXPECT_LT(out[second], 0.0f) << "the second pulse is negative";
  // The right delay: 0.25 s = 12000 frames at 48 kHz, to the sample: the
  // streaming resampler neither lost nor repeated samples across the pushes.
  EXPECT_GE(st.gaps, 1u) << "the stream ends with a fade-out";
  EXPECT_NEAR((double)(second - first), 12000.0, 1.0)
      << "pulses at frames " << first << " and " << second << "; gaps " << st.gaps << ", silent frames "
      << st.silent_frames;
  // The first pulse is 0.1 s (4800 frames) into the signal; what precedes it
  // in the file is that plus the silence the unclocked sink consumed while
  // the ring filled, so only a lower bound holds.
  EXPECT_GE(first, 4800u - 64);
  // Nothing else loud: the rest is silence and the resampler's small ringing.
  for (size_t i = 0; i < out.size(); ++i)
    if (i + 200 < first || (i > first + 200 && i + 200 < second) || i > second + 200)
      ASSERT_LT(std::fabs(out[i]), 0.01f) << "stray sound at frame " << i;
  EXPECT_EQ(st.dropped_frames, 0u);
}

TEST(PortAudioFilePlugin, RefusedRateFallsBackToNearestSupported) {
  home();
  AudioSession s;
  AudioSettings cfg;
  cfg.device_rate_hz = 1.0e6;  // no device takes 1 MHz
  const bool ok = s.open(cfg);
  ASSERT_TRUE(ok) << s.status();
  EXPECT_EQ(s.device_rate_hz(), 192000.0) << s.status();
  EXPECT_NE(s.status().find("nearest supported rate"), std::string::npos) << s.status();
}

TEST(PortAudioFilePlugin, DeviceFailingMidRunIsReportedAndSimulationGoesOn) {
  home();
  AudioSession s;
  AudioSettings cfg;
  cfg.stereo = true;
  ASSERT_TRUE(s.open(cfg)) << s.status();
  std::vector<std::vector<double>> h(2, std::vector<double>(4800, 0.1));
  s.push_history(h, 48000.0);
  s.update();
  s.inject_device_failure_for_test();  // the callback aborts, as when a device vanishes
  const auto deadline = Clock::now() + std::chrono::seconds(5);
  while (s.is_open() && Clock::now() < deadline) {
    s.update();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_FALSE(s.is_open());
  EXPECT_TRUE(s.faulted());
  EXPECT_NE(s.status().find("stopped unexpectedly"), std::string::npos) << s.status();
  // The session keeps working for the simulation.
  EXPECT_EQ(s.steps_for_frame(1.0 / 60, 300), 300);
  for (auto& c : h) c.resize(9600, 0.2);
  s.push_history(h, 48000.0);
  s.update();
  EXPECT_EQ(s.recording().size(), 2u);
  EXPECT_EQ(s.recording()[1].size(), 9600u);
  // And reopening works.
  EXPECT_TRUE(s.open(cfg)) << s.status();
  EXPECT_FALSE(s.faulted());
}

TEST(PortAudioFilePlugin, AuralizationPlaysTheConvolution) {
  home();
  AudioSession s;
  // An "impulse run": the receiver hears a pulse and two echoes.
  std::vector<std::vector<double>> h(1, std::vector<double>(4800, 0.0));
  h[0][0] = 1.0;
  h[0][960] = 0.5;   // 20 ms
  h[0][2400] = 0.25; // 50 ms
  s.push_history(h, 48000.0);
  ASSERT_TRUE(s.use_recording_as_impulse_response()) << s.message();
  DryParams dry;
  dry.kind = DryKind::ClickTrain;
  dry.amplitude = 0.5;
  dry.repeat_period_s = 0.25;
  s.set_dry(dry);
  AudioSettings cfg;
  cfg.target_fill_s = 0.5;  // chunks of ~0.5 s on the unclocked sink: two clicks each
  ASSERT_TRUE(s.open(cfg)) << s.status();
  ASSERT_TRUE(s.set_source(AudioSource::Auralization)) << s.message();
  const auto end = Clock::now() + std::chrono::milliseconds(1200);
  while (Clock::now() < end) {
    s.update();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  s.close();
  const auto out = home().read_output();
  const size_t p = argmax_abs(out, 0, out.size());
  const float top = std::fabs(out[p]);
  ASSERT_GT(top, 0.1f);
  // Each click (a direct sound: the largest samples) is followed by its echoes
  // at 20 and 50 ms with the IR's ratios (the IR is scaled to unit energy; the
  // ratios stay). Clicks near a chunk's end lose their echoes to the gap, so
  // count the clicks whose echoes are all there.
  int clicks = 0, complete = 0;
  for (size_t k = 0; k + 2400 < out.size(); ++k) {
    if (std::fabs(out[k]) < 0.9f * top) continue;
    ++clicks;
    if (std::fabs(out[k + 960] / out[k] - 0.5) < 0.02 && std::fabs(out[k + 2400] / out[k] - 0.25) < 0.02) ++complete;
    // No echo anywhere else: between them the output is near silence.
    for (size_t j = k + 20; j < k + 2400; ++j)
      if (j + 20 < k + 960 || j > k + 980) ASSERT_LT(std::fabs(out[j]), 0.05f * top) << "click at " << k << ", sound at " << j;
  }
  EXPECT_GE(clicks, 2);
  EXPECT_GE(complete, 1) << clicks << " clicks, none with both echoes";
}
