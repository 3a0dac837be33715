#pragma once
// PortAudio, wrapped: library lifetime, the list of output devices, choosing
// a rate the device accepts, and one running output stream whose callback
// drains the ring through the OutputChain. Every failure becomes an
// AudioDeviceError or a health() message; none ends the program, because the
// simulation must go on without sound.
#include <portaudio.h>

#include <atomic>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "playback/output_chain.hpp"

namespace ws::audio {

class AudioDeviceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Pa_Initialize / Pa_Terminate (PortAudio counts nested calls). The device
// scan runs in a child process first (playback/device_probe.hpp); PortAudio
// is initialised here only when that child survived, so an assertion in a
// host API costs the sound, not the process.
class PortAudioLibrary {
 public:
  PortAudioLibrary();
  ~PortAudioLibrary();
  PortAudioLibrary(const PortAudioLibrary&) = delete;
  PortAudioLibrary& operator=(const PortAudioLibrary&) = delete;
  bool ok() const { return started_; }
  std::string error() const;
  // Terminate and initialise again: PortAudio lists devices only when it
  // starts, so this is how a plugged-in device shows up. No stream may be open.
  void restart();

 private:
  void start();
  bool started_ = false;
  PaError err_ = paNoError;
  std::string probe_failure_;  // why the child's scan was not trusted; empty when it was
};

struct OutputDeviceInfo {
  int index = -1;
  std::string name, host_api;
  int max_channels = 0;
  double default_rate_hz = 0.0;
  double default_low_latency_s = 0.0;
  bool is_default = false;
};
std::vector<OutputDeviceInfo> list_output_devices();
int default_output_device();  // -1 when there is none

// The standard rates tried when the requested one is refused.
const std::vector<double>& standard_rates_hz();

struct RateChoice {
  double rate_hz = 0.0;
  bool exact = false;
  std::string note;  // why another rate was chosen
};
// The requested rate if the device takes it, else the nearest (in octaves)
// standard rate it takes; AudioDeviceError if it takes none.
RateChoice choose_output_rate(int device, int channels, double requested_hz);

struct StreamSettings {
  int device = -1;  // -1: the default output device
  int channels = 1;
  double rate_hz = 48000.0;
  int frames_per_buffer = 256;  // 0: let PortAudio choose (paFramesPerBufferUnspecified)
};

class OutputStream {
 public:
  // Opens and starts the stream; AudioDeviceError with PortAudio's message on failure.
  OutputStream(const StreamSettings& s, SpscRing<float>& ring, OutputControls& controls, OutputMeters& meters);
  ~OutputStream();
  OutputStream(const OutputStream&) = delete;
  OutputStream& operator=(const OutputStream&) = delete;

  const StreamSettings& settings() const { return settings_; }
  double output_latency_s() const { return latency_s_; }
  const std::string& device_name() const { return device_name_; }
  // Empty while the stream runs; else what went wrong (device lost, stream
  // finished unexpectedly, no callbacks any more). Call from the GUI thread.
  std::string health(double now_s);

 private:
  static int callback(const void*, void* output, unsigned long frames, const PaStreamCallbackTimeInfo*,
                      PaStreamCallbackFlags flags, void* user);
  static void finished(void* user);

  StreamSettings settings_;
  SpscRing<float>& ring_;
  OutputControls& controls_;
  OutputMeters& meters_;
  OutputChain chain_;
  PaStream* stream_ = nullptr;
  double latency_s_ = 0.0;
  std::string device_name_;
  std::atomic<bool> finished_{false};
  bool closing_ = false;
  uint64_t last_frames_ = 0;
  double last_progress_s_ = -1.0;
};

}  // namespace ws::audio
