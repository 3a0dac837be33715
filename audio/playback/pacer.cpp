#include "playback/pacer.hpp"

#include <algorithm>
#include <cmath>

namespace ws::audio {

void Pacer::set_rates(double sim_rate_hz, double device_rate_hz) {
  sim_rate_hz_ = sim_rate_hz;
  device_rate_hz_ = device_rate_hz;
}

void Pacer::reset() {
  rtf_ = 0.0;
  window_start_s_ = -1.0;
  window_samples_ = 0;
}

void Pacer::on_push(size_t samples, double now_s) {
  if (window_start_s_ < 0) {
    window_start_s_ = now_s;
    window_samples_ = 0;
    return;  // the first push only starts the clock: its samples were computed before it
  }
  window_samples_ += samples;
  const double span = now_s - window_start_s_;
  if (span >= 0.5) {
    const double measured = window_samples_ / span / sim_rate_hz_;
    // Blend with the previous estimate so one slow frame does not swing the pitch.
    rtf_ = rtf_ == 0.0 ? measured : 0.5 * rtf_ + 0.5 * measured;
    window_start_s_ = now_s;
    window_samples_ = 0;
  }
}

long Pacer::steps_for_frame(size_t fill, size_t target, double frame_interval_s, long max_steps) const {
  if (sim_rate_hz_ <= 0 || device_rate_hz_ <= 0) return 0;
  const double consumed = std::clamp(frame_interval_s, 0.0, 0.25) * device_rate_hz_;
  const double want_frames = (double)target + consumed - (double)fill;
  if (want_frames <= 0) return 0;
  const double steps = std::ceil(want_frames * sim_rate_hz_ / device_rate_hz_);
  return (long)std::min<double>(steps, (double)max_steps);
}

double Pacer::playback_speed(SlowPolicy policy, size_t fill, size_t target) const {
  if (policy == SlowPolicy::Gaps || rtf_ <= 0.0 || rtf_ >= 1.0) return 1.0;
  // Proportional correction: 10 % faster when the ring is at twice its target,
  // 10 % slower when empty, so the fill settles near the target.
  const double err = target > 0 ? ((double)fill - (double)target) / (double)target : 0.0;
  return std::clamp(rtf_ * (1.0 + 0.1 * std::clamp(err, -1.0, 1.0)), 1.0 / 256.0, 1.0);
}

double Pacer::playback_ratio(SlowPolicy policy, size_t fill, size_t target) const {
  return device_rate_hz_ / (sim_rate_hz_ * playback_speed(policy, fill, target));
}

}  // namespace ws::audio
