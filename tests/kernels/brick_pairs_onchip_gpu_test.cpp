// brick_pairs_onchip: bricks with two-point halos, two steps per exchange of faces and
// edges. Against the solver's per-step path with the default 7-point kernel, bit for bit,
// from random fields: on the multi-step cases' room with fixed walls (sources on walls and
// inside, receivers, advances of odd and even lengths across runs), on an odd grid whose
// sources and receivers straddle bricks (a source on a neighbour's ring), with more sources
// and taps in a brick than it lists; rooms with boundary nodes stepped singly; the
// launches it refuses, by name.
#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/gpu.hpp"
#include "cuda/cuda_solver.hpp"
#include "cuda/kernels/brick_layout.hpp"
#include "kernels/grid_run.hpp"
#include "kernels/multi_step_cases.hpp"

namespace ws {
namespace {

using grid_run::GridRun;
using grid_run::gaussian;
using grid_run::run_grid;
using grid_run::trilinear;

const char* const kPairs = "brick_pairs_onchip";
const std::vector<BlockShape> kPairsBlock = {{32, 32, 1}};

TEST(BrickPairsOnchip, MatchesTheStepPathBitForBitFloat) {
  multi_step::compare(Precision::Float, 1e-5, kPairs, multi_step::Room::Fixed, kPairsBlock, "7pt", true, 0, true);
}
TEST(BrickPairsOnchip, MatchesTheStepPathBitForBitDouble) {
  multi_step::compare(Precision::Double, 1e-12, kPairs, multi_step::Room::Fixed, kPairsBlock, "7pt", true, 0, true);
}
// Boundary nodes (walls of every kind, an obstacle): the solver steps it singly, a bare
// step of the bricks (the first of a pair only) and then the boundary-node kernels.
TEST(BrickPairsOnchip, RoomsWithBoundaryNodesRunStepByStepAndMatch) {
  multi_step::compare(Precision::Float, 1e-5, kPairs, multi_step::Room::Walls, kPairsBlock);
  multi_step::compare(Precision::Float, 1e-5, kPairs, multi_step::Room::WallsAndObstacle, kPairsBlock);
}

// Both kernels on the same grid and inputs; the differing field values and receiver
// samples, printed.
void expect_same_bits(Precision p, const char* what, const GridRun& ref, const GridRun& got) {
  long long field_bits = 0, rec_bits = 0;
  ASSERT_EQ(got.cur.size(), ref.cur.size());
  for (size_t q = 0; q < ref.cur.size(); ++q)
    field_bits += (got.cur[q] != ref.cur[q]) + (got.prev[q] != ref.prev[q]);
  ASSERT_EQ(got.rec.size(), ref.rec.size());
  for (size_t q = 0; q < ref.rec.size(); ++q) {
    ASSERT_EQ(got.rec[q].size(), ref.rec[q].size()) << "receiver " << q;
    for (size_t n = 0; n < ref.rec[q].size(); ++n) rec_bits += got.rec[q][n] != ref.rec[q][n];
  }
  std::printf("[ multi-step ] %s %s, %s: %lld field values and %lld receiver samples differ in bits\n", kPairs,
              to_string(p), what, field_bits, rec_bits);
  EXPECT_EQ(field_bits, 0) << to_string(p) << " " << what;
  EXPECT_EQ(rec_bits, 0) << to_string(p) << " " << what;
}

// 61 x 47 x 53 points (bricks of uneven sizes, the last of each axis smaller), sources in a
// corner, on a face and inside (two on one node), trilinear receivers across bricks, in
// advances of odd lengths (a run's last step unpaired).
TEST(BrickPairsOnchip, OddGridWithStraddlingSourcesAndReceiversMatchesBitForBit) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  const SourceSignal g = gaussian(8);
  std::vector<ReceiverTaps> rec;
  for (int q = 0; q < 6; ++q) rec.push_back(trilinear(5 + 9 * q, 3 + 7 * q, 2 + 8 * q, 0.1, 0.02));
  rec.push_back({{{60, 46, 52}, 1.0}});
  std::vector<SourceNode> src = {{{0, 0, 0}, g, 1.0, Injection::Value, nullptr},
                                 {{30, 46, 20}, g, 0.5, Injection::Difference, nullptr},
                                 {{31, 23, 26}, g, 0.8, Injection::Value, nullptr},
                                 {{31, 23, 26}, g, -0.3, Injection::Value, nullptr},
                                 {{32, 23, 26}, g, 0.3, Injection::Value, nullptr}};
  // A source on each side of every cut plane the layout could choose near the middle.
  for (int x = 10; x < 50; x += 7) src.push_back({{x, 20, 27}, g, 0.05, Injection::Value, nullptr});
  for (Precision p : {Precision::Float, Precision::Double}) {
    const GridRun ref = run_grid(p, default_kernel_for(st, p), 61, 47, 53, src, rec, {1, 6, 301, 2, 3}, 81);
    const GridRun got = run_grid(p, kPairs, 61, 47, 53, src, rec, {1, 6, 301, 2, 3}, 81);
    expect_same_bits(p, "61x47x53", ref, got);
  }
}

// 64^3 (bricks of 32 x 8 x 8 on a 132-SM GPU) with 40 sources and 320 taps in the first
// brick, past what a block lists (32 and 256): that block reads the step data's lists
// every step.
TEST(BrickPairsOnchip, ABrickWithMoreSourcesAndTapsThanItListsMatchesBitForBit) {
  WS_REQUIRE_GPU();
  int dev = 0, sms = 0, smem = 0;
  ASSERT_EQ(cudaGetDevice(&dev), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev), cudaSuccess);
  ASSERT_EQ(cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev), cudaSuccess);
  const BrickGrid cut = brick_pair_layout(make_layout(64, 64, 64, 1, 4), Precision::Float, sms, (size_t)smem);
  if (cut.sx < 32 || cut.sy < 8 || cut.sz < 8)
    GTEST_SKIP() << "this GPU cuts 64^3 into bricks of " << cut.sx << "x" << cut.sy << "x" << cut.sz
                 << ", smaller than the 32x8x8 the test's sources and receivers fill";
  const Stencil st = make_stencil("7pt");
  const SourceSignal g = gaussian(6);
  std::vector<SourceNode> src;
  std::vector<ReceiverTaps> taps;
  for (int n = 0; n < 40; ++n) {
    src.push_back({{(7 * n) % 32, n % 8, n / 8}, g, 0.1 + 0.01 * n, Injection::Value, nullptr});
    taps.push_back(trilinear((5 * n) % 31, n % 7, (n / 7) % 7, 0.125, 0.0));
  }
  const GridRun ref = run_grid(Precision::Float, default_kernel_for(st, Precision::Float), 64, 64, 64, src, taps,
                               {3, 260}, 93);
  const GridRun got = run_grid(Precision::Float, kPairs, 64, 64, 64, src, taps, {3, 260}, 93);
  expect_same_bits(Precision::Float, "64^3, 40 sources and 320 taps in one brick", ref, got);
}

// A few steps on a small grid with sources and receivers, an odd count: what
// compute-sanitizer's tools run, short enough for them.
TEST(BrickPairsOnchipSmall, FiveStepsMatchTheStepPathBitForBit) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  const SourceSignal g = gaussian(2);
  const std::vector<SourceNode> src = {{{9, 6, 5}, g, 1.0, Injection::Value, nullptr},
                                       {{18, 6, 5}, g, 0.5, Injection::Value, nullptr}};
  const std::vector<ReceiverTaps> taps = {{{{3, 4, 5}, 1.0}}, {{{3, 4, 3}, 0.5}, {{4, 4, 3}, 0.25}, {{4, 5, 4}, 0.25}}};
  const GridRun ref = run_grid(Precision::Float, default_kernel_for(st, Precision::Float), 19, 13, 11, src, taps, {5}, 5);
  const GridRun got = run_grid(Precision::Float, kPairs, 19, 13, 11, src, taps, {5}, 5);
  EXPECT_EQ(got.rec[0].size(), 5u);
  expect_same_bits(Precision::Float, "19x13x11", ref, got);
}

// A block other than 32x32x1 is refused naming the one allowed, and the running kernel
// stays; a grid past the bricks' room is refused naming its size.
TEST(BrickPairsOnchip, RefusesOtherBlocksAndGridsItCannotHold) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  auto s = make_cuda_solver(Precision::Float, st, 40, 30, 20, st.courant_max, multi_step::kDt, kPairs);
  try {
    s->set_kernel(kPairs, LaunchOptions{{16, 8, 1}, true});
    FAIL() << "16x8 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("32x32x1"), std::string::npos) << e.what();
  }
  EXPECT_EQ(s->kernel().id, kPairs);
  try {
    auto big = make_cuda_solver(Precision::Float, st, 160, 160, 160, st.courant_max, multi_step::kDt, kPairs);
    big->advance(1);
    FAIL() << "160^3 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("160x160x160"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ws
