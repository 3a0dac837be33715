#pragma once
// Sampled source signals: a WAV file or a dry signal given as one sample per
// simulation step, produced block by block as the run needs them, so a long
// piece of music is never resampled, held or uploaded whole.
//
// The samples come from a SampleStream (host side; audio/dsp/sampled_sources.hpp
// reads WAV files and generates dry signals at the scene's rate). A solver keeps
// a window of window_steps() steps per stream (SampleWindows), refilled when the run
// leaves it: the CPU solver reads it in place, the CUDA solver copies it to the
// device once per window. core/source_signal.hpp says how a sample is injected.
#include <cstddef>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/source_signal.hpp"

namespace ws {

// Samples y_0, y_1, ... at the simulation rate, zero past the end.
class SampleStream {
 public:
  virtual ~SampleStream() = default;

  // Samples [first, first + count) into out; indices below 0 or past the end read 0.
  // Reading forward is cheap; reading before the kept history restarts the producer
  // from sample 0 (after a reset). Safe to call from several threads.
  void read(long long first, size_t count, float* out);

  // The number of samples, or -1 for a stream that never ends (a repeating dry signal).
  virtual long long length() const = 0;
  // What the samples are, for messages and the GUI ("music.wav, 44100 Hz -> 32000 Hz").
  virtual std::string describe() const = 0;

 protected:
  // The next `count` samples in order (zeros past the end).
  virtual void produce(float* out, size_t count) = 0;
  // Back to sample 0.
  virtual void restart() = 0;

 private:
  static constexpr size_t kKeep = 1 << 15;  // samples kept behind the newest, for short backward reads
  std::mutex mutex_;
  long long kept_first_ = 0;  // index of kept_[0]
  std::vector<float> kept_;   // samples [kept_first_, kept_first_ + kept_.size())
};

// A stream of samples held in memory (tests, short signals).
class BufferSampleStream final : public SampleStream {
 public:
  explicit BufferSampleStream(std::vector<float> samples, std::string what = "samples")
      : samples_(std::move(samples)), what_(std::move(what)) {}
  long long length() const override { return (long long)samples_.size(); }
  std::string describe() const override { return what_; }

 protected:
  void produce(float* out, size_t count) override;
  void restart() override { pos_ = 0; }

 private:
  std::vector<float> samples_;
  std::string what_;
  size_t pos_ = 0;
};

// What a scene says a sampled signal is; the stream is attached by the loader
// (audio::load_scene_signals), never by the scene parser (sim links no audio library).
struct SampledSignalSpec {
  enum class Kind { None, Wav, Dry };
  Kind kind = Kind::None;
  std::string path;          // WAV: as written in the scene
  std::string resolved_path; // WAV: resolved against the scene's folder
  std::string dry_name;      // dry: click_train, chirp, plucked_string, noise_bursts
  std::shared_ptr<SampleStream> stream;  // null until loaded
};

// The names a dry signal may have (the audio library's generators).
inline const std::vector<std::string>& dry_signal_names() {
  static const std::vector<std::string> names{"click_train", "chirp", "plucked_string", "noise_bursts"};
  return names;
}

// First step of a sampled signal: the first step at or after delay_s (as the impulse).
long long sampled_start_step(const SourceSignal& s, double dt_s);
// Time after which a sampled signal injects nothing (the difference reaches one step past
// its last sample), or -1 for an endless stream.
double sampled_end_s(const SourceSignal& s, const SampleStream& stream, double dt_s);

// The windows of samples a solver reads: one track per (stream, start step); track t
// holds, for steps first - 1 .. first + window_steps() - 1, the samples at
// window(t) + 1 + (n - first), so sampled_injection can read y[-1] at the first step.
class SampleWindows {
 public:
  // Steps a window covers: 4096, or WS_TEST_SAMPLE_WINDOW_STEPS (16..4096) when set, so a
  // run under compute-sanitizer, a few hundred steps long, still turns windows.
  static int window_steps();
  // Floats a track's window holds: its steps and the sample before the first.
  static int stride() { return window_steps() + 1; }

  void clear() { tracks_.clear(); }
  // The track of a stream starting at `start_step` (added when new).
  int track(const std::shared_ptr<SampleStream>& stream, long long start_step);
  int tracks() const { return (int)tracks_.size(); }
  bool empty() const { return tracks_.empty(); }
  // Whether step n lies in the window that starts at `first`.
  static bool covers(long long first, long long n) { return n >= first && n < first + window_steps(); }
  // Writes every track's window starting at step `first` (tracks() * stride() floats).
  void fill(long long first, float* out) const;

 private:
  struct Track {
    std::shared_ptr<SampleStream> stream;
    long long start_step;
  };
  std::vector<Track> tracks_;
};

}  // namespace ws
