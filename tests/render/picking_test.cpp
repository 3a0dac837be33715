// Picking and camera: a ray straight down onto the XY slice lands on the node
// under it; the 2-D mapping inverts the drawing's orientation (v up); the
// camera's reset frames the room and zoom is bounded.
#include <gtest/gtest.h>

#include "color_scale.hpp"
#include "picking.hpp"

namespace ws {
namespace {

render::RoomGeometry room() {
  render::RoomGeometry g;
  g.nx = 40;
  g.ny = 30;
  g.nz = 20;
  g.spacing_m = 0.1f;
  g.first_m = glm::vec3(0.1f);  // fixed walls: node 0 one cell from the wall
  g.extent_m = glm::vec3(4.1f, 3.1f, 2.1f);
  return g;
}

TEST(Picking, RayDownHitsXYSliceNode) {
  const auto g = room();
  const render::SlicePositions pos{5, 6, 7};
  // Above node (12, 9): x = 1.3, y = 1.0. Coming from z > top, the XY plane (z = 0.8) is hit first
  // unless the XZ/YZ planes are parallel to the ray (they are: the direction is -z).
  render::Ray ray{{1.3f, 1.0f, 5.0f}, {0.0f, 0.0f, -1.0f}};
  auto hit = render::pick_slice(ray, g, pos);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->axis, render::SliceAxis::XY);
  EXPECT_EQ(hit->node.i, 12);
  EXPECT_EQ(hit->node.j, 9);
  EXPECT_EQ(hit->node.k, 7);
  EXPECT_NEAR(hit->position_m.z, 0.8f, 1e-5f);
  // Outside the slice's extent: no hit.
  EXPECT_FALSE(render::pick_slice({{9.0f, 1.0f, 5.0f}, {0, 0, -1}}, g, pos));
}

TEST(Picking, NearestPlaneWins) {
  const auto g = room();
  const render::SlicePositions pos{5, 6, 7};  // YZ plane at x = 0.6
  render::Ray ray{{-1.0f, 1.0f, 1.0f}, {1.0f, 0.0f, 0.0f}};
  auto hit = render::pick_slice(ray, g, pos);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->axis, render::SliceAxis::YZ);
  EXPECT_EQ(hit->node.i, 5);
  EXPECT_EQ(hit->node.j, 9);
  EXPECT_EQ(hit->node.k, 9);
}

TEST(Picking, TwoDMapsTopLeftToHighV) {
  const auto g = room();
  auto hit = render::pick_slice_2d(render::SliceAxis::XZ, 0.0f, 0.0f, g, {1, 2, 3});
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->u, 0);
  EXPECT_EQ(hit->v, 19);
  EXPECT_EQ(hit->node.j, 2);
  EXPECT_FALSE(render::pick_slice_2d(render::SliceAxis::XZ, 1.2f, 0.5f, g, {1, 2, 3}));
}

TEST(Camera, ResetLooksAtTheRoomCentreAndZoomIsBounded) {
  render::OrbitCamera cam;
  cam.reset({4.0f, 3.0f, 2.0f});
  EXPECT_NEAR(cam.target.x, 2.0f, 1e-6f);
  const auto centre_ray = cam.ray_through(400, 300, 800, 600);
  const glm::vec3 to_target = glm::normalize(cam.target - cam.eye());
  EXPECT_NEAR(glm::dot(centre_ray.direction, to_target), 1.0f, 1e-4f);
  for (int n = 0; n < 200; ++n) cam.zoom(1.0f);
  EXPECT_GT(cam.distance_m, 0.0f);
  cam.rotate(0.0f, 1e6f);
  EXPECT_LE(cam.pitch_rad, 1.5f);
}

TEST(ColorScale, AutoRangeGrowsAtOnceAndShrinksSlowly) {
  render::ColorScale s;
  s.observe(2.0f);
  EXPECT_EQ(s.range_max(), 2.0f);
  s.observe(0.0f);
  EXPECT_NEAR(s.range_max(), 1.9f, 1e-6f);
  s.observe(5.0f);
  EXPECT_EQ(s.range_max(), 5.0f);
  s.observe(NAN);
  EXPECT_EQ(s.range_max(), 5.0f);
  s.automatic = false;
  s.fixed_max = 0.25f;
  EXPECT_EQ(s.range_max(), 0.25f);
}

}  // namespace
}  // namespace ws
