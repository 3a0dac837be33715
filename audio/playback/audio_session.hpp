#pragma once
// AudioSession: everything the GUI needs to hear the simulation, driven from
// the GUI thread once per frame. It owns the PortAudio stream (audio thread),
// the ring between the two threads, the resampler, the pacing, the spectrum,
// the receiver recording, the impulse response and the auralization.
//
// Frame loop (GUI thread):
//   long n = session.steps_for_frame(frame_dt_s, max_steps);   // pacing advice
//   model.advance(n);
//   session.push_history(model.receiver_history(), 1.0 / grid.dt_s);
//   session.update();                                           // health, spectrum, auralization feed
//   draw_audio_panel(session, panel_state);                     // ImGui
//
// No call throws for a missing or failing device: the status line says what
// happened and the simulation goes on.
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "dsp/resampler.hpp"
#include "dsp/spectrum.hpp"
#include "playback/audio_device.hpp"
#include "playback/auralizer.hpp"
#include "playback/output_chain.hpp"
#include "playback/pacer.hpp"
#include "playback/spsc_ring.hpp"
#include "wavio/signal_export.hpp"

namespace ws::audio {

struct AudioSettings {
  int device = -1;                 // PortAudio device index; -1: the default output
  double device_rate_hz = 48000.0; // a refused rate is replaced by the nearest supported one
  int frames_per_buffer = 256;     // 0: PortAudio chooses
  bool stereo = false;             // two receivers as left and right ears
  int left_receiver = 0, right_receiver = 1;  // indices into the scene's receivers
  ResampleQuality quality = ResampleQuality::Medium;
  double target_fill_s = 0.08;     // ring fill the pacing aims at (latency vs. safety)
};

enum class AudioSource { Receiver, Auralization };

struct AudioStats {
  double real_time_factor = 0.0;  // simulated seconds per wall second (achieved)
  double playback_speed = 1.0;    // 1: true pitch; < 1: slow motion
  double ring_fill_s = 0.0, ring_target_s = 0.0, ring_capacity_s = 0.0;
  double device_latency_s = 0.0;
  float peak = 0.0f, peak_hold = 0.0f, rms = 0.0f;  // linear, after gain and limiter; peak: since the last update()
  uint64_t gaps = 0, silent_frames = 0, dropped_frames = 0, device_underflows = 0, limited_frames = 0;
};

class AudioSession {
 public:
  AudioSession();  // starts PortAudio; never throws (the status says if it failed)
  ~AudioSession();
  AudioSession(const AudioSession&) = delete;
  AudioSession& operator=(const AudioSession&) = delete;

  // --- device ---
  std::vector<OutputDeviceInfo> devices() const;
  // Re-lists devices (restarts PortAudio); only while no stream is open.
  void rescan_devices();
  bool open(const AudioSettings& s);  // false (status says why) when no stream could start
  void close();
  bool is_open() const { return stream_ != nullptr; }
  const AudioSettings& settings() const { return settings_; }
  double device_rate_hz() const { return rate_hz_; }
  int channels() const { return settings_.stereo ? 2 : 1; }
  const std::string& status() const { return status_; }  // one line for the panel
  bool faulted() const { return faulted_; }

  // --- per frame ---
  // Real-time pacing: steps to run this frame (<= max_steps). Returns max_steps
  // when pacing is off, no stream plays, or the source is the auralization.
  long steps_for_frame(double frame_interval_s, long max_steps) const;
  // New receiver samples since the last call are taken from the model's history
  // (one vector per receiver, index s = step s + 1). A shorter history than
  // before means the model was reset: the recording restarts.
  void push_history(const std::vector<std::vector<double>>& history, double sim_rate_hz);
  // Raw form: count samples of the left (and right, may be null) receiver.
  void push(const double* left, const double* right, size_t count, double sim_rate_hz);
  // Device health, auralization feed, meters and spectrum. Once per frame.
  void update();

  // --- controls ---
  void set_gain_db(double db);
  double gain_db() const { return gain_db_; }
  void set_mute(bool m);
  bool muted() const { return controls_.mute.load(); }
  void set_realtime(bool on) { realtime_ = on; }
  bool realtime() const { return realtime_; }
  void set_slow_policy(SlowPolicy p) { slow_policy_ = p; }
  SlowPolicy slow_policy() const { return slow_policy_; }
  bool set_source(AudioSource s);  // false (status says why) when auralization is not possible yet
  AudioSource source() const { return source_; }
  void auto_gain();  // gain so the recent receiver peak plays at -6 dBFS

  // --- readings ---
  AudioStats stats() const;
  const std::vector<float>& spectrum_db() const { return spectrum_.magnitude_db(); }
  double spectrum_bin_hz() const { return sim_rate_hz_ > 0 ? sim_rate_hz_ / spectrum_.fft_size() : 0.0; }
  double sim_rate_hz() const { return sim_rate_hz_; }

  // --- recording, impulse response, auralization ---
  // The receiver signal(s) since the last reset, at the simulation rate.
  const std::vector<std::vector<float>>& recording() const { return recording_; }
  double recording_length_s() const;
  // Takes the recording (the receiver history of an impulse run) as impulse response.
  bool use_recording_as_impulse_response();
  const Auralizer& auralizer() const { return aural_; }
  void set_dry(const DryParams& p);
  bool load_dry_wav(const std::string& path);  // false: message() says why, nothing changed

  // --- export (float WAV); false: message() says why ---
  bool export_recording(const std::string& path, const ExportOptions& o);
  bool export_impulse_response(const std::string& path, const ExportOptions& o);
  const std::string& message() const { return message_; }  // result of the last load/export/IR action

  // Tests: makes the callback abort the stream, as a failing device would.
  void inject_device_failure_for_test() { controls_.inject_failure.store(true); }

 private:
  // Writes channels (at rate_hz) as a float WAV through make_export_clip; sets message_.
  bool export_clip(const std::string& path, const std::vector<std::vector<float>>& channels, double rate_hz,
                   const ExportOptions& o);
  double now_s() const;
  size_t fill_frames() const { return ring_ ? ring_->read_available() / channels() : 0; }
  size_t target_frames() const { return (size_t)(settings_.target_fill_s * rate_hz_); }
  void set_sim_rate(double sim_rate_hz);
  void feed_ring(const float* interleaved, size_t frames);
  bool prepare_auralizer();

  PortAudioLibrary pa_;
  AudioSettings settings_;
  double rate_hz_ = 48000.0;
  std::unique_ptr<SpscRing<float>> ring_;
  OutputControls controls_;
  OutputMeters meters_;
  std::unique_ptr<OutputStream> stream_;
  std::unique_ptr<StreamResampler> resampler_;
  Pacer pacer_;
  SpectrumAnalyzer spectrum_{4096};
  Auralizer aural_;
  std::string status_, message_;
  bool faulted_ = false;
  bool realtime_ = true;
  SlowPolicy slow_policy_ = SlowPolicy::Gaps;
  AudioSource source_ = AudioSource::Receiver;
  double gain_db_ = 0.0;
  double sim_rate_hz_ = 0.0;
  size_t history_consumed_ = 0;
  std::vector<std::vector<float>> recording_;
  size_t max_record_samples_ = 0;
  float recent_peak_ = 0.0f;  // receiver's raw peak over the last seconds (auto gain)
  float peak_hold_ = 0.0f, last_peak_ = 0.0f;
  uint64_t dropped_frames_ = 0;
  double last_spectrum_s_ = -1.0, last_update_s_ = -1.0;
  std::vector<float> scratch_in_, scratch_out_;
  std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

}  // namespace ws::audio
