#include "playback/audio_device.hpp"

#include "playback/device_probe.hpp"

#include <cmath>
#include <limits>

namespace ws::audio {

namespace {
std::string pa_text(PaError e) {
  std::string s = Pa_GetErrorText(e);
  if (e == paUnanticipatedHostError) {
    const PaHostErrorInfo* h = Pa_GetLastHostErrorInfo();
    if (h && h->errorText) s += std::string(": ") + h->errorText;
  }
  return s;
}

PaStreamParameters output_params(int device, int channels, double latency_s) {
  PaStreamParameters p{};
  p.device = device;
  p.channelCount = channels;
  p.sampleFormat = paFloat32;
  p.suggestedLatency = latency_s;
  return p;
}
}  // namespace

PortAudioLibrary::PortAudioLibrary() { start(); }
PortAudioLibrary::~PortAudioLibrary() {
  if (started_) {
    QuietStderr quiet;
    Pa_Terminate();
  }
}
void PortAudioLibrary::start() {
  const PortAudioProbe probe = probe_portaudio();
  probe_failure_ = probe.reason;
  if (!probe.usable) {
    started_ = false;
    return;
  }
  QuietStderr quiet;
  err_ = Pa_Initialize();
  started_ = err_ == paNoError;
}
void PortAudioLibrary::restart() {
  if (started_) {
    QuietStderr quiet;
    Pa_Terminate();
  }
  start();
}
std::string PortAudioLibrary::error() const {
  if (started_) return "";
  if (!probe_failure_.empty()) return probe_failure_;
  return "PortAudio failed to start: " + pa_text(err_);
}

int default_output_device() {
  const PaDeviceIndex d = Pa_GetDefaultOutputDevice();
  return d == paNoDevice ? -1 : d;
}

std::vector<OutputDeviceInfo> list_output_devices() {
  std::vector<OutputDeviceInfo> out;
  const int n = Pa_GetDeviceCount();
  const int def = default_output_device();
  for (int i = 0; i < n; ++i) {
    const PaDeviceInfo* d = Pa_GetDeviceInfo(i);
    if (!d || d->maxOutputChannels < 1) continue;
    const PaHostApiInfo* h = Pa_GetHostApiInfo(d->hostApi);
    out.push_back({i, d->name ? d->name : "?", h && h->name ? h->name : "?", d->maxOutputChannels,
                   d->defaultSampleRate, d->defaultLowOutputLatency, i == def});
  }
  return out;
}

const std::vector<double>& standard_rates_hz() {
  static const std::vector<double> r = {8000, 11025, 16000, 22050, 32000, 44100, 48000, 88200, 96000, 176400, 192000};
  return r;
}

RateChoice choose_output_rate(int device, int channels, double requested_hz) {
  const PaDeviceInfo* info = device >= 0 ? Pa_GetDeviceInfo(device) : nullptr;
  if (!info) throw AudioDeviceError("audio device " + std::to_string(device) + " does not exist");
  const auto params = output_params(device, channels, info->defaultLowOutputLatency);
  QuietStderr quiet;  // ALSA reports every refused rate on stderr
  auto ok = [&](double r) { return Pa_IsFormatSupported(nullptr, &params, r) == paFormatIsSupported; };
  if (requested_hz > 0 && ok(requested_hz)) return {requested_hz, true, ""};
  double best = 0.0, best_dist = std::numeric_limits<double>::infinity();
  for (double r : standard_rates_hz()) {
    const double dist = std::fabs(std::log2(r / requested_hz));
    if (ok(r) && dist < best_dist) best = r, best_dist = dist;
  }
  if (best == 0.0)
    throw AudioDeviceError("audio device '" + std::string(info->name) + "' accepts none of the standard rates 8 kHz .. 192 kHz for " +
                           std::to_string(channels) + " channel(s) of 32-bit float");
  return {best, false,
          "device refused " + std::to_string((int)std::lround(requested_hz)) + " Hz; using the nearest supported rate, " +
              std::to_string((int)std::lround(best)) + " Hz"};
}

OutputStream::OutputStream(const StreamSettings& s, SpscRing<float>& ring, OutputControls& controls,
                           OutputMeters& meters)
    : settings_(s),
      ring_(ring),
      controls_(controls),
      meters_(meters),
      chain_(s.channels, s.rate_hz) {
  if (settings_.device < 0) settings_.device = default_output_device();
  if (settings_.device < 0) throw AudioDeviceError("no audio output device found");
  const PaDeviceInfo* info = Pa_GetDeviceInfo(settings_.device);
  if (!info) throw AudioDeviceError("audio device " + std::to_string(settings_.device) + " does not exist");
  if (info->maxOutputChannels < settings_.channels)
    throw AudioDeviceError("audio device '" + std::string(info->name) + "' has " + std::to_string(info->maxOutputChannels) +
                           " output channel(s); " + std::to_string(settings_.channels) + " requested");
  device_name_ = info->name;
  const auto params = output_params(settings_.device, settings_.channels, info->defaultLowOutputLatency);
  const unsigned long fpb = s.frames_per_buffer > 0 ? (unsigned long)s.frames_per_buffer : paFramesPerBufferUnspecified;
  QuietStderr quiet;  // a refused open is in the exception's message; ALSA's own lines are noise
  PaError e = Pa_OpenStream(&stream_, nullptr, &params, settings_.rate_hz, fpb, paClipOff, &OutputStream::callback, this);
  if (e != paNoError) {
    stream_ = nullptr;
    throw AudioDeviceError("cannot open '" + device_name_ + "' at " + std::to_string((int)settings_.rate_hz) +
                           " Hz: " + pa_text(e));
  }
  Pa_SetStreamFinishedCallback(stream_, &OutputStream::finished);
  e = Pa_StartStream(stream_);
  if (e != paNoError) {
    Pa_CloseStream(stream_);
    stream_ = nullptr;
    throw AudioDeviceError("cannot start '" + device_name_ + "': " + pa_text(e));
  }
  if (const PaStreamInfo* si = Pa_GetStreamInfo(stream_)) latency_s_ = si->outputLatency;
}

OutputStream::~OutputStream() {
  if (!stream_) return;
  closing_ = true;
  // Abort rather than stop: do not wait for queued buffers when the user closes.
  if (Pa_IsStreamStopped(stream_) == 0) Pa_AbortStream(stream_);
  Pa_CloseStream(stream_);
}

int OutputStream::callback(const void*, void* output, unsigned long frames, const PaStreamCallbackTimeInfo* ti,
                           PaStreamCallbackFlags flags, void* user) {
  auto* self = static_cast<OutputStream*>(user);
  if (flags & paOutputUnderflow) self->meters_.device_underflows.fetch_add(1, std::memory_order_relaxed);
  if (self->controls_.inject_failure.load(std::memory_order_relaxed)) return paAbort;
  // The host's clock when it gives one (wall time on ALSA), else the frames played.
  const double now_s = ti && ti->currentTime > 0
                           ? ti->currentTime
                           : self->meters_.frames_played.load(std::memory_order_relaxed) / self->settings_.rate_hz;
  self->chain_.process(self->ring_, static_cast<float*>(output), frames, self->controls_, self->meters_, now_s);
  return paContinue;
}

void OutputStream::finished(void* user) { static_cast<OutputStream*>(user)->finished_.store(true); }

std::string OutputStream::health(double now_s) {
  if (!stream_) return "no stream";
  if (finished_.load() && !closing_) return "the audio stream on '" + device_name_ + "' stopped unexpectedly";
  const PaError active = Pa_IsStreamActive(stream_);
  if (active < 0) return "audio device '" + device_name_ + "' failed: " + pa_text(active);
  if (active == 0) return "the audio stream on '" + device_name_ + "' is no longer running";
  // A stream that is "active" but whose callback stopped being called is a hung device.
  const uint64_t f = meters_.frames_played.load(std::memory_order_relaxed);
  if (f != last_frames_ || last_progress_s_ < 0) {
    last_frames_ = f;
    last_progress_s_ = now_s;
  } else if (now_s - last_progress_s_ > 2.0 + latency_s_) {
    return "audio device '" + device_name_ + "' stalled: no audio requested for " +
           std::to_string((int)(now_s - last_progress_s_)) + " s";
  }
  return "";
}

}  // namespace ws::audio
