#pragma once
// Turning simulated signals (one vector per receiver, at the simulation rate
// 1 / dt_s, which is rarely a whole number of hertz) into a WAV clip: either
// at the simulation rate rounded to whole hertz (every sample kept; the file's
// nominal rate is off by under 0.5 Hz, which the note reports), or resampled to
// a chosen rate with the exact ratio out_rate * dt_s.
#include <string>
#include <vector>

#include "dsp/resampler.hpp"
#include "wavio/wav_file.hpp"

namespace ws::audio {

struct ExportOptions {
  int rate_hz = 0;  // 0: the simulation rate (rounded); else resample to this rate
  bool normalize = false;  // peak to -1 dBFS
  ResampleQuality quality = ResampleQuality::Best;
  std::string unit = "Pa";  // what one unit of the samples is, written into the file's comment
};

// The comment a WAV export carries: the unit, or the scale when normalised.
inline std::string export_comment(const ExportOptions& o) {
  return o.normalize ? "receiver signals scaled to a -1 dBFS peak (unscaled unit: " + o.unit + ")"
                     : "receiver signals in " + o.unit;
}

struct ExportResult {
  AudioClip clip;
  std::string note;  // what was done (rounding, resampling, normalisation)
};

ExportResult make_export_clip(const std::vector<std::vector<double>>& channels, double sim_rate_hz,
                              const ExportOptions& options);
ExportResult make_export_clip(const std::vector<std::vector<float>>& channels, double sim_rate_hz,
                              const ExportOptions& options);

}  // namespace ws::audio
