// Drives the real binary in a virtual X server (xvfb-run): the scripted mode
// (WS_GUI_FRAMES, WS_GUI_SCREENSHOT, WS_GUI_STEPS_PER_FRAME) runs the default
// shoebox scene, then the screenshot's 3-D view region is measured.
// Two runs: right after the source fires (a few coloured texels around the
// source) and after the pulse has spread through the room (colour all over the
// slices, both signs, varied).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "png_writer.hpp"

namespace {

struct RegionStats {
  long coloured = 0, warm = 0, cold = 0, pixels = 0;
  double luma_stddev = 0;
};

// The region right of the panel and left of the 2-D window, where the 3-D view's slices are.
RegionStats measure(const ws::render::PngImage& img) {
  RegionStats s;
  double sum = 0, sum2 = 0;
  const int x0 = 420, x1 = std::min(img.width, 920);
  for (int y = 0; y < img.height; ++y)
    for (int x = x0; x < x1; ++x) {
      const uint8_t* p = &img.rgba[((size_t)y * img.width + x) * 4];
      const int r = p[0], g = p[1], b = p[2];
      const double luma = 0.299 * r + 0.587 * g + 0.114 * b;
      sum += luma;
      sum2 += luma * luma;
      ++s.pixels;
      const bool warm = r > b + 50 && r > g + 30 && !(g > 150 && b < 80);  // not the amber source marker
      const bool cold = b > r + 50;
      s.warm += warm;
      s.cold += cold;
      s.coloured += warm || cold;
    }
  const double mean = sum / s.pixels;
  s.luma_stddev = std::sqrt(std::max(0.0, sum2 / s.pixels - mean * mean));
  return s;
}

std::string run_gui(int frames, int steps_per_frame, const std::string& png, const std::string& extra_env = "") {
  std::filesystem::remove(png);
  const std::string cmd = extra_env + " WS_GUI_FRAMES=" + std::to_string(frames) + " WS_GUI_SCREENSHOT=" + png +
                          " WS_GUI_STEPS_PER_FRAME=" + std::to_string(steps_per_frame) +
                          " xvfb-run -a -s '-screen 0 1400x880x24' " + WS_WAVESCOPE_BIN + " --scene " +
                          WS_SOURCE_DIR + "/assets/scenes/shoebox.json 2>&1";
  std::string out;
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return "popen failed";
  char buf[512];
  while (fgets(buf, sizeof buf, f)) out += buf;
  const int rc = pclose(f);
  out += "\n[exit status " + std::to_string(WEXITSTATUS(rc)) + "]";
  return out;
}

TEST(GuiUnderXvfb, SlicesShowASpreadingWave) {
  if (std::system("command -v xvfb-run > /dev/null 2>&1") != 0) GTEST_SKIP() << "xvfb-run is not installed (Debian: xvfb)";
  const std::string dir = std::string(WS_BINARY_DIR) + "/tests";
  const std::string early_png = dir + "/gui_early.png", late_png = dir + "/gui_late.png";

  const std::string early_log = run_gui(2, 3, early_png);
  ASSERT_TRUE(std::filesystem::exists(early_png)) << early_log;
  EXPECT_NE(early_log.find("[exit status 0]"), std::string::npos) << early_log;
  const std::string late_log = run_gui(40, 8, late_png);
  ASSERT_TRUE(std::filesystem::exists(late_png)) << late_log;
  EXPECT_NE(late_log.find("[exit status 0]"), std::string::npos) << late_log;
  std::cout << late_log << "\n";

  const auto early = ws::render::read_png_rgba(early_png), late = ws::render::read_png_rgba(late_png);
  ASSERT_EQ(late.width, 1400) << "the window was not the requested size";
  const RegionStats e = measure(early), l = measure(late);
  std::cout << "early: " << e.coloured << " coloured px (" << e.warm << " warm, " << e.cold << " cold), luma sd "
            << e.luma_stddev << "\nlate:  " << l.coloured << " coloured px (" << l.warm << " warm, " << l.cold
            << " cold), luma sd " << l.luma_stddev << "\n";
  // Not blank and not constant: the spread pulse paints a good part of the slices, in both signs.
  EXPECT_GT(l.coloured, l.pixels / 50) << "after the pulse spread the slices show little colour";
  EXPECT_GT(l.warm, l.pixels / 200);
  EXPECT_GT(l.cold, l.pixels / 200);
  EXPECT_GT(l.luma_stddev, 10.0);
  // Right after the source fired only the texels around it are coloured.
  EXPECT_GT(l.coloured, 4 * e.coloured + 1000);
}

// The loader refuses a bad scene with its message and the previous scene keeps running.
TEST(GuiUnderXvfb, BadSceneKeepsThePreviousOne) {
  if (std::system("command -v xvfb-run > /dev/null 2>&1") != 0) GTEST_SKIP() << "xvfb-run is not installed (Debian: xvfb)";
  const std::string bad = std::string(WS_BINARY_DIR) + "/tests/gui_bad_scene.json";
  {
    FILE* f = fopen(bad.c_str(), "w");
    ASSERT_TRUE(f);
    fputs("{\"model\": \"wave3d\", \"room_m\": [3, -4, 2]}", f);
    fclose(f);
  }
  const std::string png = std::string(WS_BINARY_DIR) + "/tests/gui_bad_scene.png";
  const std::string log = run_gui(6, 2, png, "WS_GUI_LOAD=" + bad);
  EXPECT_NE(log.find("[exit status 0]"), std::string::npos) << log;
  EXPECT_NE(log.find("could not load '" + bad + "'"), std::string::npos) << log;
  EXPECT_NE(log.find("room_m"), std::string::npos) << "the message should name the key:\n" << log;
  EXPECT_NE(log.find("scene 'shoebox room' at step 12"), std::string::npos) << log;
}

}  // namespace
