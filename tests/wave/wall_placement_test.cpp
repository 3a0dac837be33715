// Walls sit where room_m says, for every wall type: fixed walls on a node (n =
// round(L/X) - 1 interior nodes), cell-centred rigid, absorbing and open walls half
// a cell beyond the outermost node (n = round(L/X)); the modelled wall-to-wall
// distance is within X/2 of room_m. Positions map into the same frame.
#include <gtest/gtest.h>

#include <cmath>

#include "scene/scene_json.hpp"
#include "scene_builders.hpp"

namespace ws {
namespace {

TEST(WallPlacement, ModelledRoomWithinHalfACellForEveryWallType) {
  for (WallCondition w : {WallCondition::fixed(), WallCondition::rigid(), WallCondition::with_absorption(0.3),
                          WallCondition::open()}) {
    for (double L : {2.0, 2.013, 3.4, 0.77}) {
      WaveScene s = testing::cube_scene(L, 16000.0, Precision::Float);
      s.walls.fill(w);
      const DerivedGrid g = derive_grid(s);
      const double X = g.spacing_m;
      EXPECT_LE(std::fabs(g.modelled_m[0] - L), 0.5 * X + 1e-12) << describe(w) << " L " << L;
      const long long cells = std::llround(L / X);
      if (w.kind == WallKind::Fixed) {
        EXPECT_EQ(g.nx, cells - 1);
        EXPECT_NEAR(g.first_node_m[0], X, 1e-15);
      } else {
        EXPECT_EQ(g.nx, cells);
        EXPECT_NEAR(g.first_node_m[0], 0.5 * X, 1e-15);
      }
    }
  }
}

TEST(WallPlacement, MixedWallsOnOneAxis) {
  WaveScene s = testing::cube_scene(2.0, 16000.0, Precision::Float);
  s.walls[0] = WallCondition::fixed();  // x_min on a node
  s.walls[1] = WallCondition::rigid();  // x_max half a cell beyond the last node
  const DerivedGrid g = derive_grid(s);
  const double X = g.spacing_m;
  EXPECT_NEAR(g.first_node_m[0], X, 1e-15);
  EXPECT_NEAR(g.modelled_m[0], (g.nx - 1 + 1.5) * X, 1e-12);
  EXPECT_LE(std::fabs(g.modelled_m[0] - 2.0), 0.5 * X + 1e-12);
  EXPECT_NEAR(g.node_position_m(0, g.nx - 1) + 0.5 * X, g.modelled_m[0], 1e-12);
}

TEST(WallPlacement, TwoMetreRigidBoxIsTwoMetres) {
  // Before cell-centred walls this box modelled 2.0 - X and rang 1.6% sharp.
  WaveScene s = testing::cube_scene(2.0, 8000.0, Precision::Double);
  s.walls.fill(WallCondition::rigid());
  const DerivedGrid g = derive_grid(s);
  EXPECT_LE(std::fabs(g.modelled_m[0] - 2.0), 0.5 * g.spacing_m);
  EXPECT_EQ(g.nx, std::llround(2.0 / g.spacing_m));
}

TEST(WallPlacement, NearestNodeAndTrilinearTapsInTheSameFrame) {
  WaveScene s = testing::cube_scene(1.0, 16000.0, Precision::Float);
  s.walls.fill(WallCondition::rigid());
  const DerivedGrid g = derive_grid(s);
  const auto p = g.node_position_m({7, 9, 11});
  EXPECT_EQ(position_to_node(p, s, g, "p").i, 7);
  const auto taps = position_taps({p[0] + 0.25 * g.spacing_m, p[1], p[2]}, Interpolation::Trilinear, s, g, "p");
  ASSERT_EQ(taps.size(), 2u);  // exactly on the y and z nodes: two taps along x
  double sum = 0;
  for (const auto& t : taps) sum += t.weight;
  EXPECT_NEAR(sum, 1.0, 1e-12);
  EXPECT_NEAR(taps[0].weight, 0.75, 1e-9);
  EXPECT_EQ(taps[0].node.i, 7);
  EXPECT_EQ(taps[1].node.i, 8);
  // Between the wall and the outermost node the position clamps onto that node.
  const auto edge = position_taps({0.1 * g.spacing_m, p[1], p[2]}, Interpolation::Trilinear, s, g, "p");
  EXPECT_EQ(edge.size(), 1u);
  EXPECT_EQ(edge[0].node.i, 0);
}

TEST(WallPlacement, PositionOutsideTheModelledRoomIsRefused) {
  WaveScene s = testing::cube_scene(2.013, 16000.0, Precision::Float);
  s.walls.fill(WallCondition::rigid());
  const DerivedGrid g = derive_grid(s);
  ASSERT_LT(g.modelled_m[0], 2.013);  // rounded down to whole cells
  s.receivers.push_back({"r", {0.5 * (g.modelled_m[0] + 2.013), 1.0, 1.0}});
  try {
    derive_grid(s);
    FAIL() << "accepted a receiver beyond the modelled wall";
  } catch (const SceneError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("receivers[0].position_m[x]"), std::string::npos) << m;
    EXPECT_NE(m.find("modelled room"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace ws
