#include "wavio/signal_export.hpp"

#include <cmath>
#include <sstream>

namespace ws::audio {

namespace {
template <typename T>
ExportResult build(const std::vector<std::vector<T>>& ch, double sim_rate_hz, const ExportOptions& o) {
  if (ch.empty()) throw WavError("nothing to export: no receiver signals");
  if (!(sim_rate_hz >= 1.0) || !std::isfinite(sim_rate_hz))
    throw WavError("simulation rate " + std::to_string(sim_rate_hz) + " Hz cannot be written as a WAV rate");
  size_t frames = ch[0].size();
  for (const auto& c : ch) frames = std::min(frames, c.size());
  if (frames == 0) throw WavError("nothing to export: the signal has no samples yet");
  const int nch = (int)ch.size();
  std::vector<float> inter(frames * nch);
  for (size_t f = 0; f < frames; ++f)
    for (int c = 0; c < nch; ++c) inter[f * nch + c] = (float)ch[c][f];
  ExportResult r;
  std::ostringstream note;
  note.precision(10);
  if (o.rate_hz > 0) {
    const double ratio = o.rate_hz / sim_rate_hz;
    if (!resample_ratio_valid(ratio))
      throw WavError("cannot resample from " + std::to_string(sim_rate_hz) + " Hz to " + std::to_string(o.rate_hz) +
                     " Hz: the ratio must be within 1/256 .. 256");
    r.clip.interleaved = resample_offline(inter, nch, ratio, o.quality);
    r.clip.sample_rate_hz = o.rate_hz;
    note << "resampled from " << sim_rate_hz << " Hz to " << o.rate_hz << " Hz (" << resample_quality_name(o.quality)
         << ")";
  } else {
    r.clip.interleaved = std::move(inter);
    r.clip.sample_rate_hz = (int)std::lround(sim_rate_hz);
    note << "at the simulation rate " << sim_rate_hz << " Hz";
    if (std::fabs(r.clip.sample_rate_hz - sim_rate_hz) > 1e-6) note << ", written as " << r.clip.sample_rate_hz << " Hz";
  }
  r.clip.channels = nch;
  if (o.normalize) {
    normalize_peak(r.clip.interleaved);
    note << ", normalised to -1 dBFS peak";
  }
  r.note = note.str();
  return r;
}
}  // namespace

ExportResult make_export_clip(const std::vector<std::vector<double>>& c, double r, const ExportOptions& o) {
  return build(c, r, o);
}
ExportResult make_export_clip(const std::vector<std::vector<float>>& c, double r, const ExportOptions& o) {
  return build(c, r, o);
}

}  // namespace ws::audio
