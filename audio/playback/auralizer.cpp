#include "playback/auralizer.hpp"

#include <cmath>
#include <stdexcept>

#include "dsp/resampler.hpp"

namespace ws::audio {

void Auralizer::set_impulse_response(std::vector<std::vector<float>> ir, double ir_rate_hz) {
  if (ir.empty() || ir[0].empty()) throw std::invalid_argument("the impulse response is empty: run an impulse first");
  ir_ = std::move(ir);
  ir_rate_hz_ = ir_rate_hz;
  convolvers_.clear();
}

double Auralizer::impulse_response_length_s() const {
  return ir_.empty() || ir_rate_hz_ <= 0 ? 0.0 : ir_[0].size() / ir_rate_hz_;
}

void Auralizer::set_dry_recording(std::vector<float> mono, double rate_hz, std::string name) {
  rec_ = std::move(mono);
  rec_rate_hz_ = rate_hz;
  rec_name_ = std::move(name);
  gen_.reset();
}

void Auralizer::set_dry(const DryParams& p) {
  dry_ = p;
  gen_.reset();
}

void Auralizer::prepare(double device_rate_hz, int out_channels, int block_frames, double max_ir_s) {
  if (ir_.empty()) throw std::invalid_argument("no impulse response recorded yet");
  if (dry_.kind == DryKind::Recording && rec_.empty()) throw std::invalid_argument("no dry recording loaded");
  device_rate_hz_ = device_rate_hz;
  out_channels_ = out_channels;
  block_ = block_frames;
  gen_ = std::make_unique<DryGenerator>(dry_, device_rate_hz);
  if (dry_.kind == DryKind::Recording) {
    const double ratio = device_rate_hz / rec_rate_hz_;
    gen_->set_recording(ratio == 1.0 ? rec_ : resample_offline(rec_, 1, ratio, ResampleQuality::Medium));
  }
  // Resample each channel to the device rate, truncate, then scale all
  // channels by one factor (the left/right balance is the spatial cue).
  const double ratio = device_rate_hz / ir_rate_hz_;
  if (!resample_ratio_valid(ratio))
    throw std::invalid_argument("impulse response rate " + std::to_string(ir_rate_hz_) + " Hz is too far from the device's");
  std::vector<std::vector<float>> h;
  double energy = 0.0;
  const size_t max_len = (size_t)(max_ir_s * device_rate_hz);
  for (const auto& c : ir_) {
    auto r = ratio == 1.0 ? c : resample_offline(c, 1, ratio, ResampleQuality::Best);
    if (r.size() > max_len) {
      r.resize(max_len);
      // 10 ms fade at the cut: a truncated reverb tail must not end in a step.
      const size_t n = std::min<size_t>(r.size(), (size_t)(0.01 * device_rate_hz));
      for (size_t i = 0; i < n; ++i) r[r.size() - 1 - i] *= (float)i / n;
    }
    if (r.empty()) r.push_back(0.0f);
    for (float v : r) energy += (double)v * v;
    h.push_back(std::move(r));
  }
  const float scale = energy > 0 ? (float)(1.0 / std::sqrt(energy / h.size())) : 1.0f;
  convolvers_.clear();
  for (int c = 0; c < out_channels; ++c) {
    auto hc = h[std::min<size_t>(c, h.size() - 1)];  // a mono IR feeds both ears
    for (float& v : hc) v *= scale;
    convolvers_.push_back(std::make_unique<PartitionedConvolver>(hc, block_frames));
  }
  dry_block_.assign(block_frames, 0.0f);
  wet_block_.assign(block_frames, 0.0f);
}

void Auralizer::render_block(float* out) {
  gen_->generate(dry_block_.data(), block_);
  for (int c = 0; c < out_channels_; ++c) {
    convolvers_[c]->process_block(dry_block_.data(), wet_block_.data());
    for (int i = 0; i < block_; ++i) out[i * out_channels_ + c] = wet_block_[i];
  }
}

}  // namespace ws::audio
