#include "dsp/resampler.hpp"

#include <cmath>
#include <stdexcept>

namespace ws::audio {

namespace {
int converter_type(ResampleQuality q) {
  switch (q) {
    case ResampleQuality::Best: return SRC_SINC_BEST_QUALITY;
    case ResampleQuality::Medium: return SRC_SINC_MEDIUM_QUALITY;
    case ResampleQuality::Fastest: return SRC_SINC_FASTEST;
    case ResampleQuality::ZeroOrderHold: return SRC_ZERO_ORDER_HOLD;
    case ResampleQuality::Linear: return SRC_LINEAR;
  }
  return SRC_SINC_MEDIUM_QUALITY;
}
}  // namespace

const char* resample_quality_name(ResampleQuality q) {
  switch (q) {
    case ResampleQuality::Best: return "best";
    case ResampleQuality::Medium: return "medium";
    case ResampleQuality::Fastest: return "fastest";
    case ResampleQuality::ZeroOrderHold: return "zoh";
    case ResampleQuality::Linear: return "linear";
  }
  return "medium";
}

ResampleQuality parse_resample_quality(const std::string& s) {
  for (auto q : {ResampleQuality::Best, ResampleQuality::Medium, ResampleQuality::Fastest,
                 ResampleQuality::ZeroOrderHold, ResampleQuality::Linear})
    if (s == resample_quality_name(q)) return q;
  throw std::invalid_argument("resampler quality '" + s + "' is not one of best, medium, fastest, zoh, linear");
}

bool resample_ratio_valid(double ratio) { return std::isfinite(ratio) && src_is_valid_ratio(ratio) != 0; }

StreamResampler::StreamResampler(int channels, ResampleQuality quality) : channels_(channels), quality_(quality) {
  if (channels < 1) throw std::invalid_argument("resampler needs at least one channel, got " + std::to_string(channels));
  int err = 0;
  state_ = src_new(converter_type(quality), channels, &err);
  if (!state_) throw std::runtime_error(std::string("libsamplerate: ") + src_strerror(err));
}

StreamResampler::~StreamResampler() {
  if (state_) src_delete(state_);
}

void StreamResampler::reset() {
  src_reset(state_);
  last_ratio_ = 0.0;
}

void StreamResampler::process(const float* in, long frames, double ratio, std::vector<float>& out,
                              bool end_of_input) {
  if (!resample_ratio_valid(ratio))
    throw std::invalid_argument("resampling ratio " + std::to_string(ratio) + " is outside libsamplerate's [1/256, 256]");
  // The first block sets the ratio outright; later changes glide across the block.
  if (last_ratio_ == 0.0) src_set_ratio(state_, ratio);
  last_ratio_ = ratio;
  const long cap = (long)std::ceil(frames * ratio) + 64;
  scratch_.resize((size_t)cap * channels_);
  SRC_DATA d{};
  d.src_ratio = ratio;
  d.end_of_input = end_of_input ? 1 : 0;
  long done_in = 0;
  // src_process may stop early when the output block is full; loop until all
  // input is consumed (and, at the end, until the tail is drained).
  for (;;) {
    d.data_in = in + done_in * channels_;
    d.input_frames = frames - done_in;
    d.data_out = scratch_.data();
    d.output_frames = cap;
    const int err = src_process(state_, &d);
    if (err) throw std::runtime_error(std::string("libsamplerate: ") + src_strerror(err));
    out.insert(out.end(), scratch_.begin(), scratch_.begin() + d.output_frames_gen * channels_);
    done_in += d.input_frames_used;
    if (done_in >= frames && (!end_of_input || d.output_frames_gen == 0)) break;
    if (d.input_frames_used == 0 && d.output_frames_gen == 0) break;
  }
}

std::vector<float> resample_offline(const std::vector<float>& interleaved, int channels, double ratio,
                                    ResampleQuality quality) {
  StreamResampler r(channels, quality);
  std::vector<float> out;
  out.reserve((size_t)(interleaved.size() * ratio) + 64 * channels);
  r.process(interleaved.data(), (long)(interleaved.size() / channels), ratio, out, true);
  return out;
}

}  // namespace ws::audio
