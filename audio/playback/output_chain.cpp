#include "playback/output_chain.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ws::audio {

OutputChain::OutputChain(int channels, double rate_hz, double fade_s)
    : channels_(channels), rate_hz_(rate_hz) {
  if (channels < 1 || channels > 2)
    throw std::invalid_argument("output has " + std::to_string(channels) + " channels; 1 (mono) or 2 (stereo) allowed");
  fade_frames_ = std::max<size_t>(1, (size_t)std::lround(fade_s * rate_hz));
  // A 10 Hz corner: R = exp(-2 pi fc / fs). The simulated pressure can carry a
  // slow drift (a source with nonzero mean); the blocker keeps it off the speaker.
  dc_pole_ = (float)std::exp(-2.0 * M_PI * 10.0 / rate_hz);
  gain_step_ = (float)(1.0 - std::exp(-1.0 / (0.010 * rate_hz)));  // 10 ms glide
  dc_x1_.assign(channels, 0.0f);
  dc_y1_.assign(channels, 0.0f);
}

void OutputChain::fade(float* buf, size_t frames, bool fade_in) const {
  // Raised-cosine ramp over the first (fade in) or last (fade out) fade_frames_.
  const size_t n = std::min(frames, fade_frames_);
  for (size_t i = 0; i < n; ++i) {
    const float g = 0.5f - 0.5f * std::cos((float)M_PI * (i + 0.5f) / n);
    const size_t f = fade_in ? i : frames - 1 - i;
    for (int c = 0; c < channels_; ++c) buf[f * channels_ + c] *= g;
  }
}

void OutputChain::process(SpscRing<float>& ring, float* out, size_t frames, const OutputControls& ctl,
                          OutputMeters& m, double now_s) {
  const size_t ch = channels_;
  const size_t avail = ring.read_available() / ch;
  size_t got = 0;
  if (playing_) {
    // Keep a fade's worth in reserve: if this block would leave less than that,
    // fade out now over real samples rather than cut at a nonzero value later.
    if (avail >= frames + fade_frames_) {
      got = ring.read(out, frames * ch) / ch;
    } else {
      got = ring.read(out, std::min(avail, frames) * ch) / ch;
      fade(out, got, false);
      playing_ = false;
      m.gaps.fetch_add(1, std::memory_order_relaxed);
    }
  } else {
    if (avail != idle_avail_) idle_avail_ = avail, idle_since_s_ = now_s;
    const bool producer_stopped = avail > 0 && now_s - idle_since_s_ >= kFlushAfterIdleS;
    const size_t need = std::max(ctl.resume_frames.load(std::memory_order_relaxed), frames + fade_frames_);
    if (avail >= need || producer_stopped) {
      got = ring.read(out, std::min(avail, frames) * ch) / ch;
      fade(out, got, true);
      if (avail > frames) {
        playing_ = true;  // the next block continues (and fades out if the ring is short)
      } else {
        fade(out, got, false);  // the whole remainder fits in this block: in and out
        m.gaps.fetch_add(1, std::memory_order_relaxed);
      }
      idle_avail_ = 0;
    }
  }
  std::fill(out + got * ch, out + frames * ch, 0.0f);
  if (got < frames) m.silent_frames.fetch_add(frames - got, std::memory_order_relaxed);

  const float target = ctl.mute.load(std::memory_order_relaxed) ? 0.0f : ctl.gain.load(std::memory_order_relaxed);
  float peak = 0.0f;
  double sum_sq = 0.0;
  uint64_t limited = 0;
  for (size_t f = 0; f < frames; ++f) {
    gain_now_ += gain_step_ * (target - gain_now_);
    // The exponential glide never arrives; snap when inaudibly close so mute is exact silence.
    if (std::fabs(target - gain_now_) < 1e-5f) gain_now_ = target;
    bool bent = false;
    for (size_t c = 0; c < ch; ++c) {
      float& s = out[f * ch + c];
      const float y = s - dc_x1_[c] + dc_pole_ * dc_y1_[c];
      dc_x1_[c] = s;
      dc_y1_[c] = y;
      const float g = y * gain_now_;
      const float l = soft_limit(g);
      bent |= l != g;
      s = l;
      peak = std::max(peak, std::fabs(l));
      sum_sq += (double)l * l;
    }
    limited += bent;
  }
  // Block mean square into a ~300 ms exponential average.
  const float w = (float)std::min(1.0, frames / (0.3 * rate_hz_));
  ms_ += w * ((float)(sum_sq / (frames * ch + 1e-30)) - ms_);
  m.rms.store(std::sqrt(std::max(0.0f, ms_)), std::memory_order_relaxed);
  float old = m.peak.load(std::memory_order_relaxed);
  while (peak > old && !m.peak.compare_exchange_weak(old, peak, std::memory_order_relaxed)) {
  }
  m.limited_frames.fetch_add(limited, std::memory_order_relaxed);
  m.frames_played.fetch_add(frames, std::memory_order_relaxed);
}

}  // namespace ws::audio
