// `--kernel auto` on a room's own step (sim/cuda/room_autotune.hpp): what can be checked
// without a device, the cache key of a room and the candidates timed on it.
#include <gtest/gtest.h>

#include <algorithm>

#include "boundary/boundary_plan.hpp"
#include "cuda/room_autotune.hpp"
#include "cuda/tiled_step.hpp"

namespace ws {
namespace {

BoundaryPlan plan_with(std::vector<int64_t> nodes) {
  BoundaryPlan p;
  p.node = nodes;
  p.neighbours.assign(nodes.size(), 0x3f);
  p.count.assign(nodes.size(), 6);
  p.beta_sum.assign(nodes.size(), 0.0);
  return p;
}

TEST(RoomAutotune, TheCacheKeyTellsRoomsOnOneGridApart) {
  const TuneProblem grid{"7pt", Precision::Float, 40, 30, 20};
  const BoundaryPlan a = plan_with({100, 101}), b = plan_with({100, 102});
  RoomStep ra, rb, rc;
  ra.plan = &a;
  rb.plan = &b;
  rc.plan = &a;
  rc.receivers.push_back({{{3, 4, 5}, 1.0}});
  const std::string ka = problem_key(room_problem(grid, ra));
  EXPECT_EQ(ka.rfind("7pt@room:", 0), 0u) << ka;
  EXPECT_NE(ka.find("/float/40x30x20"), std::string::npos) << ka;
  EXPECT_EQ(ka, problem_key(room_problem(grid, ra)));
  EXPECT_NE(ka, problem_key(room_problem(grid, rb)));
  EXPECT_NE(ka, problem_key(room_problem(grid, rc)));
  EXPECT_NE(ka, problem_key(grid));
}

TEST(RoomAutotune, CandidatesAreTheBareChoiceThenTheWholeStepKernels) {
  const Stencil st = make_stencil("7pt");
  TuneChoice bare;
  bare.kernel = "zstream_cached";
  bare.block = {32, 4, 1};
  const auto c = room_candidates(bare, st, Precision::Float);
  ASSERT_GE(c.size(), 2u);
  EXPECT_EQ(c[0].kernel, "zstream_cached");
  EXPECT_EQ(c[0].block.y, 4);
  bool fused = false;
  for (size_t q = 1; q < c.size(); ++q) {
    const KernelVariant& v = KernelRegistry::instance().at(c[q].kernel);
    EXPECT_TRUE(v.multi_step() && v.multi_walls == KernelVariant::MultiWalls::All) << v.id;
    EXPECT_TRUE(v.auto_candidate) << v.id;
    fused |= v.id == "zstream_fused";
  }
  EXPECT_TRUE(fused);
  // A kernel with room_blocks is timed at each of them (zstream_fused_vec: four), once with
  // its own z chunks and once with each of its room_z_waves.
  const KernelVariant& vec = KernelRegistry::instance().at("zstream_fused_vec");
  ASSERT_GE(vec.room_blocks.size(), 2u);
  ASSERT_GE(vec.room_z_waves.size(), 1u);
  for (const BlockShape& b : vec.room_blocks) {
    std::vector<int> waves;
    for (const auto& x : c)
      if (x.kernel == vec.id && x.block.x == b.x && x.block.y == b.y && x.block.z == b.z) waves.push_back(x.z_waves);
    std::vector<int> want = {0};
    want.insert(want.end(), vec.room_z_waves.begin(), vec.room_z_waves.end());
    EXPECT_EQ(waves, want) << b.x << "x" << b.y;
  }
  // The bare choice is not repeated among the room blocks.
  TuneChoice vec_bare;
  vec_bare.kernel = vec.id;
  vec_bare.block = vec.room_blocks[0];
  EXPECT_EQ(room_candidates(vec_bare, st, Precision::Float).size(), c.size() - 1);
  // temporal_2step runs the box's walls but not obstacles: it is no whole-step candidate.
  for (const auto& x : c) {
    EXPECT_NE(x.kernel, "temporal_2step");
    EXPECT_NE(x.kernel, "temporal_2step_vec");
  }
  // Leggy stencils have no whole-step kernel.
  TuneChoice leggy;
  leggy.kernel = "ztma_leggy";
  EXPECT_EQ(room_candidates(leggy, make_stencil("leggy:4"), Precision::Float).size(), 1u);
}

// brick_onchip runs every room (walls by face class, obstacles and the nodes the classes get
// wrong as column events: MultiWalls::All), so it is timed on every room as the
// whole-step kernels are; the two-step passes stay out either way.
TEST(RoomAutotune, OnChipKernelsJoinEveryRoom) {
  using W = KernelVariant::MultiWalls;
  const Stencil st = make_stencil("7pt");
  TuneChoice bare;
  bare.kernel = "zstream_cached";
  bare.block = {32, 4, 1};
  auto has = [&](W walls, const char* id) {
    for (const auto& c : room_candidates(bare, st, Precision::Float, walls))
      if (c.kernel == id) return true;
    return false;
  };
  for (W walls : {W::All, W::BoxFaces, W::WholeFaces, W::ClassFaces, W::None}) {
    EXPECT_TRUE(has(walls, "brick_onchip"));
    EXPECT_FALSE(has(walls, "temporal_2step_vec"));
    EXPECT_TRUE(has(walls, "zstream_fused_vec"));
  }
}

// A room's class from its plan: no walls, walls its face classes hold, whole faces whose
// nodes differ, walls with a gap, an obstacle.
TEST(RoomAutotune, TheRoomsWallsClassFollowsItsPlan) {
  using W = KernelVariant::MultiWalls;
  const FieldLayout L = make_layout(13, 9, 7, 1, 4);
  EXPECT_EQ(plan_walls_class(nullptr, L), W::None);
  const BoundaryPlan none;
  EXPECT_EQ(plan_walls_class(&none, L), W::None);
  BoxWalls w;
  w.fill(WallCondition::with_absorption(0.2));
  w[3] = WallCondition::fixed();
  BoundaryPlan plan = make_boundary_plan(L, w, {}, 0.5);
  EXPECT_EQ(plan_walls_class(&plan, L), W::ClassFaces);
  const size_t r = (size_t)(std::find(plan.node.begin(), plan.node.end(), L.index(0, 4, 3)) - plan.node.begin());
  ASSERT_LT(r, plan.node.size());
  BoundaryPlan uneven = plan;
  uneven.beta_sum[r] *= 2.0;
  EXPECT_EQ(plan_walls_class(&uneven, L), W::WholeFaces);
  BoundaryPlan gap = plan;
  gap.node.erase(gap.node.begin() + (long)r);
  EXPECT_EQ(plan_walls_class(&gap, L), W::BoxFaces);
  BoundaryPlan solid = plan;
  solid.solid.push_back(L.index(6, 4, 3));
  EXPECT_EQ(plan_walls_class(&solid, L), W::All);
}

TEST(RoomAutotune, ABareRoomKeepsTheBareChoiceWithoutTiming) {
  TuneChoice bare;
  bare.kernel = "zstream_vec";
  bare.block = {64, 8, 1};
  AutotuneOptions o;
  o.cache_path = "-";
  const TuneChoice c = autotune_room_on_device(bare, make_stencil("7pt"), Precision::Float, 20, 20, 20, RoomStep{}, o);
  EXPECT_EQ(c.kernel, "zstream_vec");
  EXPECT_EQ(c.block.x, 64);
  EXPECT_EQ(c.measured, 0);
}

}  // namespace
}  // namespace ws
