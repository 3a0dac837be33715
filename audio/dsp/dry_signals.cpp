#include "dsp/dry_signals.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ws::audio {

const char* dry_kind_name(DryKind k) {
  switch (k) {
    case DryKind::ClickTrain: return "click train";
    case DryKind::Chirp: return "chirp";
    case DryKind::PluckedString: return "plucked string";
    case DryKind::NoiseBursts: return "noise bursts";
    case DryKind::Recording: return "recording";
  }
  return "?";
}

DryGenerator::DryGenerator(const DryParams& p, double rate, uint32_t seed) : p_(p), rate_(rate), rng_(seed ? seed : 1) {
  if (!(rate > 0)) throw std::invalid_argument("dry signal rate must be positive, got " + std::to_string(rate));
  if (!(p.repeat_period_s > 0))
    throw std::invalid_argument("repeat period must be positive, got " + std::to_string(p.repeat_period_s));
  if (p.kind == DryKind::PluckedString &&
      !(p.string_frequency_hz >= 20.0 && p.string_frequency_hz < rate / 2))
    throw std::invalid_argument("string frequency " + std::to_string(p.string_frequency_hz) +
                                " Hz is outside [20 Hz, Nyquist)");
}

void DryGenerator::set_recording(std::vector<float> mono) {
  recording_ = std::move(mono);
  rec_pos_ = 0;
}

float DryGenerator::noise() {
  rng_ ^= rng_ << 13;
  rng_ ^= rng_ >> 17;
  rng_ ^= rng_ << 5;
  return (float)((double)rng_ / 2147483648.0 - 1.0);
}

void DryGenerator::start_pluck() {
  // Karplus-Strong: a delay line of one period filled with noise; averaging two
  // neighbours in the loop is a low-pass, so high partials die first like a string.
  const size_t len = std::max<size_t>(2, (size_t)std::lround(rate_ / p_.string_frequency_hz));
  string_.resize(len);
  for (auto& s : string_) s = noise();
  string_pos_ = 0;
}

void DryGenerator::generate(float* out, size_t frames) {
  const uint64_t period = std::max<uint64_t>(1, (uint64_t)std::llround(p_.repeat_period_s * rate_));
  const float a = (float)p_.amplitude;
  for (size_t i = 0; i < frames; ++i, ++t_) {
    const uint64_t phase = t_ % period;
    float v = 0.0f;
    switch (p_.kind) {
      case DryKind::ClickTrain: v = phase == 0 ? a : 0.0f; break;
      case DryKind::Chirp: {
        // Exponential sweep: instantaneous frequency f0 * (f1/f0)^(t/T).
        const double t = phase / rate_, T = p_.chirp_length_s;
        if (t < T) {
          const double k = std::log(p_.chirp_end_hz / p_.chirp_start_hz);
          const double ph = 2.0 * M_PI * p_.chirp_start_hz * T / k * (std::exp(t / T * k) - 1.0);
          // 5 ms raised-cosine edges so the sweep starts and stops without a click.
          const double edge = 0.005, g = std::min({1.0, t / edge, (T - t) / edge});
          v = a * (float)(std::sin(ph) * (0.5 - 0.5 * std::cos(M_PI * std::max(0.0, g))));
        }
        break;
      }
      case DryKind::PluckedString: {
        if (phase == 0) start_pluck();
        const size_t n = string_.size(), j = (string_pos_ + 1) % n;
        v = a * string_[string_pos_];
        string_[string_pos_] = (float)(p_.string_decay * 0.5 * (string_[string_pos_] + string_[j]));
        string_pos_ = j;
        break;
      }
      case DryKind::NoiseBursts: {
        const double t = phase / rate_, L = p_.burst_length_s;
        if (t < L) v = a * noise() * (float)std::sin(M_PI * t / L);  // sine envelope: no edges
        break;
      }
      case DryKind::Recording:
        if (!recording_.empty()) {
          v = a * recording_[rec_pos_];
          rec_pos_ = (rec_pos_ + 1) % recording_.size();
        }
        break;
    }
    out[i] = v;
  }
}

}  // namespace ws::audio
