// WAV files: round trip, export of simulated signals, and every bad file a
// user can hand us (each gives a clear message and changes nothing).
#include <gtest/gtest.h>
#include <sndfile.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "playback/audio_session.hpp"
#include "wavio/signal_export.hpp"
#include "wavio/wav_file.hpp"

using namespace ws::audio;
namespace fs = std::filesystem;

namespace {
fs::path temp_dir() {
  static fs::path d = [] {
    fs::path p = fs::temp_directory_path() / ("ws_wav_test_" + std::to_string(::getpid()));
    fs::create_directories(p);
    return p;
  }();
  return d;
}

void write_with_format(const fs::path& path, int format, int channels, int rate, size_t frames) {
  SF_INFO info{};
  info.samplerate = rate;
  info.channels = channels;
  info.format = format;
  SNDFILE* f = sf_open(path.c_str(), SFM_WRITE, &info);
  ASSERT_NE(f, nullptr) << sf_strerror(nullptr);
  std::vector<float> x(frames * channels);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.5f * (float)std::sin(0.01 * i);
  sf_writef_float(f, x.data(), (sf_count_t)frames);
  sf_close(f);
}

std::string read_error(const fs::path& p, const WavLimits& lim = {}) {
  try {
    read_wav(p.string(), lim);
  } catch (const WavError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST(Wav, FloatRoundTripIsExact) {
  AudioClip c;
  c.sample_rate_hz = 44100;
  c.channels = 2;
  for (int i = 0; i < 10000; ++i) c.interleaved.push_back((float)std::sin(i * 0.001) * (i % 3 ? 1.5f : -0.25f));
  const auto p = temp_dir() / "roundtrip.wav";
  write_float_wav(p.string(), c);
  const AudioClip r = read_wav(p.string());
  EXPECT_EQ(r.sample_rate_hz, 44100);
  EXPECT_EQ(r.channels, 2);
  ASSERT_EQ(r.interleaved.size(), c.interleaved.size());
  for (size_t i = 0; i < c.interleaved.size(); ++i) ASSERT_EQ(r.interleaved[i], c.interleaved[i]) << i;
}

TEST(Wav, Pcm16IsReadAsFloat) {
  const auto p = temp_dir() / "pcm16.wav";
  write_with_format(p, SF_FORMAT_WAV | SF_FORMAT_PCM_16, 1, 22050, 1000);
  const AudioClip r = read_wav(p.string());
  ASSERT_EQ(r.frames(), 1000u);
  for (size_t i = 0; i < 1000; ++i) ASSERT_NEAR(r.interleaved[i], 0.5f * std::sin(0.01 * i), 1.0 / 32768 + 1e-6);
}

TEST(Wav, ExportAtSimulationRateAndResampled) {
  const double sim_rate = 1.0 / 1.7e-5;  // 58823.5... Hz: not a whole number
  std::vector<std::vector<double>> ch(2, std::vector<double>(5882));
  for (size_t i = 0; i < 5882; ++i) ch[0][i] = std::sin(2 * M_PI * 1000 * i / sim_rate), ch[1][i] = -ch[0][i];
  auto r = make_export_clip(ch, sim_rate, {});
  EXPECT_EQ(r.clip.sample_rate_hz, 58824);
  EXPECT_EQ(r.clip.frames(), 5882u);
  EXPECT_NE(r.note.find("written as 58824 Hz"), std::string::npos) << r.note;
  ExportOptions o;
  o.rate_hz = 48000;
  o.normalize = true;
  r = make_export_clip(ch, sim_rate, o);
  EXPECT_EQ(r.clip.sample_rate_hz, 48000);
  EXPECT_NEAR((double)r.clip.frames(), 4800.0, 5.0);
  float peak = 0;
  for (float v : r.clip.interleaved) peak = std::max(peak, std::fabs(v));
  EXPECT_NEAR(peak, 0.891f, 1e-4);
  const auto p = temp_dir() / "export.wav";
  write_float_wav(p.string(), r.clip);
  EXPECT_EQ(read_wav(p.string()).frames(), r.clip.frames());
  EXPECT_THROW(make_export_clip(std::vector<std::vector<double>>{}, sim_rate, {}), WavError);
  EXPECT_THROW(make_export_clip(std::vector<std::vector<double>>{{}}, sim_rate, {}), WavError);
}

TEST(Wav, BadFilesGiveClearMessages) {
  const auto d = temp_dir();
  EXPECT_NE(read_error(d / "missing.wav").find("cannot open"), std::string::npos);
  { std::ofstream(d / "empty.wav"); }
  EXPECT_NE(read_error(d / "empty.wav").find("empty"), std::string::npos);
  { std::ofstream(d / "text.wav") << "this is not a sound file, just some words in a text file\n"; }
  EXPECT_NE(read_error(d / "text.wav").find("not a readable sound file"), std::string::npos) << read_error(d / "text.wav");
  // A real WAV cut off inside its header.
  write_with_format(d / "good.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 1, 48000, 100);
  fs::copy_file(d / "good.wav", d / "cut.wav", fs::copy_options::overwrite_existing);
  fs::resize_file(d / "cut.wav", 20);
  EXPECT_FALSE(read_error(d / "cut.wav").empty());
  // A WAV header with no samples.
  write_with_format(d / "noframes.wav", SF_FORMAT_WAV | SF_FORMAT_FLOAT, 1, 48000, 0);
  EXPECT_NE(read_error(d / "noframes.wav").find("no samples"), std::string::npos) << read_error(d / "noframes.wav");
  // An encoding libsndfile reads but we do not accept, and a non-WAV container.
  write_with_format(d / "adpcm.wav", SF_FORMAT_WAV | SF_FORMAT_IMA_ADPCM, 1, 48000, 4096);
  EXPECT_NE(read_error(d / "adpcm.wav").find("sample encoding"), std::string::npos) << read_error(d / "adpcm.wav");
  write_with_format(d / "sound.aiff", SF_FORMAT_AIFF | SF_FORMAT_PCM_16, 1, 48000, 100);
  EXPECT_NE(read_error(d / "sound.aiff").find("only WAV"), std::string::npos) << read_error(d / "sound.aiff");
  write_with_format(d / "nine.wav", SF_FORMAT_WAVEX | SF_FORMAT_PCM_16, 9, 48000, 100);
  EXPECT_NE(read_error(d / "nine.wav").find("9 channels"), std::string::npos) << read_error(d / "nine.wav");
  // Too long and too large, with the limits lowered so the test stays small.
  write_with_format(d / "long.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_16, 1, 8000, 16000);
  WavLimits lim;
  lim.max_duration_s = 1.0;
  EXPECT_NE(read_error(d / "long.wav", lim).find("longer than the limit"), std::string::npos);
  lim = {};
  lim.max_file_bytes = 1000;
  EXPECT_NE(read_error(d / "long.wav", lim).find("larger than the limit"), std::string::npos);
  // The defaults: 10 minutes and 1 GiB.
  EXPECT_EQ(WavLimits{}.max_duration_s, 600.0);
  EXPECT_EQ(WavLimits{}.max_file_bytes, size_t(1) << 30);
}

TEST(Wav, SessionRejectsBadDryFileAndKeepsTheGoodOne) {
  const auto d = temp_dir();
  write_with_format(d / "dry.wav", SF_FORMAT_WAV | SF_FORMAT_PCM_24, 2, 44100, 4410);
  { std::ofstream(d / "bogus.wav") << "RIFF????WAVEjunk"; }
  AudioSession s;  // no stream needed
  ASSERT_TRUE(s.load_dry_wav((d / "dry.wav").string())) << s.message();
  EXPECT_NE(s.message().find("mixed to mono"), std::string::npos) << s.message();
  EXPECT_EQ(s.auralizer().dry_recording_name(), "dry.wav");
  EXPECT_FALSE(s.load_dry_wav((d / "bogus.wav").string()));
  EXPECT_NE(s.message().find("bogus.wav"), std::string::npos) << s.message();
  EXPECT_EQ(s.auralizer().dry_recording_name(), "dry.wav");  // unchanged
  // Exports without data fail with a message, not an exception.
  EXPECT_FALSE(s.export_recording((d / "rec.wav").string(), {}));
  EXPECT_FALSE(s.export_impulse_response((d / "ir.wav").string(), {}));
  EXPECT_FALSE(s.message().empty());
}

TEST(Wav, SessionRecordsPushesAndExportsThemAndTheImpulseResponse) {
  AudioSession s;  // no stream: pushes still record
  std::vector<std::vector<double>> hist(1);
  for (int i = 0; i < 1000; ++i) hist[0].push_back(i == 10 ? 1.0 : 0.0);
  s.push_history(hist, 32000.0);
  for (int i = 0; i < 600; ++i) hist[0].push_back(0.0);
  s.push_history(hist, 32000.0);  // only the new 600 samples are taken
  ASSERT_EQ(s.recording().size(), 1u);
  EXPECT_EQ(s.recording()[0].size(), 1600u);
  EXPECT_EQ(s.recording()[0][10], 1.0f);
  ASSERT_TRUE(s.use_recording_as_impulse_response()) << s.message();
  const auto p = temp_dir() / "ir.wav";
  ASSERT_TRUE(s.export_impulse_response(p.string(), {})) << s.message();
  const auto clip = read_wav(p.string());
  EXPECT_EQ(clip.sample_rate_hz, 32000);
  EXPECT_EQ(clip.frames(), 1600u);
  EXPECT_EQ(clip.interleaved[10], 1.0f);
  // A shorter history means the model was reset: the recording restarts.
  hist[0].resize(100);
  s.push_history(hist, 32000.0);
  EXPECT_EQ(s.recording()[0].size(), 100u);
}
