#include "source/sampled_sources.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "wavio/wav_file.hpp"

namespace ws::audio {

namespace {
constexpr long kBlockFrames = 4096;  // file frames converted per block
}

WavSampleStream::WavSampleStream(const std::string& path, double rate_hz, ResampleQuality quality)
    : path_(path), rate_hz_(rate_hz), ratio_(1.0), resampler_(1, quality) {
  AudioClip clip = read_wav(path);
  file_rate_hz_ = clip.sample_rate_hz;
  file_channels_ = clip.channels;
  mono_ = mix_to_mono(clip);
  ratio_ = rate_hz / file_rate_hz_;
  if (!resample_ratio_valid(ratio_)) {
    std::ostringstream os;
    os << "WAV file '" << path << "' is at " << file_rate_hz_ << " Hz and the simulation at " << rate_hz
       << " Hz: a ratio of " << ratio_ << " is not allowed (libsamplerate converts between rates at most 256 "
       << "times apart)";
    throw WavError(os.str());
  }
  length_ = (long long)std::ceil((double)mono_.size() * ratio_ - 1e-9);
}

std::string WavSampleStream::describe() const {
  std::ostringstream os;
  os << path_ << " (" << file_channels_ << " channel(s) -> mono, " << file_rate_hz_ << " Hz";
  if (ratio_ != 1.0) os << " -> " << rate_hz_ << " Hz";
  os << ", " << (double)mono_.size() / file_rate_hz_ << " s)";
  return os.str();
}

void WavSampleStream::restart() {
  resampler_.reset();
  in_pos_ = 0;
  out_pos_ = 0;
  ready_.clear();
  ready_pos_ = 0;
  flushed_ = false;
}

void WavSampleStream::convert_next_block() {
  ready_.clear();
  ready_pos_ = 0;
  if (flushed_) return;
  const long n = (long)std::min<size_t>(kBlockFrames, mono_.size() - in_pos_);
  const bool last = in_pos_ + (size_t)n == mono_.size();
  // The last block also drains the converter's tail (end_of_input).
  resampler_.process(mono_.data() + in_pos_, n, ratio_, ready_, last);
  in_pos_ += (size_t)n;
  flushed_ = last;
}

void WavSampleStream::produce(float* out, size_t count) {
  for (size_t i = 0; i < count; ++i, ++out_pos_) {
    if (out_pos_ >= length_) {
      out[i] = 0.0f;
    } else if (ratio_ == 1.0) {
      out[i] = mono_[(size_t)out_pos_];
    } else {
      while (ready_pos_ == ready_.size() && !flushed_) convert_next_block();
      // The converter may end a sample short of ceil(frames * ratio): silence fills it.
      out[i] = ready_pos_ < ready_.size() ? ready_[ready_pos_++] : 0.0f;
    }
  }
}

DryKind dry_kind_from_name(const std::string& name) {
  if (name == "click_train") return DryKind::ClickTrain;
  if (name == "chirp") return DryKind::Chirp;
  if (name == "plucked_string") return DryKind::PluckedString;
  if (name == "noise_bursts") return DryKind::NoiseBursts;
  std::string allowed;
  for (const auto& n : dry_signal_names()) allowed += (allowed.empty() ? "" : ", ") + n;
  throw std::invalid_argument("dry signal '" + name + "' is not allowed; allowed: " + allowed);
}

namespace {
DryParams dry_params(const std::string& name, double gen_rate_hz) {
  DryParams p;
  p.kind = dry_kind_from_name(name);
  p.amplitude = 1.0;  // the source's amplitude scales it
  p.chirp_end_hz = std::min(p.chirp_end_hz, 0.2 * gen_rate_hz);
  p.chirp_start_hz = std::min(p.chirp_start_hz, 0.5 * p.chirp_end_hz);
  return p;
}
}  // namespace

DrySampleStream::DrySampleStream(const std::string& name, double rate_hz)
    : name_(name), rate_hz_(rate_hz), gen_(dry_params(name, rate_hz / 2), rate_hz / 2),
      resampler_(1, ResampleQuality::Best) {}

std::string DrySampleStream::describe() const { return "dry " + name_ + " at " + std::to_string((int)rate_hz_) + " Hz"; }

void DrySampleStream::restart() {
  gen_ = DryGenerator(gen_.params(), rate_hz_ / 2);
  resampler_.reset();
  ready_.clear();
  ready_pos_ = 0;
}

void DrySampleStream::produce(float* out, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    while (ready_pos_ == ready_.size()) {
      block_.resize(kBlockFrames / 4);
      gen_.generate(block_.data(), block_.size());
      ready_.clear();
      ready_pos_ = 0;
      resampler_.process(block_.data(), (long)block_.size(), 2.0, ready_);
    }
    out[i] = ready_[ready_pos_++];
  }
}

std::shared_ptr<SampleStream> make_sample_stream(const SampledSignalSpec& spec, double rate_hz) {
  switch (spec.kind) {
    case SampledSignalSpec::Kind::Wav: return std::make_shared<WavSampleStream>(spec.resolved_path, rate_hz);
    case SampledSignalSpec::Kind::Dry: return std::make_shared<DrySampleStream>(spec.dry_name, rate_hz);
    case SampledSignalSpec::Kind::None: break;
  }
  throw std::invalid_argument("make_sample_stream: the signal is not sampled");
}

void load_scene_signals(WaveScene& scene) {
  for (size_t q = 0; q < scene.sources.size(); ++q) {
    SourceSpec& src = scene.sources[q];
    if (src.signal.kind != SignalKind::Sampled) continue;
    try {
      src.sampled.stream = make_sample_stream(src.sampled, scene.sample_rate_hz);
    } catch (const std::exception& e) {  // WavError names the file; say which source wanted it
      throw SceneError("sources[" + std::to_string(q) + "].signal: " + e.what());
    }
  }
}

}  // namespace ws::audio
