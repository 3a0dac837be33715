#pragma once
// Streaming sample-rate conversion with libsamplerate (Secret Rabbit Code).
// It runs on the producer side (GUI thread): the audio callback only copies
// device-rate frames out of the ring.
//
// The ratio is output rate / input rate, e.g. 48 kHz / 96 kHz = 0.5. The sinc
// converters band-limit to the lower of the two Nyquist frequencies, which is
// what keeps energy above the device's Nyquist from folding back as aliases
// when the simulation runs faster than the device. The ratio may change from
// call to call (slow motion): libsamplerate glides between the two values
// across the block instead of jumping, so a changing ratio does not click.
#include <samplerate.h>

#include <string>
#include <vector>

namespace ws::audio {

enum class ResampleQuality { Best, Medium, Fastest, ZeroOrderHold, Linear };
const char* resample_quality_name(ResampleQuality q);
ResampleQuality parse_resample_quality(const std::string& s);  // "best", "medium", "fastest", "zoh", "linear"

// libsamplerate accepts ratios in [1/256, 256].
bool resample_ratio_valid(double ratio);

class StreamResampler {
 public:
  StreamResampler(int channels, ResampleQuality quality);
  ~StreamResampler();
  StreamResampler(const StreamResampler&) = delete;
  StreamResampler& operator=(const StreamResampler&) = delete;

  int channels() const { return channels_; }
  ResampleQuality quality() const { return quality_; }

  // Converts `frames` interleaved input frames at `ratio` and appends the output
  // frames (interleaved) to `out`. end_of_input flushes the converter's tail.
  void process(const float* in, long frames, double ratio, std::vector<float>& out, bool end_of_input = false);
  // Forgets the history (after a reset of the simulation).
  void reset();

 private:
  SRC_STATE* state_ = nullptr;
  int channels_;
  ResampleQuality quality_;
  double last_ratio_ = 0.0;
  std::vector<float> scratch_;
};

// Whole-signal conversion (exports, impulse responses, loaded dry signals).
std::vector<float> resample_offline(const std::vector<float>& interleaved, int channels, double ratio,
                                    ResampleQuality quality = ResampleQuality::Best);

}  // namespace ws::audio
