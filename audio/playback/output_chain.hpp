#pragma once
// What the audio callback does to the ring's frames before they reach the
// device: gap handling with short fades, DC blocker, smoothed gain and mute,
// soft limiter, and the level meter. It runs on the audio thread, so it never
// locks, allocates or logs; the GUI talks to it only through the atomics of
// OutputControls (GUI writes) and OutputMeters (callback writes).
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "playback/spsc_ring.hpp"

namespace ws::audio {

struct OutputControls {
  std::atomic<float> gain{1.0f};  // linear
  std::atomic<bool> mute{false};
  // After a gap, playback resumes once the ring holds this many frames, so a
  // starving ring plays in chunks rather than a buzz of tiny fragments.
  std::atomic<size_t> resume_frames{0};
  std::atomic<bool> inject_failure{false};  // tests: the callback aborts the stream
};

struct OutputMeters {
  std::atomic<float> peak{0.0f};  // max |y| since the GUI last took it (take_peak)
  std::atomic<float> rms{0.0f};   // smoothed over ~300 ms
  std::atomic<uint64_t> frames_played{0};
  std::atomic<uint64_t> silent_frames{0};  // frames output as silence because the ring was short
  std::atomic<uint64_t> gaps{0};           // times playback faded out for lack of data
  std::atomic<uint64_t> device_underflows{0};  // PortAudio's paOutputUnderflow reports
  std::atomic<uint64_t> limited_frames{0};     // frames where the limiter bent the signal
  float take_peak() { return peak.exchange(0.0f, std::memory_order_relaxed); }
};

class OutputChain {
 public:
  // fade_s: length of the fades at a gap's edges (short enough to keep the
  // signal's timing, long enough that a cut does not click).
  OutputChain(int channels, double rate_hz, double fade_s = 0.003);
  // A ring that has not grown for this long is played out even below resume_frames.
  static constexpr double kFlushAfterIdleS = 0.1;

  int channels() const { return channels_; }
  size_t fade_frames() const { return fade_frames_; }
  // Fills `frames` interleaved output frames from the ring. now_s: the stream's
  // clock (seconds), used to notice that the producer has stopped (paused
  // simulation) so the ring's last, short stretch still plays.
  void process(SpscRing<float>& ring, float* out, size_t frames, const OutputControls& c, OutputMeters& m,
               double now_s);

 private:
  void fade(float* buf, size_t frames, bool fade_in) const;

  int channels_;
  size_t fade_frames_;
  float dc_pole_;     // DC blocker: y[n] = x[n] - x[n-1] + R y[n-1]
  float gain_step_;   // one-pole smoothing coefficient for gain changes
  double rate_hz_;
  bool playing_ = false;
  size_t idle_avail_ = 0;     // ring fill seen while waiting to resume
  double idle_since_s_ = 0.0;  // when that fill was first seen
  float gain_now_ = 0.0f;
  std::vector<float> dc_x1_, dc_y1_;
  float ms_ = 0.0f;  // smoothed mean square
};

// Soft limiter: identity below the knee, then a tanh curve that approaches 1
// smoothly, so loud moments saturate gently instead of clipping hard.
inline float soft_limit(float x, float knee = 0.8f) {
  const float a = x < 0 ? -x : x;
  if (a <= knee) return x;
  const float y = knee + (1.0f - knee) * std::tanh((a - knee) / (1.0f - knee));
  return x < 0 ? -y : y;
}

}  // namespace ws::audio
