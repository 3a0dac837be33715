// The real `wavescope` window under Xvfb with the scenes that go beyond the
// shoebox: the sediment model's height view (issue 7), the furnished room with
// its obstacles (issue 6), and a scripted switch between the two models
// through the scene loader (WS_GUI_LOAD), both ways, plus a bad sediment
// scene that must leave the running model alone.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "png_writer.hpp"

namespace {

std::string scene(const char* name) { return std::string(WS_SOURCE_DIR) + "/assets/scenes/" + name; }

std::string run_gui(const std::string& scene_path, int frames, int steps_per_frame, const std::string& png,
                    const std::string& extra_env = "") {
  std::filesystem::remove(png);
  const std::string cmd = extra_env + " WS_GUI_FRAMES=" + std::to_string(frames) + " WS_GUI_SCREENSHOT=" + png +
                          " WS_GUI_STEPS_PER_FRAME=" + std::to_string(steps_per_frame) +
                          " xvfb-run -a -s '-screen 0 1400x880x24' " + WS_WAVESCOPE_BIN + " --scene " + scene_path +
                          " 2>&1";
  std::string out;
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return "popen failed";
  char buf[512];
  while (fgets(buf, sizeof buf, f)) out += buf;
  const int rc = pclose(f);
  out += "\n[exit status " + std::to_string(WEXITSTATUS(rc)) + "]";
  return out;
}

struct Region {
  long pixels = 0, sediment = 0;
  double luma_stddev = 0;
};

// The 3-D view between the panel (left) and the side window (bottom right).
Region measure(const ws::render::PngImage& img) {
  Region s;
  double sum = 0, sum2 = 0;
  for (int y = 0; y < img.height * 6 / 10; ++y)
    for (int x = 420; x < std::min(img.width, 1380); ++x) {
      const uint8_t* p = &img.rgba[((size_t)y * img.width + x) * 4];
      const double l = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
      sum += l, sum2 += l * l;
      ++s.pixels;
      s.sediment += p[0] > p[2] + 12 && p[1] > p[2] && p[0] >= p[1] && p[0] > 40;  // the sand/mud map
    }
  const double mean = sum / s.pixels;
  s.luma_stddev = std::sqrt(std::max(0.0, sum2 / s.pixels - mean * mean));
  return s;
}

#define REQUIRE_XVFB()                                                   \
  if (std::system("command -v xvfb-run > /dev/null 2>&1") != 0) \
  GTEST_SKIP() << "xvfb-run is not installed (Debian: xvfb)"

TEST(GuiModels, SedimentSceneShowsTheHeightSurface) {
  REQUIRE_XVFB();
  const std::string png = std::string(WS_BINARY_DIR) + "/tests/gui_sediment.png";
  const std::string log = run_gui(scene("sediment_river_delta.json"), 20, 20, png);
  ASSERT_TRUE(std::filesystem::exists(png)) << log;
  EXPECT_NE(log.find("[exit status 0]"), std::string::npos) << log;
  EXPECT_NE(log.find("scene 'river delta' at step 400 (model sediment2d)"), std::string::npos) << log;
  const auto img = ws::render::read_png_rgba(png);
  const Region r = measure(img);
  std::cout << log << "\nheight view: luma sd " << r.luma_stddev << ", sand/mud pixels " << r.sediment << " of "
            << r.pixels << "\n";
  EXPECT_GT(r.luma_stddev, 10.0) << "the height view is blank or constant";
  EXPECT_GT(r.sediment, r.pixels / 20) << "the surface covers little of the view";
}

TEST(GuiModels, FurnishedRoomRunsWithItsObstacles) {
  REQUIRE_XVFB();
  const std::string png = std::string(WS_BINARY_DIR) + "/tests/gui_furnished.png";
  const std::string log = run_gui(scene("furnished_room.json"), 12, 6, png);
  ASSERT_TRUE(std::filesystem::exists(png)) << log;
  EXPECT_NE(log.find("[exit status 0]"), std::string::npos) << log;
  EXPECT_NE(log.find("scene 'furnished room' at step 72 (model wave3d)"), std::string::npos) << log;
  const Region r = measure(ws::render::read_png_rgba(png));
  std::cout << log << "\nluma sd " << r.luma_stddev << "\n";
  EXPECT_GT(r.luma_stddev, 10.0);
}

// --gl cpu: the whole window (views and panel) drawn by Mesa's llvmpipe, the picture
// still running; --gl other than gpu or cpu is refused with status 2 naming the option.
TEST(GuiModels, GlCpuDrawsTheWindowWithMesa) {
  REQUIRE_XVFB();
  const std::string png = std::string(WS_BINARY_DIR) + "/tests/gui_gl_cpu.png";
  const std::string log = run_gui(scene("shoebox.json") + " --gl cpu", 8, 5, png);
  ASSERT_TRUE(std::filesystem::exists(png)) << log;
  EXPECT_NE(log.find("[exit status 0]"), std::string::npos) << log;
  EXPECT_NE(log.find("GL_RENDERER llvmpipe"), std::string::npos) << log;
  EXPECT_EQ(log.find("--gl cpu asked for"), std::string::npos) << log;
  EXPECT_GT(measure(ws::render::read_png_rgba(png)).luma_stddev, 10.0) << log;
  const std::string bad = run_gui(scene("shoebox.json") + " --gl banana", 2, 1, png);
  EXPECT_NE(bad.find("[exit status 2]"), std::string::npos) << bad;
  EXPECT_NE(bad.find("--gl"), std::string::npos) << bad;
}

TEST(GuiModels, SceneLoaderSwitchesModelsBothWays) {
  REQUIRE_XVFB();
  const std::string png = std::string(WS_BINARY_DIR) + "/tests/gui_switch.png";
  // Waves -> sediment: after the first frame the loader gets the sediment scene.
  std::string log = run_gui(scene("shoebox.json"), 6, 5, png, "WS_GUI_LOAD=" + scene("sediment_river_delta.json"));
  EXPECT_NE(log.find("[exit status 0]"), std::string::npos) << log;
  EXPECT_NE(log.find("wave3d model"), std::string::npos) << log;
  // Frame 1 ran the shoebox; frames 2..6 run the sediment model from step 0: 5 x 5 steps.
  EXPECT_NE(log.find("scene 'river delta' at step 25 (model sediment2d)"), std::string::npos) << log;
  const Region r = measure(ws::render::read_png_rgba(png));
  EXPECT_GT(r.sediment, r.pixels / 20) << "after the switch the height view should show\n" << log;
  // Sediment -> waves.
  log = run_gui(scene("sediment_river_delta.json"), 6, 5, png, "WS_GUI_LOAD=" + scene("shoebox.json"));
  EXPECT_NE(log.find("[exit status 0]"), std::string::npos) << log;
  EXPECT_NE(log.find("scene 'shoebox room' at step 25 (model wave3d)"), std::string::npos) << log;
}

TEST(GuiModels, BadSedimentSceneKeepsTheRunningModel) {
  REQUIRE_XVFB();
  const std::string bad = std::string(WS_BINARY_DIR) + "/tests/gui_bad_sediment.json";
  {
    FILE* f = fopen(bad.c_str(), "w");
    ASSERT_TRUE(f);
    // A time step far above any stability limit of this basin.
    fputs("{\"model\": \"sediment2d\", \"grid\": {\"nx\": 32, \"ny\": 32, \"dx_m\": 100, \"dy_m\": 100},"
          " \"alpha_m2_s\": 1.0, \"beta_m2_s\": 1.0, \"dt_s\": 1e9}",
          f);
    fclose(f);
  }
  const std::string png = std::string(WS_BINARY_DIR) + "/tests/gui_bad_sediment.png";
  const std::string log = run_gui(scene("shoebox.json"), 6, 2, png, "WS_GUI_LOAD=" + bad);
  EXPECT_NE(log.find("[exit status 0]"), std::string::npos) << log;
  EXPECT_NE(log.find("could not load '" + bad + "'"), std::string::npos) << log;
  EXPECT_NE(log.find("scene 'shoebox room' at step 12 (model wave3d)"), std::string::npos) << log;
}

}  // namespace

namespace {

// The shipped shoebox with fixed walls: stencils other than the 7-point one run only
// between fixed walls.
std::string fixed_wall_shoebox() {
  std::ifstream in(scene("shoebox.json"));
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string walls = "\"boundary\": {\"absorption\": 0.1}";
  const size_t at = text.find(walls);
  if (at != std::string::npos) text.replace(at, walls.size(), "\"boundary\": \"fixed\"");
  const std::string path = std::string(WS_BINARY_DIR) + "/tests/gui_fixed_shoebox.json";
  std::ofstream(path) << text;
  return path;
}

// The stencil selector's path (WS_GUI_STENCIL): a stencil whose limit allows
// the running Courant number is switched to live; one whose limit is lower is
// refused with the limit in the message, and the run goes on.
TEST(GuiModels, StencilSwitchKeepsRunningOrSaysWhy) {
  REQUIRE_XVFB();
  const std::string png = std::string(WS_BINARY_DIR) + "/tests/gui_stencil.png";
  std::string log = run_gui(fixed_wall_shoebox(), 6, 3, png, "WS_GUI_STENCIL=iwb");
  EXPECT_NE(log.find("[exit status 0]"), std::string::npos) << log;
  EXPECT_NE(log.find("wavescope: stencil iwb"), std::string::npos) << log;
  EXPECT_NE(log.find("scene 'shoebox room' at step 18"), std::string::npos) << log;
  // leggy:2's limit is 0.5, below the shoebox's 1/sqrt(3).
  log = run_gui(fixed_wall_shoebox(), 6, 3, png, "WS_GUI_STENCIL=leggy:2");
  EXPECT_NE(log.find("[exit status 0]"), std::string::npos) << log;
  EXPECT_NE(log.find("stencil 'leggy:2' refused"), std::string::npos) << log;
  EXPECT_NE(log.find("0.5"), std::string::npos) << "the message should give the limit:\n" << log;
  EXPECT_NE(log.find("wavescope: stencil leggy:1"), std::string::npos) << log;
  EXPECT_NE(log.find("scene 'shoebox room' at step 18"), std::string::npos) << log;
  // Not a stencil at all: the valid forms in the message.
  log = run_gui(fixed_wall_shoebox(), 4, 1, png, "WS_GUI_STENCIL=leggy:0");
  EXPECT_NE(log.find("stencil 'leggy:0' refused"), std::string::npos) << log;
  EXPECT_NE(log.find("scene 'shoebox room' at step 4"), std::string::npos) << log;
}

}  // namespace
