// The slab plan (sizes, owners, the overlap split, refusals) and what each slab is given.
#include <gtest/gtest.h>

#include "decomp/slab_assign.hpp"
#include "decomp/slab_plan.hpp"

namespace ws {
namespace {

TEST(SlabPlan, NearlyEqualSlabsCoverTheGrid) {
  const SlabPlan p = make_slab_plan(10, 3, 1);
  ASSERT_EQ(p.size(), 3);
  EXPECT_EQ(p.slabs[0].z0, 0);
  EXPECT_EQ(p.slabs[0].nz, 4);
  EXPECT_EQ(p.slabs[1].z0, 4);
  EXPECT_EQ(p.slabs[1].nz, 3);
  EXPECT_EQ(p.slabs[2].z0, 7);
  EXPECT_EQ(p.slabs[2].nz, 3);
  for (int k = 0; k < 10; ++k) EXPECT_EQ(p.slab_of(k), k < 4 ? 0 : k < 7 ? 1 : 2);
  EXPECT_THROW(p.slab_of(10), std::out_of_range);
}

TEST(SlabPlan, RefusesTooManyPartsWithTheNumbers) {
  try {
    make_slab_plan(5, 6, 1, "MPI ranks");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "6 MPI ranks are too many for a grid of 5 z planes: each slab needs at least 1 plane(s) (the "
                 "stencil's radius), so at most 5 MPI ranks can share it");
  }
  EXPECT_THROW(make_slab_plan(16, 5, 4), std::invalid_argument);  // 3 planes < radius 4
  EXPECT_NO_THROW(make_slab_plan(16, 4, 4));
  EXPECT_THROW(make_slab_plan(16, 0, 1), std::invalid_argument);
}

TEST(SlabPlan, OverlapSplitsOnlyAtPartBoundaries) {
  SlabPlan p = make_slab_plan(30, 3, 2);  // 10 planes each, owners 0, 1, 2
  const SlabPlan s = split_edges_for_overlap(p);
  // rank 0: [0,8) [8,10); rank 1: [10,12) [12,18) [18,20); rank 2: [20,22) [22,30)
  ASSERT_EQ(s.size(), 7);
  const int z0[7] = {0, 8, 10, 12, 18, 20, 22}, nz[7] = {8, 2, 2, 6, 2, 2, 8}, own[7] = {0, 0, 1, 1, 1, 2, 2};
  for (int q = 0; q < 7; ++q) {
    EXPECT_EQ(s.slabs[q].z0, z0[q]);
    EXPECT_EQ(s.slabs[q].nz, nz[q]);
    EXPECT_EQ(s.slabs[q].owner, own[q]);
    EXPECT_EQ(s.slabs[q].part, own[q]);
  }
  // 5 planes with radius 2: the outer slabs split (one edge each), the middle one
  // (two edges would leave 1 plane) stays whole.
  const SlabPlan thin = split_edges_for_overlap(make_slab_plan(15, 3, 2));
  ASSERT_EQ(thin.size(), 5);
  EXPECT_EQ(thin.slabs[0].nz, 3);
  EXPECT_EQ(thin.slabs[1].nz, 2);
  EXPECT_EQ(thin.slabs[2].z0, 5);
  EXPECT_EQ(thin.slabs[2].nz, 5);
  // One part: nothing to hide.
  SlabPlan same = make_slab_plan(30, 3, 2);
  for (auto& sl : same.slabs) sl.part = 0;
  EXPECT_EQ(split_edges_for_overlap(same).size(), 3);
}

TEST(SlabAssign, BoundaryNodesMoveToTheirSlab) {
  const FieldLayout L = make_layout(6, 5, 8, 1, 4);
  BoxWalls walls;
  for (auto& w : walls) w = WallCondition::rigid();
  const BoundaryPlan grid = make_boundary_plan(L, walls, {}, 0.5);
  const SlabPlan slabs = make_slab_plan(8, 2, 1);
  size_t total = 0;
  for (int s = 0; s < 2; ++s) {
    const BoundaryPlan b = slab_boundary(grid, L, slabs, s);
    total += b.size();
    for (size_t q = 0; q < b.size(); ++q) {
      const int k = (int)(b.node[q] / L.plane) - L.halo;
      EXPECT_GE(k, 0);
      EXPECT_LT(k, slabs.slabs[s].nz);
    }
  }
  EXPECT_EQ(total, grid.size());
}

TEST(SlabAssign, ReceiversWholeOrSplitByTap) {
  const SlabPlan slabs = make_slab_plan(8, 2, 1);  // cut at 4
  std::vector<ReceiverTaps> r = {{GridTap{GridIndex{1, 1, 2}, 1.0}},
                                 {GridTap{GridIndex{1, 1, 3}, 0.25}, GridTap{GridIndex{1, 1, 4}, 0.75}},
                                 {GridTap{GridIndex{1, 1, 5}, 1.0}}};
  const ReceiverRouting route = route_receivers(r, slabs);
  ASSERT_EQ(route.routes.size(), 3u);
  EXPECT_TRUE(route.routes[0].parts.empty());
  EXPECT_EQ(route.routes[0].slab, 0);
  ASSERT_EQ(route.routes[1].parts.size(), 2u);
  EXPECT_TRUE(route.routes[2].parts.empty());
  EXPECT_EQ(route.routes[2].slab, 1);
  EXPECT_EQ(route.per_slab[1][route.routes[2].local][0].node.k, 1);  // plane 5 is the slab's plane 1
  std::vector<std::vector<std::vector<double>>> samples(2);
  samples[0].assign(route.per_slab[0].size(), {});
  samples[1].assign(route.per_slab[1].size(), {});
  samples[0][route.routes[0].local] = {1.0, 2.0};
  samples[0][route.routes[1].parts[0].local] = {4.0, 8.0};
  samples[1][route.routes[1].parts[1].local] = {2.0, 0.0};
  samples[1][route.routes[2].local] = {3.0, 5.0};
  const auto got = combine_receivers(route, samples, TapSum::Host);
  EXPECT_EQ(got[0], (std::vector<double>{1.0, 2.0}));
  EXPECT_EQ(got[1], (std::vector<double>{0.25 * 4.0 + 0.75 * 2.0, 0.25 * 8.0}));
  EXPECT_EQ(got[2], (std::vector<double>{3.0, 5.0}));
}

}  // namespace
}  // namespace ws
