#pragma once
// The sampled source signals of a wave scene (sim/core/sample_stream.hpp): a WAV
// file mixed down to mono and resampled to the simulation rate with libsamplerate
// as the run reaches it, or one of the dry signals generated at that rate. The
// scene parser only records what a signal is; load_scene_signals attaches the
// streams (sim links no audio library).
#include <memory>
#include <string>
#include <vector>

#include "core/sample_stream.hpp"
#include "dsp/dry_signals.hpp"
#include "dsp/resampler.hpp"
#include "scene/scene.hpp"

namespace ws::audio {

// A WAV file's samples at rate_hz. The whole file is read (and checked) at once,
// as mono at its own rate; the conversion runs block by block as samples are read.
// A file already at rate_hz is passed through sample for sample.
class WavSampleStream final : public SampleStream {
 public:
  // WavError (naming the file) when it cannot be read or its rate is more than
  // 256 times away from rate_hz (libsamplerate's limit).
  WavSampleStream(const std::string& path, double rate_hz, ResampleQuality quality = ResampleQuality::Best);

  long long length() const override { return length_; }
  std::string describe() const override;
  int file_rate_hz() const { return file_rate_hz_; }
  int file_channels() const { return file_channels_; }

 protected:
  void produce(float* out, size_t count) override;
  void restart() override;

 private:
  void convert_next_block();

  std::string path_;
  int file_rate_hz_ = 0, file_channels_ = 0;
  double rate_hz_, ratio_;
  std::vector<float> mono_;  // the file at its own rate
  long long length_ = 0;     // ceil(frames * ratio): the converted length
  StreamResampler resampler_;
  size_t in_pos_ = 0;        // file frames converted so far
  long long out_pos_ = 0;    // samples produced so far
  std::vector<float> ready_;  // converted, not yet produced
  size_t ready_pos_ = 0;
  bool flushed_ = false;
};

// One of the dry signals (dry_signal_names()) at rate_hz with a peak of about 1, repeating
// forever. The generator runs at half the simulation rate and libsamplerate converts it up
// by 2, so nothing lies above a quarter of the simulation rate: a click or a noise burst
// made at the full rate would be white up to its Nyquist frequency, where the grid's
// waves travel at the wrong speed. The chirp ends at a tenth of the simulation rate
// (its usual 8 kHz from 80 kHz up).
class DrySampleStream final : public SampleStream {
 public:
  DrySampleStream(const std::string& name, double rate_hz);
  long long length() const override { return -1; }
  std::string describe() const override;

 protected:
  void produce(float* out, size_t count) override;
  void restart() override;

 private:
  std::string name_;
  double rate_hz_;
  DryGenerator gen_;  // at rate_hz / 2
  StreamResampler resampler_;
  std::vector<float> block_, ready_;
  size_t ready_pos_ = 0;
};

// The dry generator of a scene name (click_train, chirp, plucked_string, noise_bursts);
// std::invalid_argument listing the names otherwise.
DryKind dry_kind_from_name(const std::string& name);

// The stream a scene's sampled signal plays at rate_hz (WavError for a bad file).
std::shared_ptr<SampleStream> make_sample_stream(const SampledSignalSpec& spec, double rate_hz);

// Attaches a stream to every sampled source of the scene, at its sample_rate_hz.
// SceneError naming the source and the file when one cannot be read.
void load_scene_signals(WaveScene& scene);

}  // namespace ws::audio
