#pragma once
// Shared pieces of the sampled-source tests: a small absorbing room with one
// sampled source and two receivers (the ears), a music-like WAV written to the
// temporary folder, runs of a scene, and the direct convolution the runs must equal.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "scene/scene.hpp"
#include "source/sampled_sources.hpp"
#include "wave/wave_model.hpp"
#include "wavio/wav_file.hpp"

namespace ws::testing {

// Samples first .. first + n - 1 of a stream.
inline std::vector<float> read_all(SampleStream& s, long long first, size_t n) {
  std::vector<float> v(n);
  s.read(first, n, v.data());
  return v;
}

// A scratch file in the system's temporary folder (the GPU suites run far from the build tree).
// One folder per test process, so a scene and the WAV it names sit side by side.
inline std::string sampled_tmp(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("wavescope_sampled_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

// A few partials and a little noise, a second long, at `rate_hz`; `channels` copies
// scaled 1, 0.5, ... so the mono mixdown is known.
inline audio::AudioClip music_clip(int rate_hz, int channels, double seconds = 1.0) {
  audio::AudioClip c;
  c.sample_rate_hz = rate_hz;
  c.channels = channels;
  const size_t n = (size_t)std::lround(seconds * rate_hz);
  uint32_t rng = 2463534242u;
  for (size_t i = 0; i < n; ++i) {
    const double t = (double)i / rate_hz;
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    const double noise = (double)rng / 4294967296.0 - 0.5;
    const double env = std::min(1.0, t / 0.01) * std::min(1.0, (seconds - t) / 0.01);  // no click at the ends
    const double v = env * (0.4 * std::sin(2 * M_PI * 220 * t) + 0.25 * std::sin(2 * M_PI * 523.25 * t + 1.0) +
                            0.15 * std::sin(2 * M_PI * 1318.5 * t) + 0.1 * noise);
    for (int ch = 0; ch < channels; ++ch) c.interleaved.push_back((float)(v / (1 << ch)));
  }
  return c;
}

inline std::string write_music_wav(const std::string& name, int rate_hz, int channels, double seconds = 1.0) {
  const std::string path = sampled_tmp(name);
  audio::write_float_wav(path, music_clip(rate_hz, channels, seconds));
  return path;
}

// 0.6 x 0.5 x 0.4 m, absorbing walls (so the boundary nodes run too), a source and two ears.
inline WaveScene sampled_room(double rate_hz, Precision p) {
  WaveScene s;
  s.name = "sampled room";
  s.room_m = {0.6, 0.5, 0.4};
  s.sample_rate_hz = rate_hz;
  s.precision = p;
  s.walls.fill(WallCondition::with_absorption(0.3));
  SourceSpec src;
  src.position_m = {0.2, 0.2, 0.2};
  s.sources.push_back(src);
  s.receivers.push_back({"left", {0.4, 0.3, 0.2}, Interpolation::Nearest});
  s.receivers.push_back({"right", {0.45, 0.15, 0.25}, Interpolation::Nearest});
  return s;
}

// The scene with source 0 playing `stream` (amplitude in m^3/s per unit sample, delay in seconds).
inline WaveScene with_samples(WaveScene s, std::shared_ptr<SampleStream> stream, double amplitude, double delay_s) {
  s.sources[0].signal = SourceSignal{};
  s.sources[0].signal.kind = SignalKind::Sampled;
  s.sources[0].signal.amplitude = amplitude;
  s.sources[0].signal.delay_s = delay_s;
  s.sources[0].sampled.kind = SampledSignalSpec::Kind::Wav;
  s.sources[0].sampled.stream = std::move(stream);
  return s;
}

// `steps` steps of `m` in advances of 1000 (uneven against the 4096-step windows); the
// receivers' histories.
inline std::vector<std::vector<double>> advance_in_chunks(WaveModel& m, long long steps) {
  for (long long done = 0; done < steps;) {
    const int chunk = (int)std::min<long long>(steps - done, 1000);
    m.advance(chunk);
    done += chunk;
  }
  return m.receiver_history();
}

inline std::vector<std::vector<double>> run_scene(const WaveScene& s, BackendChoice b, long long steps) {
  WaveModel m(s, b);
  return advance_in_chunks(m, steps);
}

// out[n] = a sum_k y[k] h[n - d - k]: what a linear, time-invariant scheme gives for
// samples y starting d steps late, when h answers a single unit sample.
inline std::vector<double> convolve(const std::vector<float>& y, const std::vector<double>& h, long long d, double a,
                                    size_t n_out) {
  std::vector<double> out(n_out, 0.0);
  for (size_t n = 0; n < n_out; ++n) {
    double acc = 0.0;
    for (long long k = 0; k < (long long)y.size() && k <= (long long)n - d; ++k) acc += (double)y[k] * h[n - d - k];
    out[n] = a * acc;
  }
  return out;
}

inline double max_abs(const std::vector<double>& v) {
  double m = 0.0;
  for (double x : v) m = std::max(m, std::fabs(x));
  return m;
}

inline double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0.0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) m = std::max(m, std::fabs(a[i] - b[i]));
  return m;
}

}  // namespace ws::testing
