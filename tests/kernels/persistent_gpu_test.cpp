// The kernels that run whole steps themselves: persistent_l2 (walls, obstacles, sources
// and receivers inside one cooperative launch of many steps), temporal_2step and
// temporal_2step_vec (two steps per pass over DRAM, sources, receivers and the box's walls
// inside; an obstacle makes the solver step them singly), cluster_onchip and spread_onchip
// (the grid on chip for a whole launch); zstream_fused and zstream_fused_vec are in
// fused_gpu_test.cpp. Through the CUDA solver each must give what the solver's
// per-step path gives with the default 7-point kernel (the same arithmetic per node; the
// test asserts agreement to 1e-12 / 1e-5 of the field's size and prints how many values
// differ in their bits: none on the H100 except temporal_2step in double, about half of
// them in the last bits, docs/gpu-runs.md), over advances that are not multiples of
// anything, across the receiver buffer's 4096-step chunks and the sampled signal's
// windows, for several tile shapes, in float and double; and with an odd grid and a
// random start (multi_step_cases.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "boundary/boundary_plan.hpp"
#include "common/gpu.hpp"
#include "common/random_field.hpp"
#include "core/sample_stream.hpp"
#include "cuda/column_events.hpp"
#include "cuda/cuda_solver.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/tiled_step.hpp"

#include "kernels/multi_step_cases.hpp"

namespace ws {
namespace {

using namespace multi_step;

const std::vector<BlockShape> kPersistentBlocks = {{32, 8, 2}, {16, 4, 3}, {64, 2, 3}, {8, 8, 1}, {32, 16, 1}, {8, 4, 16}};
const std::vector<BlockShape> kPassBlocks = {{32, 16, 1}, {16, 8, 1}, {64, 4, 1}, {7, 5, 1}};

TEST(PersistentL2, MatchesTheStepPathWithWallsSourcesAndReceiversDouble) {
  compare(Precision::Double, 1e-12, "persistent_l2", Room::WallsAndObstacle, kPersistentBlocks);
}
TEST(PersistentL2, MatchesTheStepPathWithWallsSourcesAndReceiversFloat) {
  compare(Precision::Float, 1e-5, "persistent_l2", Room::WallsAndObstacle, kPersistentBlocks);
}
TEST(Temporal2Step, MatchesTheStepPathWithSourcesAndReceiversDouble) {
  compare(Precision::Double, 1e-12, "temporal_2step", Room::Fixed, kPassBlocks);
}
TEST(Temporal2Step, MatchesTheStepPathWithSourcesAndReceiversFloat) {
  compare(Precision::Float, 1e-5, "temporal_2step", Room::Fixed, kPassBlocks);
}
// Rigid, absorbing and fixed walls on the six faces, inside the passes.
TEST(Temporal2Step, MatchesTheStepPathWithEveryWallKindDouble) {
  compare(Precision::Double, 1e-12, "temporal_2step", Room::Walls, kPassBlocks);
}
TEST(Temporal2Step, MatchesTheStepPathWithEveryWallKindFloat) {
  compare(Precision::Float, 1e-5, "temporal_2step", Room::Walls, kPassBlocks);
}
// Leggy stencils (radius 2 and 4: the ring of 2R + 2 planes, the block the output tile
// grown by R), at the preferred 32 x 32 and at blocks with odd and small output tiles.
TEST(Temporal2Step, MatchesTheStepPathOnLeggyStencils) {
  for (const char* st : {"leggy:2", "leggy:4"}) {
    compare(Precision::Double, 1e-12, "temporal_2step", Room::Fixed, {{32, 32, 1}, {16, 12, 1}}, st);
    compare(Precision::Float, 1e-5, "temporal_2step", Room::Fixed, {{32, 32, 1}, {9, 9, 1}}, st);
  }
}

// An obstacle: the solver steps the kernel singly around the boundary-node kernels.
TEST(Temporal2Step, WithAnObstacleRunsStepByStepAndMatches) {
  compare(Precision::Float, 1e-5, "temporal_2step", Room::WallsAndObstacle, {{32, 16, 1}});
}

// The vectorised passes: a warp per row of the grown tile, 4 floats or 2 doubles per
// thread. The 37-point rows end in a partial vector (and in float in a second block
// of columns at 30 x 4 = 120 points only beyond 37: one block in x), the 29 rows are
// cut into tiles of 14, 6, 3 and 1 output rows; sources on walls and inside, receivers
// on walls and spread across vectors.
const std::vector<BlockShape> kVecPassBlocks = {{32, 16, 1}, {32, 8, 1}, {32, 5, 1}, {32, 3, 1}};
TEST(Temporal2StepVec, MatchesTheStepPathWithSourcesAndReceiversDouble) {
  compare(Precision::Double, 1e-12, "temporal_2step_vec", Room::Fixed, kVecPassBlocks);
}
TEST(Temporal2StepVec, MatchesTheStepPathWithSourcesAndReceiversFloat) {
  compare(Precision::Float, 1e-5, "temporal_2step_vec", Room::Fixed, kVecPassBlocks);
}
TEST(Temporal2StepVec, MatchesTheStepPathWithEveryWallKindDouble) {
  compare(Precision::Double, 1e-12, "temporal_2step_vec", Room::Walls, kVecPassBlocks);
}
TEST(Temporal2StepVec, MatchesTheStepPathWithEveryWallKindFloat) {
  compare(Precision::Float, 1e-5, "temporal_2step_vec", Room::Walls, kVecPassBlocks);
}
TEST(Temporal2StepVec, WithAnObstacleRunsStepByStepAndMatches) {
  compare(Precision::Float, 1e-5, "temporal_2step_vec", Room::WallsAndObstacle, {{32, 8, 1}});
}
// The x faces' nodes off the y and z faces are updated inside the passes with their
// face's shared coefficients; a face whose nodes do not share them has its nodes updated
// around the passes, like the y and z faces'.
TEST(Temporal2StepVec, MatchesTheStepPathWithAnUnevenXWall) {
  compare(Precision::Float, 1e-5, "temporal_2step_vec", Room::WallsUneven, {{32, 8, 1}});
  compare(Precision::Double, 1e-12, "temporal_2step_vec", Room::WallsUneven, {{32, 5, 1}});
}
// The passes tell a boundary node by its position on a wall face; a wall with a gap is
// stepped singly, and temporal_2step, which finds its nodes through the faces' map, runs
// it in passes.
TEST(Temporal2StepVec, WithAGapInAWallRunsStepByStepAndMatches) {
  compare(Precision::Float, 1e-5, "temporal_2step_vec", Room::WallsWithGap, {{32, 8, 1}});
  compare(Precision::Float, 1e-5, "temporal_2step", Room::WallsWithGap, {{32, 16, 1}});
}
// A block that is not a warp wide is refused with the sizes allowed, and the running
// kernel stays.
TEST(Temporal2StepVec, RefusesABlockThatIsNotAWarpWide) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  auto solver = make_cuda_solver(Precision::Float, st, 30, 30, 30, st.courant_max, kDt, "temporal_2step_vec");
  try {
    solver->set_kernel("temporal_2step_vec", LaunchOptions{{16, 8, 1}, true});
    FAIL() << "16x8 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("32 x 3 .. 32 x 16"), std::string::npos) << e.what();
  }
  EXPECT_EQ(solver->kernel().id, "temporal_2step_vec");
  EXPECT_EQ(solver->launch_options().block.x, 32);
}

// A few steps on a small grid, with walls, sources and receivers: what compute-sanitizer's
// racecheck and synccheck run (scripts/gpu-session multistep), short enough for them.
TEST(MultiStepSmall, FourStepsMatchTheStepPath) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  for (const char* kernel :
       {"persistent_l2", "temporal_2step", "temporal_2step_vec", "zstream_fused", "zstream_fused_vec", "cluster_onchip",
        "spread_onchip"}) {
    std::vector<double> out[2];
    for (int which = 0; which < 2; ++which) {
      const std::string id = which == 0 ? default_kernel_for(st, Precision::Float) : kernel;
      auto s = make_cuda_solver(Precision::Float, st, 19, 13, 11, st.courant_max, kDt, id);
      BoxWalls w;
      w.fill(WallCondition::with_absorption(0.4));
      w[0] = WallCondition::rigid();
      w[3] = WallCondition::fixed();
      s->set_boundary(make_boundary_plan(s->layout(), w, {}, st.courant_max));
      SourceSignal g;
      g.kind = SignalKind::Gaussian;
      g.width_s = 2 * kDt;
      s->set_sources({{{9, 6, 5}, g, 1.0, Injection::Value, nullptr}, {{18, 6, 5}, g, 0.5, Injection::Value, nullptr}});
      s->set_receiver_taps({{{{3, 4, 5}, 1.0}}});
      const auto a = testing::random_field(s->layout(), 5), b = testing::random_field(s->layout(), 6);
      s->write_state(a, b, 0);
      s->advance(4);
      std::vector<double> prev;
      s->read_state(out[which], prev);
    }
    const auto [d, m] = testing::max_diff(out[1], out[0], make_layout(19, 13, 11, 1, 4));
    EXPECT_LE(d, 1e-5 * m) << kernel;
  }
}

// cluster_onchip: the whole grid in one cluster's shared memory. The test grid's 23 planes
// make 12 blocks of 2 planes and a last one of 1; blocks of fewer threads than a plane's
// 290 vector columns stream several columns each; rows of 37 points end inside a vector.
const std::vector<BlockShape> kOnchipFloatBlocks = {{32, 16, 1}, {32, 4, 1}, {64, 1, 1}};
const std::vector<BlockShape> kOnchipDoubleBlocks = {{32, 16, 1}, {32, 1, 1}};
TEST(ClusterOnchip, MatchesTheStepPathWithWallsObstacleSourcesAndReceiversFloat) {
  compare(Precision::Float, 1e-5, "cluster_onchip", Room::WallsAndObstacle, kOnchipFloatBlocks);
}
TEST(ClusterOnchip, MatchesTheStepPathWithWallsObstacleSourcesAndReceiversDouble) {
  compare(Precision::Double, 1e-12, "cluster_onchip", Room::WallsAndObstacle, kOnchipDoubleBlocks);
}
TEST(ClusterOnchip, MatchesTheStepPathWithFixedWallsAndEveryWallKind) {
  compare(Precision::Float, 1e-5, "cluster_onchip", Room::Fixed, {{32, 16, 1}});
  compare(Precision::Float, 1e-5, "cluster_onchip", Room::Walls, {{32, 8, 1}});
  compare(Precision::Double, 1e-12, "cluster_onchip", Room::WallsWithGap, {{32, 16, 1}});
}

// spread_onchip: the grid in the shared memory of up to one block per SM. The test grid's
// 23 planes make 23 blocks of one plane on any GPU of at least 23 SMs: every block's only
// plane is both edge planes, every 8-tap receiver spans two blocks (tall grids, several
// planes a block: spread_onchip_gpu_test.cpp).
TEST(SpreadOnchip, MatchesTheStepPathWithWallsObstacleSourcesAndReceiversFloat) {
  compare(Precision::Float, 1e-5, "spread_onchip", Room::WallsAndObstacle, kOnchipFloatBlocks);
}
TEST(SpreadOnchip, MatchesTheStepPathWithWallsObstacleSourcesAndReceiversDouble) {
  compare(Precision::Double, 1e-12, "spread_onchip", Room::WallsAndObstacle, kOnchipDoubleBlocks);
}
TEST(SpreadOnchip, MatchesTheStepPathWithFixedWallsAndEveryWallKind) {
  compare(Precision::Float, 1e-5, "spread_onchip", Room::Fixed, {{32, 16, 1}});
  compare(Precision::Float, 1e-5, "spread_onchip", Room::Walls, {{32, 8, 1}});
  compare(Precision::Double, 1e-12, "spread_onchip", Room::WallsWithGap, {{32, 16, 1}});
}
TEST(SpreadOnchip, SolidsWrittenWithValuesAreZeroedAsByTheStepPath) {
  compare(Precision::Float, 1e-5, "spread_onchip", Room::WallsAndObstacle, {{32, 16, 1}}, "7pt", true, 0, true);
}

// A grid whose fields do not fit in one cluster is refused by set_kernel with the sizes
// named; the running kernel stays and runs.
TEST(ClusterOnchip, RefusesAGridBeyondOneClusterAndKeepsItsKernel) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  auto solver = make_cuda_solver(Precision::Float, st, 128, 128, 128, 0.5, kDt, "zstream_vec");
  try {
    solver->set_kernel("cluster_onchip", LaunchOptions{{32, 16, 1}, true});
    FAIL() << "a 128^3 grid was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("128x128x128"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("KiB"), std::string::npos) << e.what();
  }
  EXPECT_EQ(solver->kernel().id, "zstream_vec");
  try {
    solver->set_kernel("cluster_onchip", LaunchOptions{{32, 8, 2}, true});
    FAIL() << "a block of z 2 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("32x8x2"), std::string::npos) << e.what();
  }
  solver->advance(3);
  EXPECT_EQ(solver->step(), 3);
}

// A block the kernel cannot run is refused by set_kernel, naming it; the running kernel stays.
TEST(PersistentL2, RefusesABlockOfMoreThan512Threads) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  auto solver = make_cuda_solver(Precision::Float, st, 20, 20, 20, 0.5, kDt, "persistent_l2");
  try {
    solver->set_kernel("persistent_l2", LaunchOptions{{32, 8, 4}, true});
    FAIL() << "a 32x8x4 block was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("32x8x4"), std::string::npos) << e.what();
  }
  EXPECT_EQ(solver->kernel().id, "persistent_l2");
  solver->advance(3);
}

// temporal_2step's block is the output tile grown by the radius: leggy:4 needs 9 x 9 at least.
TEST(Temporal2Step, RefusesABlockNoWiderThanTwiceTheRadius) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("leggy:4");
  auto solver = make_cuda_solver(Precision::Float, st, 30, 30, 30, st.courant_max, kDt, "temporal_2step");
  try {
    solver->set_kernel("temporal_2step", LaunchOptions{{16, 8, 1}, true});
    FAIL() << "a 16x8 block was accepted for leggy:4";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("16x8"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(">= 9"), std::string::npos) << e.what();
  }
  solver->advance(5);
}

}  // namespace
}  // namespace ws
