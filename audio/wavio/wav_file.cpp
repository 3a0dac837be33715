#include "wavio/wav_file.hpp"

#include <sndfile.h>
#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "atomic_file.hpp"

namespace ws::audio {

namespace {

struct SndCloser {
  void operator()(SNDFILE* f) const { sf_close(f); }
};
using SndPtr = std::unique_ptr<SNDFILE, SndCloser>;

std::string format_name(int format) {
  SF_FORMAT_INFO info{};
  info.format = format;
  if (sf_command(nullptr, SFC_GET_FORMAT_INFO, &info, sizeof info) == 0 && info.name) return info.name;
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%08x", format);
  return buf;
}

}  // namespace

AudioClip read_wav(const std::string& path, const WavLimits& lim) {
  const std::string where = "WAV file '" + path + "'";
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) throw WavError(where + ": cannot open it (no such file or no permission)");
  if (!S_ISREG(st.st_mode)) throw WavError(where + ": not a regular file");
  if (st.st_size == 0) throw WavError(where + ": the file is empty (0 bytes)");
  if ((size_t)st.st_size > lim.max_file_bytes)
    throw WavError(where + ": " + std::to_string(st.st_size) + " bytes is larger than the limit of " +
                   std::to_string(lim.max_file_bytes) + " bytes");
  SF_INFO info{};
  SndPtr f(sf_open(path.c_str(), SFM_READ, &info));
  if (!f) throw WavError(where + ": not a readable sound file (" + sf_strerror(nullptr) + ")");
  const int major = info.format & SF_FORMAT_TYPEMASK, sub = info.format & SF_FORMAT_SUBMASK;
  if (major != SF_FORMAT_WAV && major != SF_FORMAT_WAVEX && major != SF_FORMAT_RF64)
    throw WavError(where + ": container is " + format_name(major) + "; only WAV (RIFF, WAVE-EXTENSIBLE, RF64) is accepted");
  const int ok_subs[] = {SF_FORMAT_PCM_U8, SF_FORMAT_PCM_S8, SF_FORMAT_PCM_16, SF_FORMAT_PCM_24,
                         SF_FORMAT_PCM_32, SF_FORMAT_FLOAT,  SF_FORMAT_DOUBLE};
  if (std::find(std::begin(ok_subs), std::end(ok_subs), sub) == std::end(ok_subs))
    throw WavError(where + ": sample encoding is " + format_name(sub) +
                   "; accepted encodings are 8/16/24/32-bit PCM and 32/64-bit float");
  if (info.channels < 1 || info.channels > lim.max_channels)
    throw WavError(where + ": " + std::to_string(info.channels) + " channels; 1 to " +
                   std::to_string(lim.max_channels) + " are accepted");
  if (info.samplerate < 1000 || info.samplerate > 768000)
    throw WavError(where + ": sample rate " + std::to_string(info.samplerate) + " Hz is outside 1 kHz .. 768 kHz");
  if (info.frames <= 0) throw WavError(where + ": holds no samples (0 frames)");
  const double duration_s = (double)info.frames / info.samplerate;
  if (duration_s > lim.max_duration_s)
    throw WavError(where + ": " + std::to_string(duration_s) + " s is longer than the limit of " +
                   std::to_string(lim.max_duration_s) + " s");
  AudioClip clip;
  clip.sample_rate_hz = info.samplerate;
  clip.channels = info.channels;
  clip.interleaved.resize((size_t)info.frames * info.channels);
  const sf_count_t got = sf_readf_float(f.get(), clip.interleaved.data(), info.frames);
  if (got <= 0) throw WavError(where + ": no samples could be read (" + sf_strerror(f.get()) + ")");
  clip.interleaved.resize((size_t)got * info.channels);  // a truncated file keeps what it has
  for (float v : clip.interleaved)
    if (!std::isfinite(v)) throw WavError(where + ": holds non-finite samples (NaN or infinity)");
  return clip;
}

void write_float_wav(const std::string& path, const AudioClip& clip, const std::string& comment) {
  const std::string where = "WAV file '" + path + "'";
  if (clip.channels < 1) throw WavError(where + ": cannot write " + std::to_string(clip.channels) + " channels");
  if (clip.sample_rate_hz < 1) throw WavError(where + ": cannot write a rate of " + std::to_string(clip.sample_rate_hz) + " Hz");
  if (clip.interleaved.size() % clip.channels != 0) throw WavError(where + ": sample count is not a whole number of frames");
  SF_INFO info{};
  info.samplerate = clip.sample_rate_hz;
  info.channels = clip.channels;
  // Plain RIFF WAV holds at most 4 GiB; RF64 beyond that.
  const bool big = clip.interleaved.size() * sizeof(float) > 0xF0000000ull;
  info.format = (big ? SF_FORMAT_RF64 : SF_FORMAT_WAV) | SF_FORMAT_FLOAT;
  // All or nothing (util/atomic_file.hpp): a full disk leaves no truncated WAV.
  ws::util::write_atomically_via_path(path, "WAV file", [&](const std::string& temp) {
    SndPtr f(sf_open(temp.c_str(), SFM_WRITE, &info));
    if (!f) throw WavError(where + ": cannot write it (" + sf_strerror(nullptr) + ")");
    if (!comment.empty()) sf_set_string(f.get(), SF_STR_COMMENT, comment.c_str());
    const sf_count_t frames = (sf_count_t)clip.frames();
    if (sf_writef_float(f.get(), clip.interleaved.data(), frames) != frames)
      throw WavError(where + ": write failed (" + sf_strerror(f.get()) + ")");
    // The header's sizes are written on close; a failure there is a failed write too.
    if (sf_close(f.release()) != 0) throw WavError(where + ": write failed while finishing the file");
  });
}

std::vector<float> mix_to_mono(const AudioClip& clip) {
  std::vector<float> mono(clip.frames());
  for (size_t i = 0; i < mono.size(); ++i) {
    double s = 0.0;
    for (int c = 0; c < clip.channels; ++c) s += clip.interleaved[i * clip.channels + c];
    mono[i] = (float)(s / clip.channels);
  }
  return mono;
}

void normalize_peak(std::vector<float>& x, float peak) {
  float m = 0.0f;
  for (float v : x) m = std::max(m, std::fabs(v));
  if (m > 0.0f)
    for (float& v : x) v *= peak / m;
}

}  // namespace ws::audio
