// `wavescope render` end to end for the scenes that are more than a box: a
// sediment scene (the height surface, issue 7) and the furnished room (the
// obstacles, issue 6). Through EGL, so Mesa llvmpipe serves on a CPU machine.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "png_writer.hpp"

namespace {

struct CliRun {
  std::string log;
  int status = -1;
};

CliRun run(const std::string& args) {
  const std::string cmd = std::string(WS_WAVESCOPE_BIN) + " render " + args + " 2>&1";
  CliRun r;
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return r;
  char buf[512];
  while (fgets(buf, sizeof buf, f)) r.log += buf;
  r.status = WEXITSTATUS(pclose(f));
  return r;
}

std::string scene(const char* name) { return std::string(WS_SOURCE_DIR) + "/assets/scenes/" + name; }
std::string out(const char* name) { return std::string(WS_BINARY_DIR) + "/tests/" + name; }

double luma_stddev(const ws::render::PngImage& img) {
  double sum = 0, sum2 = 0;
  const size_t n = (size_t)img.width * img.height;
  for (size_t p = 0; p < n; ++p) {
    const uint8_t* c = &img.rgba[p * 4];
    const double l = 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2];
    sum += l, sum2 += l * l;
  }
  const double mean = sum / n;
  return std::sqrt(std::max(0.0, sum2 / n - mean * mean));
}

// Pixels in the sand/mud colour map (red over blue, a brown-to-pale-yellow hue), lit or shaded.
long sediment_pixels(const ws::render::PngImage& img) {
  long n = 0;
  for (size_t p = 0; p < (size_t)img.width * img.height; ++p) {
    const int r = img.rgba[p * 4], g = img.rgba[p * 4 + 1], b = img.rgba[p * 4 + 2];
    n += r > b + 12 && g > b && r >= g && r > 40;
  }
  return n;
}

TEST(RenderCli, SedimentSceneDrawsTheHeightSurface) {
  const std::string png = out("render_sediment.png");
  std::filesystem::remove(png);
  const CliRun r = run("--scene " + scene("sediment_river_delta.json") + " --steps 400 --size 480,360 --png " + png);
  ASSERT_EQ(r.status, 0) << r.log;
  EXPECT_NE(r.log.find("surface upload: "), std::string::npos) << r.log;
  std::cout << r.log;
  const auto img = ws::render::read_png_rgba(png);
  ASSERT_EQ(img.width, 480);
  const double sd = luma_stddev(img);
  const long sed = sediment_pixels(img);
  std::cout << "luma sd " << sd << ", sand/mud pixels " << sed << " of " << img.width * img.height << "\n";
  EXPECT_GT(sd, 10.0) << "the picture is (nearly) constant";
  EXPECT_GT(sed, (long)img.width * img.height / 20) << "the surface covers little of the picture";
}

TEST(RenderCli, SedimentSceneRefusesWaveOnlyViews) {
  const CliRun r = run("--scene " + scene("sediment_river_delta.json") + " --view split --png " + out("x.png"));
  EXPECT_EQ(r.status, 2) << r.log;
  EXPECT_NE(r.log.find("allowed: 3d"), std::string::npos) << r.log;
}

TEST(RenderCli, FurnishedRoomDrawsItsObstacles) {
  const std::string with = out("render_furnished.png"), without = out("render_furnished_bare.png");
  const std::string common = "--scene " + scene("furnished_room.json") + " --steps 60 --size 480,360 --range 0.05 ";
  const CliRun a = run(common + "--png " + with);
  ASSERT_EQ(a.status, 0) << a.log;
  EXPECT_NE(a.log.find("obstacles: 15 ("), std::string::npos) << a.log;
  const CliRun b = run(common + "--hide-obstacles --png " + without);
  ASSERT_EQ(b.status, 0) << b.log;
  const auto p = ws::render::read_png_rgba(with), q = ws::render::read_png_rgba(without);
  ASSERT_EQ(p.rgba.size(), q.rgba.size());
  long differ = 0;
  for (size_t i = 0; i < p.rgba.size(); i += 4)
    differ += std::abs(p.rgba[i] - q.rgba[i]) + std::abs(p.rgba[i + 1] - q.rgba[i + 1]) +
                  std::abs(p.rgba[i + 2] - q.rgba[i + 2]) > 24;
  std::cout << a.log << "luma sd " << luma_stddev(p) << ", pixels changed by the obstacles: " << differ << "\n";
  EXPECT_GT(luma_stddev(p), 10.0);
  // The furniture covers a good part of the room's picture.
  EXPECT_GT(differ, (long)p.width * p.height / 50);
}

}  // namespace
