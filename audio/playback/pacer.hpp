#pragma once
// Pacing between the solver and the audio clock, on the producer side.
//
// The ring's fill is the error signal. Faster than real time, "real time" mode
// asks for just enough steps each frame to refill the ring to its target
// after the audio that will play during the next frame. Slower than real time,
// the ring drains; the pacer measures the rate achieved (simulated samples per
// wall second, averaged over ~0.5 s) so the panel can show the real-time
// factor, and in slow-motion mode it sets the playback rate to that achieved
// rate (nudged by the fill error so the ring neither empties nor fills up).
#include <cstddef>

namespace ws::audio {

enum class SlowPolicy { Gaps, SlowMotion };

class Pacer {
 public:
  void set_rates(double sim_rate_hz, double device_rate_hz);
  void reset();
  // Every push: `samples` simulated samples handed over at wall time now_s.
  void on_push(size_t samples, double now_s);
  // Achieved simulated samples per wall second / simulation rate; 0 until measured.
  double real_time_factor() const { return rtf_; }
  double achieved_rate_hz() const { return rtf_ * sim_rate_hz_; }

  // Real-time mode: steps to run this frame so that, after them, the ring holds
  // target frames plus what the device consumes during the frame interval.
  long steps_for_frame(size_t ring_fill_frames, size_t target_frames, double frame_interval_s, long max_steps) const;

  // Device frames per simulated sample. Gaps: device rate / sim rate (true
  // pitch, the ring runs dry when the solver lags). Slow motion: device rate /
  // achieved rate while the solver lags (rtf < 1), so nothing is skipped; the
  // pitch drops by the real-time factor.
  double playback_ratio(SlowPolicy policy, size_t ring_fill_frames, size_t target_frames) const;
  // Speed of what is heard relative to real time (1 = true pitch).
  double playback_speed(SlowPolicy policy, size_t ring_fill_frames, size_t target_frames) const;

 private:
  double sim_rate_hz_ = 0.0, device_rate_hz_ = 0.0;
  double rtf_ = 0.0;
  double window_start_s_ = -1.0;
  size_t window_samples_ = 0;
};

}  // namespace ws::audio
