#pragma once
// Dry (anechoic) test signals for auralization, generated block by block at
// the device rate and repeating forever: click train, logarithmic chirp,
// plucked string (Karplus-Strong) and noise bursts, or a loaded recording
// played in a loop. Each generator keeps its own phase so blocks join without
// discontinuities.
#include <cstdint>
#include <string>
#include <vector>

namespace ws::audio {

enum class DryKind { ClickTrain, Chirp, PluckedString, NoiseBursts, Recording };
const char* dry_kind_name(DryKind k);

struct DryParams {
  DryKind kind = DryKind::ClickTrain;
  double amplitude = 0.5;
  double repeat_period_s = 1.0;  // clicks, plucks, bursts and chirps repeat with this period
  double chirp_start_hz = 50.0, chirp_end_hz = 8000.0, chirp_length_s = 0.7;
  double string_frequency_hz = 220.0, string_decay = 0.996;  // Karplus-Strong loop gain
  double burst_length_s = 0.05;
};

class DryGenerator {
 public:
  DryGenerator(const DryParams& params, double sample_rate_hz, uint32_t seed = 12345);
  // For DryKind::Recording: a mono recording at sample_rate_hz, looped.
  void set_recording(std::vector<float> mono);
  const DryParams& params() const { return p_; }
  void generate(float* out, size_t frames);

 private:
  float noise();  // uniform in [-1, 1), xorshift32: cheap and reproducible
  void start_pluck();

  DryParams p_;
  double rate_;
  uint64_t t_ = 0;  // samples since the start
  uint32_t rng_;
  std::vector<float> string_;  // Karplus-Strong delay line
  size_t string_pos_ = 0;
  std::vector<float> recording_;
  size_t rec_pos_ = 0;
};

}  // namespace ws::audio
