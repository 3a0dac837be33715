#include "playback/audio_session.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "playback/device_probe.hpp"

namespace ws::audio {

namespace {
constexpr double kMaxRecordS = 600.0;              // the receiver recording keeps 10 minutes at most
constexpr size_t kMaxRecordSamples = size_t(1) << 26;  // and 256 MiB of floats per channel

// Why the default output is missing, with ALSA's unreadable configuration
// when that is the cause, for the panel.
std::string no_device_status() {
  const std::string alsa = alsa_config_problem();
  return "no audio output device found" + (alsa.empty() ? std::string() : " (" + alsa + ")") +
         "; the simulation runs silent";
}

std::string basename_of(const std::string& p) {
  const auto k = p.find_last_of('/');
  return k == std::string::npos ? p : p.substr(k + 1);
}
}  // namespace

AudioSession::AudioSession() {
  if (!pa_.ok())
    status_ = pa_.error() + "; the simulation runs silent";
  else if (default_output_device() < 0)
    status_ = no_device_status();
  else
    status_ = "audio off";
}

AudioSession::~AudioSession() { close(); }

double AudioSession::now_s() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
}

std::vector<OutputDeviceInfo> AudioSession::devices() const {
  return pa_.ok() ? list_output_devices() : std::vector<OutputDeviceInfo>{};
}

void AudioSession::rescan_devices() {
  if (stream_) return;
  pa_.restart();
  if (!faulted_)
    status_ = !pa_.ok() ? pa_.error() + "; the simulation runs silent"
              : default_output_device() < 0 ? no_device_status()
                                            : "audio off";
}

void AudioSession::close() {
  stream_.reset();  // stops the callback before the ring it reads goes away
  if (!faulted_) status_ = pa_.ok() ? "audio off" : pa_.error();
}

bool AudioSession::open(const AudioSettings& s) {
  close();
  faulted_ = false;
  settings_ = s;
  if (!pa_.ok()) {
    status_ = pa_.error() + "; the simulation runs silent";
    return false;
  }
  const int device = s.device >= 0 ? s.device : default_output_device();
  if (device < 0) {
    status_ = no_device_status();
    return false;
  }
  settings_.device = device;
  std::string note;
  try {
    const RateChoice rc = choose_output_rate(device, channels(), s.device_rate_hz);
    rate_hz_ = rc.rate_hz;
    note = rc.note;
  } catch (const AudioDeviceError& e) {
    status_ = std::string("audio unavailable: ") + e.what();
    return false;
  }
  settings_.device_rate_hz = rate_hz_;
  // Room for a second of audio or four targets, whichever is more: the GUI may
  // stall (window dragged) and the ring should absorb it rather than drop.
  const double ring_s = std::max(1.0, 4.0 * s.target_fill_s);
  ring_ = std::make_unique<SpscRing<float>>(next_power_of_two((size_t)(ring_s * rate_hz_) * channels()));
  controls_.resume_frames.store(target_frames() / 2);
  controls_.inject_failure.store(false);
  meters_.frames_played.store(0);
  meters_.silent_frames.store(0);
  meters_.gaps.store(0);
  meters_.device_underflows.store(0);
  meters_.limited_frames.store(0);
  dropped_frames_ = 0;
  resampler_ = std::make_unique<StreamResampler>(channels(), s.quality);
  pacer_.set_rates(sim_rate_hz_, rate_hz_);
  pacer_.reset();
  try {
    StreamSettings ss{device, channels(), rate_hz_, s.frames_per_buffer};
    stream_ = std::make_unique<OutputStream>(ss, *ring_, controls_, meters_);
  } catch (const AudioDeviceError& e) {
    stream_.reset();
    status_ = std::string("audio unavailable: ") + e.what();
    return false;
  }
  std::ostringstream st;
  st << "playing on '" << stream_->device_name() << "' at " << rate_hz_ << " Hz, " << (channels() == 2 ? "stereo" : "mono")
     << ", " << (s.frames_per_buffer > 0 ? std::to_string(s.frames_per_buffer) : std::string("auto")) << " frames/buffer, "
     << (int)std::lround(stream_->output_latency_s() * 1000) << " ms device latency";
  if (!note.empty()) st << " (" << note << ")";
  status_ = st.str();
  if (source_ == AudioSource::Auralization && !prepare_auralizer()) source_ = AudioSource::Receiver;
  return true;
}

void AudioSession::set_sim_rate(double r) {
  sim_rate_hz_ = r;
  max_record_samples_ = std::min(kMaxRecordSamples, (size_t)(kMaxRecordS * r));
  recording_.clear();
  spectrum_.clear();
  if (resampler_) resampler_->reset();
  pacer_.set_rates(r, rate_hz_);
  pacer_.reset();
}

long AudioSession::steps_for_frame(double frame_interval_s, long max_steps) const {
  if (!realtime_ || !stream_ || source_ != AudioSource::Receiver || sim_rate_hz_ <= 0) return max_steps;
  return pacer_.steps_for_frame(fill_frames(), target_frames(), frame_interval_s, max_steps);
}

void AudioSession::push_history(const std::vector<std::vector<double>>& h, double sim_rate_hz) {
  if (h.empty()) return;
  const size_t nrec = h.size();
  const size_t L = settings_.left_receiver >= 0 && (size_t)settings_.left_receiver < nrec ? settings_.left_receiver : 0;
  const bool have_right = settings_.stereo && settings_.right_receiver >= 0 && (size_t)settings_.right_receiver < nrec;
  const size_t n = h[L].size();
  if (n < history_consumed_) {  // the model was reset
    history_consumed_ = 0;
    set_sim_rate(sim_rate_hz);
  }
  if (n == history_consumed_) return;
  const double* right = settings_.stereo ? (have_right ? h[settings_.right_receiver].data() : h[L].data()) : nullptr;
  push(h[L].data() + history_consumed_, right ? right + history_consumed_ : nullptr, n - history_consumed_, sim_rate_hz);
  history_consumed_ = n;
}

void AudioSession::push(const double* left, const double* right, size_t count, double sim_rate_hz) {
  if (count == 0 || !(sim_rate_hz > 0)) return;
  if (sim_rate_hz != sim_rate_hz_) set_sim_rate(sim_rate_hz);
  pacer_.on_push(count, now_s());
  const size_t rec_ch = right ? 2 : 1;
  if (recording_.size() != rec_ch) recording_.assign(rec_ch, {});
  const size_t keep = std::min(count, max_record_samples_ - std::min(max_record_samples_, recording_[0].size()));
  for (size_t i = 0; i < keep; ++i) {
    recording_[0].push_back((float)left[i]);
    if (right) recording_[1].push_back((float)right[i]);
  }
  // Spectrum and auto-gain look at the left receiver.
  scratch_in_.resize(count);
  float peak = 0.0f;
  for (size_t i = 0; i < count; ++i) {
    scratch_in_[i] = (float)left[i];
    peak = std::max(peak, std::fabs(scratch_in_[i]));
  }
  spectrum_.push(scratch_in_.data(), count);
  recent_peak_ = std::max(recent_peak_, peak);

  if (!stream_ || source_ != AudioSource::Receiver) return;
  const int ch = channels();
  scratch_in_.resize(count * ch);
  for (size_t i = count; i-- > 0;) {  // interleave in place, back to front
    const float l = (float)left[i];
    if (ch == 2) {
      scratch_in_[2 * i] = l;
      scratch_in_[2 * i + 1] = (float)(right ? right[i] : left[i]);
    } else {
      scratch_in_[i] = l;
    }
  }
  double ratio = pacer_.playback_ratio(slow_policy_, fill_frames(), target_frames());
  ratio = std::clamp(ratio, 1.0 / 256.0, 256.0);
  scratch_out_.clear();
  resampler_->process(scratch_in_.data(), (long)count, ratio, scratch_out_);
  feed_ring(scratch_out_.data(), scratch_out_.size() / ch);
}

void AudioSession::feed_ring(const float* interleaved, size_t frames) {
  const size_t ch = channels();
  const size_t written = ring_->write(interleaved, frames * ch) / ch;
  dropped_frames_ += frames - written;
}

void AudioSession::update() {
  const double now = now_s();
  const double dt = last_update_s_ < 0 ? 0.0 : now - last_update_s_;
  last_update_s_ = now;
  if (stream_) {
    const std::string h = stream_->health(now);
    if (!h.empty()) {
      faulted_ = true;
      status_ = "audio stopped: " + h + "; the simulation goes on (reopen the device to retry)";
      stream_.reset();
    }
  }
  if (stream_ && source_ == AudioSource::Auralization && aural_.ready()) {
    // Convolve just enough blocks to keep the ring at its target.
    const size_t block = aural_.block_frames();
    scratch_out_.resize(block * channels());
    for (int guard = 0; guard < 4096 && fill_frames() < target_frames() + block; ++guard) {
      aural_.render_block(scratch_out_.data());
      feed_ring(scratch_out_.data(), block);
    }
  }
  // Meter: the callback's peak since the last frame, held with a 20 dB/s fall.
  const float p = last_peak_ = meters_.take_peak();
  peak_hold_ = std::max(p, peak_hold_ * (float)std::pow(10.0, -dt));
  recent_peak_ *= (float)std::pow(0.5, dt / 3.0);  // half-life 3 s for auto gain
  if (now - last_spectrum_s_ >= 0.05 && sim_rate_hz_ > 0) {
    spectrum_.compute();
    last_spectrum_s_ = now;
  }
}

void AudioSession::set_gain_db(double db) {
  gain_db_ = std::clamp(db, -60.0, 80.0);
  controls_.gain.store((float)std::pow(10.0, gain_db_ / 20.0));
}

void AudioSession::set_mute(bool m) { controls_.mute.store(m); }

void AudioSession::auto_gain() {
  if (recent_peak_ > 0.0f) set_gain_db(20.0 * std::log10(0.5 / recent_peak_));
}

bool AudioSession::prepare_auralizer() {
  try {
    aural_.prepare(rate_hz_, channels(), settings_.frames_per_buffer > 0 ? settings_.frames_per_buffer : 256);
    return true;
  } catch (const std::exception& e) {
    message_ = std::string("auralization: ") + e.what();
    return false;
  }
}

bool AudioSession::set_source(AudioSource s) {
  if (s == AudioSource::Auralization) {
    if (!aural_.has_impulse_response()) {
      message_ = "auralization needs an impulse response: run an impulse, then 'use recording as IR'";
      return false;
    }
    if (stream_ && !prepare_auralizer()) return false;
  }
  source_ = s;
  return true;
}

AudioStats AudioSession::stats() const {
  AudioStats st;
  st.real_time_factor = pacer_.real_time_factor();
  st.playback_speed = pacer_.playback_speed(slow_policy_, fill_frames(), target_frames());
  st.ring_fill_s = fill_frames() / rate_hz_;
  st.ring_target_s = target_frames() / rate_hz_;
  st.ring_capacity_s = ring_ ? ring_->capacity() / channels() / rate_hz_ : 0.0;
  st.device_latency_s = stream_ ? stream_->output_latency_s() : 0.0;
  st.peak_hold = peak_hold_;
  st.peak = last_peak_;
  st.rms = meters_.rms.load();
  st.gaps = meters_.gaps.load();
  st.silent_frames = meters_.silent_frames.load();
  st.dropped_frames = dropped_frames_;
  st.device_underflows = meters_.device_underflows.load();
  st.limited_frames = meters_.limited_frames.load();
  return st;
}

double AudioSession::recording_length_s() const {
  return recording_.empty() || sim_rate_hz_ <= 0 ? 0.0 : recording_[0].size() / sim_rate_hz_;
}

bool AudioSession::use_recording_as_impulse_response() {
  if (recording_.empty() || recording_[0].empty()) {
    message_ = "no receiver recording yet: run the simulation (an impulse source) first";
    return false;
  }
  aural_.set_impulse_response(recording_, sim_rate_hz_);
  std::ostringstream m;
  m << "impulse response: " << aural_.impulse_response_length_s() << " s, " << recording_.size()
    << " channel(s) at " << sim_rate_hz_ << " Hz";
  message_ = m.str();
  if (stream_ && source_ == AudioSource::Auralization) prepare_auralizer();
  return true;
}

void AudioSession::set_dry(const DryParams& p) {
  try {
    DryGenerator check(p, rate_hz_);  // validates the parameters before anything changes
  } catch (const std::exception& e) {
    message_ = std::string("dry signal: ") + e.what();
    return;
  }
  aural_.set_dry(p);
  if (stream_ && source_ == AudioSource::Auralization) prepare_auralizer();
}

bool AudioSession::load_dry_wav(const std::string& path) {
  try {
    AudioClip clip = read_wav(path);
    const int rate = clip.sample_rate_hz;
    std::ostringstream m;
    m << "loaded '" << basename_of(path) << "': " << clip.duration_s() << " s, " << clip.channels << " channel(s) at "
      << rate << " Hz" << (clip.channels > 1 ? " (mixed to mono)" : "");
    aural_.set_dry_recording(mix_to_mono(clip), rate, basename_of(path));
    message_ = m.str();
    if (stream_ && source_ == AudioSource::Auralization) prepare_auralizer();
    return true;
  } catch (const WavError& e) {
    message_ = e.what();
    return false;
  }
}

bool AudioSession::export_clip(const std::string& path, const std::vector<std::vector<float>>& channels,
                               double rate_hz, const ExportOptions& o) {
  try {
    auto r = make_export_clip(channels, rate_hz, o);
    write_float_wav(path, r.clip, export_comment(o));
    message_ = "wrote '" + path + "': " + std::to_string(r.clip.frames()) + " frames, " + r.note;
    return true;
  } catch (const std::exception& e) {
    message_ = e.what();
    return false;
  }
}

bool AudioSession::export_recording(const std::string& path, const ExportOptions& o) {
  return export_clip(path, recording_, sim_rate_hz_, o);
}

bool AudioSession::export_impulse_response(const std::string& path, const ExportOptions& o) {
  if (!aural_.has_impulse_response()) {
    message_ = "no impulse response to export yet";
    return false;
  }
  return export_clip(path, aural_.impulse_response(), aural_.impulse_response_rate_hz(), o);
}

}  // namespace ws::audio
