// Drawing: a field with a positive lobe and a negative lobe shows red and blue
// in both views (not blank, not one colour); a zero field shows no colour;
// the colour range and dB mode change the picture; PNG files round-trip; the
// embedded shaders are the files in shaders/.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cpu/cpu_solver.hpp"
#include "egl_fixture.hpp"
#include "embedded_shaders.hpp"
#include "png_writer.hpp"
#include "view_renderer.hpp"

namespace ws {
namespace {

struct Counts {
  long red = 0, blue = 0, total = 0;
};

// Pixels that the diverging map paints clearly warm or clearly cold.
Counts count_colours(const std::vector<uint8_t>& rgba) {
  Counts c;
  for (size_t p = 0; p + 3 < rgba.size(); p += 4) {
    const int r = rgba[p], g = rgba[p + 1], b = rgba[p + 2];
    if (r > b + 60 && r > g + 40) ++c.red;
    if (b > r + 60) ++c.blue;
    ++c.total;
  }
  return c;
}

struct Fixture {
  std::unique_ptr<WaveSolver> solver;
  FieldLayout L;
  render::RoomGeometry room;
  Fixture() {
    solver = make_cpu_solver(Precision::Float, make_stencil("7pt"), 40, 30, 20, 0.5, 1e-4);
    L = solver->layout();
    room.nx = 40;
    room.ny = 30;
    room.nz = 20;
    room.spacing_m = 0.1f;
    room.first_m = glm::vec3(0.1f);
    room.extent_m = glm::vec3(41, 31, 21) * 0.1f;
    room.markers.push_back({{1.0f, 1.0f, 1.0f}, render::kSourceColour});
  }
  // +1 blob in one half, -1 blob in the other, crossing every centre plane.
  void lobes() {
    std::vector<double> u(L.total, 0.0);
    for (int k = 0; k < 20; ++k)
      for (int j = 0; j < 30; ++j)
        for (int i = 0; i < 40; ++i) {
          const double dy = j - 15, dz = k - 10;
          const double r2a = (i - 12) * (i - 12) + dy * dy + dz * dz, r2b = (i - 28) * (i - 28) + dy * dy + dz * dz;
          u[L.index(i, j, k)] = std::exp(-r2a / 30.0) - 0.5 * std::exp(-r2b / 30.0);
        }
    solver->write_state(u, std::vector<double>(L.total, 0.0), 0);
  }
};

TEST(Views, ThreeDAndTwoDShowBothSigns) {
  WS_REQUIRE_EGL();
  Fixture f;
  f.lobes();
  render::SliceTextures tex(f.solver->current_field());
  tex.update(f.solver->current_field(), {20, 15, 10}, nullptr);
  EXPECT_NEAR(tex.max_abs(), 1.0f, 0.02f);
  render::ViewRenderer views;
  render::RenderTarget target(320, 240);
  render::OrbitCamera cam;
  cam.reset(f.room.extent_m);
  render::ColorScale scale;
  scale.observe(tex.max_abs());

  views.draw_3d(target, cam, tex, f.room, scale);
  const auto img3 = target.read_rgba();
  const Counts c3 = count_colours(img3);
  EXPECT_GT(c3.red, 200) << "3-D view shows no positive lobe";
  EXPECT_GT(c3.blue, 50) << "3-D view shows no negative lobe";

  for (auto a : {render::SliceAxis::XY, render::SliceAxis::XZ, render::SliceAxis::YZ}) {
    const auto r = views.draw_2d(target, a, tex, f.room, scale);
    EXPECT_GT(r.w, 10.0f);
    const Counts c2 = count_colours(target.read_rgba());
    EXPECT_GT(c2.red, 200) << render::slice_name(a);
    if (a != render::SliceAxis::YZ) EXPECT_GT(c2.blue, 50) << render::slice_name(a);  // YZ at i=20 misses the -lobe core
  }

  // A 100x larger fixed range washes the picture out to the neutral centre
  // (no colour bar here: it would count as colour).
  render::ViewStyle no_bar;
  no_bar.colour_bar = false;
  render::ColorScale wide;
  wide.automatic = false;
  wide.fixed_max = 100.0f;
  views.draw_2d(target, render::SliceAxis::XY, tex, f.room, wide, no_bar);
  EXPECT_LT(count_colours(target.read_rgba()).red, 20);
  // ... and the dB scale brings it back (-40 dB is still coloured with a 60 dB span).
  wide.decibels = true;
  views.draw_2d(target, render::SliceAxis::XY, tex, f.room, wide, no_bar);
  EXPECT_GT(count_colours(target.read_rgba()).red, 200);

  const std::string path = (std::filesystem::temp_directory_path() / "ws_views_test.png").string();
  render::write_png_rgba(path, target.width(), target.height(), target.read_rgba(), {{"k", "v"}});
  const auto back = render::read_png_rgba(path);
  EXPECT_EQ(back.width, 320);
  EXPECT_EQ(back.height, 240);
  EXPECT_EQ(back.rgba, target.read_rgba());
}

TEST(Views, ZeroFieldHasNoColourButTheBar) {
  WS_REQUIRE_EGL();
  Fixture f;
  render::SliceTextures tex(f.solver->current_field());
  tex.update(f.solver->current_field(), {20, 15, 10}, nullptr);
  EXPECT_EQ(tex.max_abs(), 0.0f);
  render::ViewRenderer views;
  render::RenderTarget target(320, 240);
  render::ColorScale scale;
  render::ViewStyle no_bar;
  no_bar.colour_bar = false;
  no_bar.marker_px = 0.0f;
  views.draw_2d(target, render::SliceAxis::XY, tex, f.room, scale, no_bar);
  const Counts c = count_colours(target.read_rgba());
  EXPECT_EQ(c.red, 0);
  EXPECT_EQ(c.blue, 0);
}

TEST(Views, EmbeddedShadersAreTheFiles) {
  namespace fs = std::filesystem;
  int files = 0;
  for (const auto& e : fs::directory_iterator(std::string(WS_SOURCE_DIR) + "/shaders")) {
    const std::string ext = e.path().extension().string();
    if (ext != ".vert" && ext != ".frag" && ext != ".glsl") continue;
    ++files;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    bool found = false;
    for (const auto& s : render::embedded_shaders())
      if (e.path().filename() == s.name) {
        found = true;
        EXPECT_EQ(ss.str(), s.text) << s.name << " is stale: rebuild";
      }
    EXPECT_TRUE(found) << e.path() << " is not embedded";
  }
  EXPECT_EQ(files, (int)render::embedded_shaders().size());
}

}  // namespace
}  // namespace ws
