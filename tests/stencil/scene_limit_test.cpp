// The scene-level effect of the computed limit: a scene's Courant number defaults to the stencil's
// limit (or a fraction of it) and a value above it is refused with the limit in the message.
#include <gtest/gtest.h>

#include <sstream>

#include "scene/scene.hpp"

namespace ws {
namespace {

WaveScene leggy4_scene() {
  WaveScene s;
  s.room_m = {1.0, 1.0, 1.0};
  s.sample_rate_hz = 8000;
  s.stencil = "leggy:4";
  return s;
}

TEST(SceneLimit, CourantAboveTheComputedLimitIsRefused) {
  WaveScene s = leggy4_scene();
  const double limit = make_stencil("leggy:4").courant_max;
  s.courant = limit * 1.01;
  try {
    derive_grid(s);
    FAIL() << "courant above the limit was accepted";
  } catch (const SceneError& e) {
    std::ostringstream lim;
    lim.precision(6);
    lim << limit;
    EXPECT_NE(std::string(e.what()).find(lim.str()), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("leggy:4"), std::string::npos) << e.what();
  }
}

TEST(SceneLimit, AtTheLimitAndByDefault) {
  WaveScene s = leggy4_scene();
  const double limit = make_stencil("leggy:4").courant_max;
  s.courant = limit;
  EXPECT_NO_THROW(derive_grid(s));
  s.courant.reset();
  EXPECT_DOUBLE_EQ(derive_grid(s).courant, limit);
  s.courant_fraction = 0.5;
  EXPECT_DOUBLE_EQ(derive_grid(s).courant, 0.5 * limit);
}

TEST(SceneLimit, LargeStencilsLoadAndBadNamesAreSceneErrors) {
  WaveScene s = leggy4_scene();
  s.stencil = "compact:22";
  const DerivedGrid g = derive_grid(s);
  EXPECT_EQ(g.stencil.size(), 461);
  EXPECT_EQ(g.stencil.radius, 4);
  s.stencil = "compact:7";
  EXPECT_THROW(derive_grid(s), SceneError);
}

}  // namespace
}  // namespace ws
