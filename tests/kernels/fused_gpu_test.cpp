// zstream_fused and zstream_fused_vec, the whole step (walls, obstacles, sources,
// receivers) in one launch per step, against the solver's per-step path with the default
// 7-point kernel (multi_step_cases.hpp): blocks, z chunks, the graph off, solids written
// with values, a column too long for the event cursors, and a switch between kernels that
// read different listings of the step's events.
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

// The whole-step kernels: the whole step (walls of every kind, an obstacle, sources on
// boundary nodes and inside, receivers on walls and spread) in one launch per step, at the
// default block and at blocks with odd and partial columns; the z chunks of a 23-plane
// grid. zstream_fused_vec's threads hold 4 floats or 2 doubles of a row: the 37-point rows
// end in a partial vector, and the obstacle (i = 20 .. 26) and the spread source and
// receivers cross vector boundaries; blocks of odd widths and a single column.
struct FusedKernelCase {
  const char* kernel;
  std::vector<BlockShape> blocks;  // every block, with the obstacle
  BlockShape odd;                  // one odd block for the shorter cases
};
const std::vector<FusedKernelCase> kFusedKernels = {
    {"zstream_fused", {{32, 8, 1}, {16, 4, 1}, {64, 2, 1}, {7, 5, 1}, {128, 1, 1}}, {7, 5, 1}},
    {"zstream_fused_vec", {{16, 16, 1}, {8, 4, 1}, {3, 5, 1}, {32, 2, 1}, {1, 64, 1}}, {5, 3, 1}},
};

TEST(ZstreamFused, MatchesTheStepPathWithWallsObstacleSourcesAndReceiversDouble) {
  for (const auto& f : kFusedKernels) compare(Precision::Double, 1e-12, f.kernel, Room::WallsAndObstacle, f.blocks);
}
TEST(ZstreamFused, MatchesTheStepPathWithWallsObstacleSourcesAndReceiversFloat) {
  for (const auto& f : kFusedKernels) compare(Precision::Float, 1e-5, f.kernel, Room::WallsAndObstacle, f.blocks);
}
TEST(ZstreamFused, MatchesTheStepPathWithWallsOnlyAndFixedWalls) {
  for (const auto& f : kFusedKernels) {
    compare(Precision::Float, 1e-5, f.kernel, Room::Walls, {f.blocks[0], f.odd});
    compare(Precision::Double, 1e-12, f.kernel, Room::Fixed, {f.blocks[0]});
    // An x_min node off its class's coefficients: an event over the class's constants.
    compare(Precision::Float, 1e-5, f.kernel, Room::WallsUneven, {f.odd});
    compare(Precision::Double, 1e-12, f.kernel, Room::WallsUneven, {f.blocks[0]});
  }
}
// Without the step graph: every step launched from the host, the step index a parameter.
TEST(ZstreamFused, MatchesTheStepPathWithTheGraphOff) {
  for (const auto& f : kFusedKernels) {
    compare(Precision::Float, 1e-5, f.kernel, Room::WallsAndObstacle, {f.blocks[0], f.odd}, "7pt", false);
    compare(Precision::Double, 1e-12, f.kernel, Room::WallsAndObstacle, {f.blocks[0]}, "7pt", false);
  }
}

// The z chunks sized for other waves of resident blocks (LaunchOptions::z_waves, which the
// room's autotune tries): one wave (the longest chunks), two, and the most allowed (the
// chunks' minimum planes).
TEST(ZstreamFused, MatchesTheStepPathWithOtherZChunkWaves) {
  for (const auto& f : kFusedKernels)
    for (int w : {1, 2, kMaxZWaves}) {
      compare(Precision::Float, 1e-5, f.kernel, Room::WallsAndObstacle, {f.blocks[0]}, "7pt", true, w);
      compare(Precision::Double, 1e-12, f.kernel, Room::WallsAndObstacle, {f.odd}, "7pt", true, w);
    }
}

// States written with values in the obstacle's solid nodes, at the start and again after
// 4608 steps: the column events leave the enclosed solids out (their interior update stays
// at zero once they and their neighbours are), so the solver takes the per-step path for
// two steps after each write. The same bits as the per-step path, with the graph on and off.
TEST(ZstreamFused, SolidsWrittenWithValuesAreZeroedAsByTheStepPath) {
  for (const auto& f : kFusedKernels) {
    compare(Precision::Float, 1e-5, f.kernel, Room::WallsAndObstacle, {f.blocks[0], f.odd}, "7pt", true, 0, true);
    compare(Precision::Double, 1e-12, f.kernel, Room::WallsAndObstacle, {f.blocks[0]}, "7pt", false, 0, true);
  }
}

TEST(ZstreamFused, RefusesZWavesOutOfRangeAndKeepsItsKernel) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  auto solver = make_cuda_solver(Precision::Float, st, kNx, kNy, kNz, st.courant_max, kDt, "zstream_fused");
  for (int w : {-1, kMaxZWaves + 1}) {
    try {
      solver->set_kernel("zstream_fused_vec", LaunchOptions{{16, 8, 1}, true, w});
      FAIL() << "z_waves " << w << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("z_waves " + std::to_string(w)), std::string::npos) << e.what();
    }
    EXPECT_EQ(solver->kernel().id, "zstream_fused");
  }
}

// A column holding more events than a 16-bit cursor offset (a rod of solid nodes through a
// 5 x 5 tube of 65,540 planes, absorbing walls): the step keeps no cursors, and
// zstream_fused searches its columns' events, zstream_fused_vec its groups' plane records;
// the same bits as the per-step path.
TEST(ZstreamFused, AColumnTooLongForCursorsIsSearched) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  const int n = 5, nz = kMaxCursorOffset + 5;
  SolidNodes rod;
  rod.material.assign((size_t)n * n * nz, 0);
  rod.admittance = {0.5};
  for (int k = 0; k < nz; ++k) rod.material[2 + (size_t)n * (2 + (size_t)n * k)] = 1;
  for (const char* kernel : {"zstream_fused", "zstream_fused_vec"}) {
    SCOPED_TRACE(kernel);
    std::vector<double> got[2];
    for (int which = 0; which < 2; ++which) {
      const std::string id = which == 0 ? default_kernel_for(st, Precision::Float) : kernel;
      auto solver = make_cuda_solver(Precision::Float, st, n, n, nz, st.courant_max, kDt, id);
      const BoundaryPlan plan = make_boundary_plan(solver->layout(), room_walls(), rod, st.courant_max);
      ASSERT_EQ(plan.solid.size(), (size_t)nz);
      solver->set_boundary(plan);
      const FieldLayout& L = solver->layout();
      auto a = testing::random_field(L, 43), b = testing::random_field(L, 44);
      for (int64_t q : plan.solid) a[q] = b[q] = 0;
      solver->write_state(a, b, 0);
      solver->advance(7);
      std::vector<double> prev;
      solver->read_state(got[which], prev);
    }
    ASSERT_EQ(got[0].size(), got[1].size());
    EXPECT_EQ(differing_bits(got[0], got[1]), 0);
    EXPECT_GT(*std::max_element(got[1].begin(), got[1].end()), 0.0);
  }
}

// One solver switched between the two kernels that read a listing per group, each its own
// kind (spread_onchip the events, zstream_fused_vec the plane records), mid-run in a room
// with walls, an obstacle, sources and receivers: the step data is rebuilt with the
// listing the new kernel reads, and the run matches the per-step path's.
TEST(ZstreamFusedVec, SwitchingToAndFromSpreadOnchipRebuildsItsListing) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  const std::vector<std::string> order = {"zstream_fused_vec", "spread_onchip", "zstream_fused_vec", "spread_onchip"};
  multi_step::Run got[2];  // (Run alone names testing::Test::Run here)
  for (int which = 0; which < 2; ++which) {
    const std::string first = which == 0 ? default_kernel_for(st, Precision::Double) : order[0];
    auto solver = make_cuda_solver(Precision::Double, st, kNx, kNy, kNz, st.courant_max, kDt, first);
    const BoundaryPlan plan = make_boundary_plan(solver->layout(), room_walls(), obstacle(), st.courant_max);
    solver->set_boundary(plan);
    add_sources_and_receivers(*solver);
    auto a = testing::random_field(solver->layout(), 41), b = testing::random_field(solver->layout(), 42);
    for (int64_t q : plan.solid) a[q] = b[q] = 0;
    solver->write_state(a, b, 0);
    got[which].rec.assign(3, {});
    for (const std::string& id : order) {
      if (which == 1) solver->set_kernel(id, LaunchOptions{KernelRegistry::instance().at(id).default_block});
      if (which == 1) EXPECT_EQ(solver->kernel().id, id);
      solver->advance(300);
      auto r = solver->take_receiver_samples();
      for (int q = 0; q < 3; ++q) got[which].rec[q].insert(got[which].rec[q].end(), r[q].begin(), r[q].end());
    }
    solver->read_state(got[which].cur, got[which].prev);
  }
  const FieldLayout L = make_layout(kNx, kNy, kNz, 1, 8);
  const auto [d, m] = testing::max_diff(got[1].cur, got[0].cur, L);
  EXPECT_GT(m, 0.0);
  EXPECT_LE(d, 1e-12 * m) << "u^n after the switches";
  for (int q = 0; q < 3; ++q) {
    ASSERT_EQ(got[1].rec[q].size(), got[0].rec[q].size()) << "receiver " << q;
    const auto [peak, diff] = peak_and_diff(got[0].rec[q], got[1].rec[q]);
    EXPECT_GT(peak, 0.0) << "receiver " << q;
    EXPECT_LE(diff, 1e-12 * peak) << "receiver " << q;
  }
}

}  // namespace
}  // namespace ws
