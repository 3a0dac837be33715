#pragma once
// WAV reading and writing with libsndfile. Reading checks everything a user's
// file can get wrong (not audio at all, empty, too long or too large, an
// encoding we do not accept) and throws WavError with a message naming the
// file, the value found and what is allowed, before anything else changes.
#include <stdexcept>
#include <string>
#include <vector>

namespace ws::audio {

class WavError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct AudioClip {
  int sample_rate_hz = 0;
  int channels = 0;
  std::vector<float> interleaved;  // frames * channels
  size_t frames() const { return channels ? interleaved.size() / channels : 0; }
  double duration_s() const { return sample_rate_hz ? (double)frames() / sample_rate_hz : 0.0; }
};

struct WavLimits {
  double max_duration_s = 600.0;          // 10 minutes
  size_t max_file_bytes = size_t(1) << 30;  // 1 GiB
  int max_channels = 8;
};

// Reads a WAV (RIFF, WAVE-EXTENSIBLE or RF64) holding 8/16/24/32-bit PCM or
// 32/64-bit float samples, as floats in [-1, 1] for PCM.
AudioClip read_wav(const std::string& path, const WavLimits& limits = {});

// Writes 32-bit float WAV. Channels are interleaved; values are written as they
// are (a float WAV may exceed 1; normalise first if a player should not clip).
// `comment` (for example the unit of the samples) goes into the file's INFO chunk.
void write_float_wav(const std::string& path, const AudioClip& clip, const std::string& comment = "");

// Mixes any channel count down to mono (the average of the channels).
std::vector<float> mix_to_mono(const AudioClip& clip);

// Scales so the largest magnitude is `peak` (leaves silence alone).
void normalize_peak(std::vector<float>& samples, float peak = 0.891f /* -1 dBFS */);

}  // namespace ws::audio
