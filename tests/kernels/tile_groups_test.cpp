// The grouping by tile that the persistent kernel's step data uses (sim/cuda/tile_groups.hpp).
#include <gtest/gtest.h>
#include <algorithm>

#include <random>
#include <set>

#include "cuda/tile_groups.hpp"
#include "cuda/tiled_step.hpp"

namespace ws {
namespace {

TEST(TileGroups, EveryPointLandsInTheTileThatHoldsIt) {
  const FieldLayout L = make_layout(37, 29, 23, 1, 4);
  const TileGrid g = make_tile_grid(L, TileShape{16, 8, 5});
  EXPECT_EQ(g.nx, 3);
  EXPECT_EQ(g.ny, 4);
  EXPECT_EQ(g.nz, 5);
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const int64_t q = L.index(i, j, k);
        const FieldLayout::Point p = L.point(q);
        ASSERT_EQ(p.i, i);
        ASSERT_EQ(p.j, j);
        ASSERT_EQ(p.k, k);
        ASSERT_EQ(tile_of(L, g, q), i / 16 + 3 * (j / 8 + 4 * (k / 5)));
      }
}

TEST(TileGroups, RefusesHaloPointsAndEmptyTiles) {
  const FieldLayout L = make_layout(10, 9, 8, 2, 8);
  const TileGrid g = make_tile_grid(L, TileShape{4, 4, 4});
  EXPECT_THROW(tile_of(L, g, L.index(-1, 0, 0)), std::invalid_argument);
  EXPECT_THROW(tile_of(L, g, L.index(0, 9, 0)), std::invalid_argument);
  EXPECT_THROW(tile_of(L, g, L.index(0, 0, -2)), std::invalid_argument);
  EXPECT_THROW(tile_of(L, g, L.total), std::invalid_argument);
  try {
    make_tile_grid(L, TileShape{4, 0, 4});
    FAIL() << "a tile with a zero side was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("4x0x4"), std::string::npos) << e.what();
  }
}

TEST(TileGroups, GroupsAreAStablePermutationByTile) {
  const FieldLayout L = make_layout(41, 17, 13, 1, 4);
  const TileGrid g = make_tile_grid(L, TileShape{32, 8, 3});
  std::mt19937 rng(7);
  std::vector<int64_t> nodes;
  for (int n = 0; n < 2000; ++n)
    nodes.push_back(L.index((int)(rng() % L.nx), (int)(rng() % L.ny), (int)(rng() % L.nz)));
  const TileGroups t = group_by_tile(L, g, nodes);
  ASSERT_EQ(t.start.size(), (size_t)g.count() + 1);
  EXPECT_EQ(t.start.front(), 0);
  EXPECT_EQ(t.start.back(), (int)nodes.size());
  std::set<int> seen;
  for (int tile = 0; tile < g.count(); ++tile)
    for (int r = t.start[tile]; r < t.start[tile + 1]; ++r) {
      EXPECT_EQ(tile_of(L, g, nodes[t.order[r]]), tile);
      if (r > t.start[tile]) EXPECT_LT(t.order[r - 1], t.order[r]) << "not stable";
      seen.insert(t.order[r]);
    }
  EXPECT_EQ(seen.size(), nodes.size());
  const std::vector<int64_t> sorted = gather(nodes, t.order);
  for (size_t r = 0; r < sorted.size(); ++r) EXPECT_EQ(sorted[r], nodes[t.order[r]]);
}

// The map of the box's faces that temporal_2step finds its wall nodes through.
TEST(BoxFaces, EveryWallNodeIsFoundOnItsFaceAndNoOtherPoint) {
  const FieldLayout L = make_layout(13, 9, 7, 1, 4);
  const double lambda = 0.5;
  BoxWalls w;
  w.fill(WallCondition::with_absorption(0.2));
  w[1] = WallCondition::rigid();
  w[3] = WallCondition::fixed();
  w[5] = WallCondition::open();
  const BoundaryPlan plan = make_boundary_plan(L, w, {}, lambda);
  ASSERT_FALSE(plan.node.empty());
  EXPECT_TRUE(plan_on_box_faces(plan, L));
  const std::vector<int> f = box_face_nodes(L, plan.node);
  EXPECT_EQ((int64_t)f.size(), box_face_slots(L));
  std::set<int64_t> nodes(plan.node.begin(), plan.node.end());
  int found = 0;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const int64_t slot = box_face_slot(L, i, j, k);
        const bool on_face = i == 0 || j == 0 || k == 0 || i == L.nx - 1 || j == L.ny - 1 || k == L.nz - 1;
        ASSERT_EQ(slot >= 0, on_face) << i << "," << j << "," << k;
        const int r = slot >= 0 ? f[(size_t)slot] : -1;
        const bool is_node = nodes.count(L.index(i, j, k)) > 0;
        ASSERT_EQ(r >= 0, is_node) << i << "," << j << "," << k;
        if (r >= 0) {
          EXPECT_EQ(plan.node[(size_t)r], L.index(i, j, k));
          ++found;
        }
      }
  EXPECT_EQ(found, (int)plan.node.size());
  // Only the fixed y_max wall leaves its face's nodes to the interior update.
  EXPECT_LT(f[(size_t)box_face_slot(L, 5, L.ny - 1, 3)], 0);
}

// The walls as whole faces (temporal_2step_vec tells a boundary node by its position):
// the bits of the faces whose points are all nodes, the nodes exactly their points.
TEST(BoxFaces, WholeWallFacesAreFoundAndAGapIsRefused) {
  const FieldLayout L = make_layout(13, 9, 7, 1, 4);
  BoxWalls w;
  w.fill(WallCondition::with_absorption(0.2));
  w[1] = WallCondition::rigid();
  w[3] = WallCondition::fixed();
  BoundaryPlan plan = make_boundary_plan(L, w, {}, 0.5);
  const int faces = box_wall_faces(plan, L);
  EXPECT_EQ(faces, 0b110111) << "every face but the fixed y_max";
  std::set<int64_t> nodes(plan.node.begin(), plan.node.end());
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const bool on = (i == 0 && (faces & 1)) || (i == L.nx - 1 && (faces & 2)) || (j == 0 && (faces & 4)) ||
                        (j == L.ny - 1 && (faces & 8)) || (k == 0 && (faces & 16)) || (k == L.nz - 1 && (faces & 32));
        ASSERT_EQ(on, nodes.count(L.index(i, j, k)) > 0) << i << "," << j << "," << k;
      }
  EXPECT_EQ(box_wall_faces(BoundaryPlan{}, L), 0) << "fixed walls: no wall face";
  // A gap in the x_min wall: its other points lie on no whole face.
  const auto gap = std::find(plan.node.begin(), plan.node.end(), L.index(0, 4, 3));
  ASSERT_NE(gap, plan.node.end());
  plan.node.erase(gap);
  EXPECT_TRUE(plan_on_box_faces(plan, L));
  EXPECT_EQ(box_wall_faces(plan, L), -1);
}

TEST(BoxFaces, AnObstacleIsNotOnTheFaces) {
  const FieldLayout L = make_layout(13, 9, 7, 1, 4);
  BoxWalls w;
  w.fill(WallCondition::rigid());
  SolidNodes s;
  s.material.assign(13 * 9 * 7, 0);
  s.admittance = {0.1};
  s.material[6 + 13 * (4 + 9 * 3)] = 1;
  EXPECT_FALSE(plan_on_box_faces(make_boundary_plan(L, w, s, 0.5), L));
  EXPECT_EQ(box_wall_faces(make_boundary_plan(L, w, s, 0.5), L), -1);
  BoxWalls fixed;
  fixed.fill(WallCondition::fixed());
  EXPECT_FALSE(plan_on_box_faces(make_boundary_plan(L, fixed, s, 0.5), L));
  EXPECT_TRUE(plan_on_box_faces(make_boundary_plan(L, fixed, {}, 0.5), L));  // the empty plan
}

}  // namespace
}  // namespace ws
