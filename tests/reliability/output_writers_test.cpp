// Every writer of a user's output goes through the all-or-nothing helper:
// WAV (audio), PNG (render), the benchmarks' JSON (sim/bench). On a full disk
// or in a read-only folder each leaves the previous file whole, no temporary
// file, and a message naming the path.
#include <gtest/gtest.h>

#include "bench/roofline.hpp"
#include "png_writer.hpp"
#include "reliability/fault_helpers.hpp"
#include "wavio/wav_file.hpp"

namespace {

using namespace ws::test;

ws::audio::AudioClip long_clip() {
  ws::audio::AudioClip c;
  c.sample_rate_hz = 48000;
  c.channels = 2;
  c.interleaved.assign(2 * 48000, 0.25f);  // 384 kB
  return c;
}

std::vector<uint8_t> noisy_rgba(int w, int h) {
  std::vector<uint8_t> px((size_t)w * h * 4);
  uint32_t x = 12345;
  for (auto& b : px) b = (uint8_t)((x = x * 1664525u + 1013904223u) >> 24);  // incompressible
  return px;
}

// Runs `write` in a child with files limited to 4 KiB; expects it to throw a
// message that names `path` and to leave `path` as it was.
void expect_full_disk_keeps(const std::string& path, const std::function<void()>& write) {
  std::ofstream(path) << "previous";
  const ChildResult r = in_child([&](std::string& msg) {
    limit_file_size(4096);
    try {
      write();
    } catch (const std::exception& e) {
      msg = e.what();
      return 0;
    }
    return 1;
  });
  ASSERT_EQ(r.exit_code, 0) << "the write did not fail on a full disk: " << r.message;
  EXPECT_NE(r.message.find(path), std::string::npos) << r.message;
  EXPECT_EQ(read_file(path), "previous");
  EXPECT_TRUE(temp_leftovers(fs::path(path).parent_path()).empty());
}

TEST(OutputWriters, WavOnAFullDisk) {
  TempDir d("wav_full");
  const std::string f = d / "receivers.wav";
  expect_full_disk_keeps(f, [&] { ws::audio::write_float_wav(f, long_clip(), "receiver signals in Pa"); });
}

TEST(OutputWriters, PngOnAFullDisk) {
  TempDir d("png_full");
  const std::string f = d / "frame.png";
  expect_full_disk_keeps(f, [&] { ws::render::write_png_rgba(f, 256, 256, noisy_rgba(256, 256)); });
}

TEST(OutputWriters, BenchJsonOnAFullDisk) {
  TempDir d("json_full");
  const std::string f = d / "bench.json";
  std::vector<ws::bench::BenchRecord> recs(200);
  for (auto& r : recs) r.device = std::string(100, 'x');
  expect_full_disk_keeps(f, [&] { ws::bench::write_json_records(f, recs); });
}

TEST(OutputWriters, WavAndPngInAReadOnlyFolder) {
  TempDir d("writers_ro");
  const std::string wav = d / "r.wav", png = d / "f.png";
  fs::permissions(d.path, fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                  fs::perm_options::remove);
  const ChildResult r = in_child([&](std::string& msg) {
    if (!drop_to_nobody()) return 98;
    int failures = 0;
    try {
      ws::audio::write_float_wav(wav, long_clip());
    } catch (const std::exception& e) {
      msg += std::string(e.what()) + "\n";
      ++failures;
    }
    try {
      ws::render::write_png_rgba(png, 4, 4, noisy_rgba(4, 4));
    } catch (const std::exception& e) {
      msg += e.what();
      ++failures;
    }
    return failures == 2 ? 0 : 1;
  });
  ASSERT_NE(r.exit_code, 98) << "could not drop root privileges to test a read-only folder";
  ASSERT_EQ(r.exit_code, 0) << r.message;
  EXPECT_NE(r.message.find("WAV file '" + wav + "'"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("PNG file '" + png + "'"), std::string::npos) << r.message;
  EXPECT_FALSE(fs::exists(wav));
  EXPECT_FALSE(fs::exists(png));
}

TEST(OutputWriters, WrittenFilesReadBack) {
  TempDir d("writers_ok");
  const std::string wav = d / "r.wav", png = d / "f.png";
  ws::audio::write_float_wav(wav, long_clip(), "receiver signals in Pa");
  EXPECT_EQ(ws::audio::read_wav(wav).frames(), 48000u);
  ws::render::write_png_rgba(png, 8, 4, noisy_rgba(8, 4));
  EXPECT_EQ(ws::render::read_png_rgba(png).width, 8);
  EXPECT_TRUE(temp_leftovers(d.path).empty());
}

}  // namespace
