// brick_onchip: the grid in 3-D bricks, one per SM, their faces exchanged through L2 every
// step. Against the solver's per-step path with the default 7-point kernel, bit for bit,
// from random fields: on the multi-step cases' room (fixed walls or walls of every kind,
// walls its face classes cannot hold, an obstacle, sources on walls and inside, receivers;
// 120 bricks of 10 x 6 x 4 on a 132-SM GPU), on an odd grid whose receivers' taps straddle
// bricks, on bricks of every form of the kernel with and without a furnished room's walls
// and obstacles, and the launches it refuses, by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "boundary/boundary_plan.hpp"
#include "common/gpu.hpp"
#include "common/random_field.hpp"
#include "core/cuda_check.hpp"
#include "cuda/cuda_solver.hpp"
#include "cuda/kernels/brick_layout.hpp"
#include "cuda/tiled_step.hpp"
#include "kernels/multi_step_cases.hpp"

namespace ws {
namespace {

const std::vector<BlockShape> kBrickBlock = {{32, 32, 1}};

// Fixed walls, sources (a sampled signal) and receivers: the same bits as the step path
// (compare's last argument asserts them).
TEST(BrickOnchip, MatchesTheStepPathBitForBitFloat) {
  multi_step::compare(Precision::Float, 1e-5, "brick_onchip", multi_step::Room::Fixed, kBrickBlock, "7pt", true, 0,
                      true);
}
TEST(BrickOnchip, MatchesTheStepPathBitForBitDouble) {
  multi_step::compare(Precision::Double, 1e-12, "brick_onchip", multi_step::Room::Fixed, kBrickBlock, "7pt", true, 0,
                      true);
}
// Rigid, absorbing and fixed walls on the six faces, by face class in the bricks' shell
// (MultiWalls::ClassFaces): the same bits.
TEST(BrickOnchip, MatchesTheStepPathWithEveryWallKindBitForBit) {
  multi_step::compare(Precision::Float, 1e-5, "brick_onchip", multi_step::Room::Walls, kBrickBlock, "7pt", true, 0,
                      true);
  multi_step::compare(Precision::Double, 1e-12, "brick_onchip", multi_step::Room::Walls, kBrickBlock, "7pt", true, 0,
                      true);
}
// Walls its face classes get wrong at some nodes (a node of x_min absorbing more than the
// rest of it, a gap in a wall) and an obstacle, in the events form: the same bits, also
// when the states written leave random values at the solid nodes (the solver's settling
// steps zero them; the last argument asserts the bits).
TEST(BrickOnchip, WallsOffItsFaceClassesMatchBitForBit) {
  for (multi_step::Room room : {multi_step::Room::WallsUneven, multi_step::Room::WallsWithGap}) {
    multi_step::compare(Precision::Float, 1e-5, "brick_onchip", room, kBrickBlock, "7pt", true, 0, true);
    multi_step::compare(Precision::Double, 1e-12, "brick_onchip", room, kBrickBlock, "7pt", true, 0, true);
  }
}
TEST(BrickOnchip, WithAnObstacleMatchesBitForBit) {
  multi_step::compare(Precision::Float, 1e-5, "brick_onchip", multi_step::Room::WallsAndObstacle, kBrickBlock, "7pt",
                      true, 0, true);
  multi_step::compare(Precision::Double, 1e-12, "brick_onchip", multi_step::Room::WallsAndObstacle, kBrickBlock,
                      "7pt", true, 0, true);
}

// The step data counts the events brick_onchip's events form is for (boundary, solid and
// plain ones, not the sources'): none where the face classes finish every node, as many as
// the column events hold where they do not.
TEST(BrickOnchip, TheStepDataCountsTheNodesTheClassesGetWrong) {
  WS_REQUIRE_GPU();
  using multi_step::Room;
  const FieldLayout L = make_layout(multi_step::kNx, multi_step::kNy, multi_step::kNz, 1, 4);
  const double lambda = make_stencil("7pt").courant_max;
  const std::vector<DeviceSource> none;
  const BoundaryPlan walls = make_boundary_plan(L, multi_step::room_walls(), {}, lambda);
  EXPECT_EQ(DeviceTiledStep<float>(L, {32, 32, 1}, walls, none).data().node_events, 0);
  const BoundaryPlan furnished = make_boundary_plan(L, multi_step::room_walls(), multi_step::obstacle(), lambda);
  // Nodes of equal mask, count and admittance share coefficients (as DeviceTiledStep finds).
  std::map<std::tuple<int, int, double>, int> ids;
  std::vector<int> id;
  for (size_t r = 0; r < furnished.node.size(); ++r)
    id.push_back(ids.emplace(std::make_tuple((int)furnished.neighbours[r], (int)furnished.count[r],
                                             furnished.beta_sum[r]),
                             (int)ids.size())
                     .first->second);
  const ColumnEvents ev = make_column_events(L, furnished.node, id, furnished.solid, {});
  const long long expected = std::count_if(ev.code.begin(), ev.code.end(), [](int c) { return c >= kEventPlain; });
  EXPECT_GT(expected, 0);
  EXPECT_EQ(DeviceTiledStep<float>(L, {32, 32, 1}, furnished, none).data().node_events, expected);
}

struct GridRun {
  std::vector<double> cur, prev;
  std::vector<std::vector<double>> rec;
};

// `kernel` on an nx x ny x nz grid from random fields (seeds `seed` and `seed` + 1) with
// these sources and receivers, over `advances`: the fields at the end and every step's
// receiver samples.
// Walls of every kind (two absorbing faces of different absorption, one rigid, one fixed)
// and obstacles that cross bricks whatever the cut: a box inside, a box on the floor, a
// plate one node thick, a pillar from floor to ceiling beside a wall, and a single node.
BoundaryPlan furnished_plan(const FieldLayout& L) {
  const int nx = L.nx, ny = L.ny, nz = L.nz;
  BoxWalls walls;
  walls.fill(WallCondition::with_absorption(0.2));
  walls[1] = WallCondition::rigid();
  walls[2] = WallCondition::fixed();
  walls[5] = WallCondition::with_absorption(0.6);
  SolidNodes solids;
  solids.material.assign((size_t)nx * ny * nz, 0);
  solids.admittance = {0.5, 0.05};
  auto fill = [&](int i0, int i1, int j0, int j1, int k0, int k1, uint8_t m) {
    for (int k = k0; k < k1; ++k)
      for (int j = j0; j < j1; ++j)
        for (int i = i0; i < i1; ++i) solids.material[i + (size_t)nx * (j + (size_t)ny * k)] = m;
  };
  fill(nx / 5, nx / 2, ny / 4, ny / 2, nz / 3, nz / 2, 1);
  fill(nx / 2 + 3, nx / 2 + 9, ny / 2, ny - 5, 0, nz / 4, 2);
  fill(2, nx / 3, 2, ny - 2, 2 * nz / 3, 2 * nz / 3 + 1, 1);
  fill(nx - 4, nx - 2, ny - 4, ny - 2, 0, nz, 2);
  fill(nx - 8, nx - 7, 7, 8, nz / 2, nz / 2 + 1, 1);
  return make_boundary_plan(L, walls, solids, make_stencil("7pt").courant_max);
}

// Which room a grid run has: the fixed walls of the grid's halo alone, or furnished_plan's
// walls and obstacles, the solid nodes zeroed in the states written or left random (the
// solver's settling steps zero them).
enum class GridRoom { Fixed, Furnished, FurnishedRandomSolids };

GridRun run_grid(Precision p, const std::string& kernel, int nx, int ny, int nz, const std::vector<SourceNode>& src,
                 const std::vector<ReceiverTaps>& taps, const std::vector<int>& advances, int seed,
                 GridRoom room = GridRoom::Fixed) {
  const Stencil st = make_stencil("7pt");
  auto s = make_cuda_solver(p, st, nx, ny, nz, st.courant_max, multi_step::kDt, kernel);
  std::vector<double> a = testing::random_field(s->layout(), seed), b = testing::random_field(s->layout(), seed + 1);
  if (room != GridRoom::Fixed) {
    const BoundaryPlan plan = furnished_plan(s->layout());
    s->set_boundary(plan);
    if (room == GridRoom::Furnished)
      for (int64_t q : plan.solid) a[(size_t)q] = b[(size_t)q] = 0;
  }
  s->set_sources(src);
  s->set_receiver_taps(taps);
  s->write_state(a, b, 0);
  GridRun r;
  r.rec.assign(taps.size(), {});
  for (int n : advances) {
    s->advance(n);
    auto got = s->take_receiver_samples();
    for (size_t q = 0; q < taps.size(); ++q) r.rec[q].insert(r.rec[q].end(), got[q].begin(), got[q].end());
  }
  s->read_state(r.cur, r.prev);
  return r;
}

SourceSignal gaussian(int delay_steps) {
  SourceSignal g;
  g.kind = SignalKind::Gaussian;
  g.width_s = 3 * multi_step::kDt;
  g.delay_s = delay_steps * multi_step::kDt;
  return g;
}

// Trilinear taps of the cell with lowest corner (i0, j0, k0), weight w0 + dw * corner.
ReceiverTaps trilinear(int i0, int j0, int k0, double w0, double dw) {
  ReceiverTaps t;
  for (int c = 0; c < 8; ++c) t.push_back({{i0 + (c & 1), j0 + ((c >> 1) & 1), k0 + (c >> 2)}, w0 + dw * c});
  return t;
}

// 61 x 47 x 53 points from random fields (bricks of uneven sizes, the last of each axis
// smaller), analytic sources in a corner, on a face and inside, trilinear receivers at
// several places (some straddle bricks whatever the cut), in advances of odd lengths; in
// `room`.
GridRun run_odd(Precision p, const std::string& kernel, GridRoom room) {
  const SourceSignal g = gaussian(8);
  std::vector<ReceiverTaps> rec;
  for (int q = 0; q < 6; ++q) rec.push_back(trilinear(5 + 9 * q, 3 + 7 * q, 2 + 8 * q, 0.1, 0.02));
  rec.push_back({{{60, 46, 52}, 1.0}});
  return run_grid(p, kernel, 61, 47, 53,
                  {{{0, 0, 0}, g, 1.0, Injection::Value, nullptr},
                   {{30, 46, 20}, g, 0.5, Injection::Difference, nullptr},
                   {{31, 23, 26}, g, 0.8, Injection::Value, nullptr},
                   {{32, 23, 26}, g, 0.3, Injection::Value, nullptr}},
                  rec, {1, 6, 301, 2}, 81, room);
}

// With fixed walls, and furnished (furnished_plan; the solid nodes random in the states
// written): the events form in both precisions.
TEST(BrickOnchip, OddGridWithStraddlingReceiversMatchesBitForBit) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  for (GridRoom room : {GridRoom::Fixed, GridRoom::FurnishedRandomSolids})
  for (Precision p : {Precision::Float, Precision::Double}) {
    SCOPED_TRACE(room == GridRoom::Fixed ? "fixed walls" : "furnished");
    const GridRun ref = run_odd(p, default_kernel_for(st, p), room);
    const GridRun got = run_odd(p, "brick_onchip", room);
    long long field_bits = 0, rec_bits = 0;
    double peak = 0;
    ASSERT_EQ(got.cur.size(), ref.cur.size());
    for (size_t q = 0; q < ref.cur.size(); ++q) {
      field_bits += (got.cur[q] != ref.cur[q]) + (got.prev[q] != ref.prev[q]);
      peak = std::max(peak, std::abs(ref.cur[q]));
    }
    for (size_t q = 0; q < ref.rec.size(); ++q) {
      ASSERT_EQ(got.rec[q].size(), ref.rec[q].size()) << "receiver " << q;
      for (size_t n = 0; n < ref.rec[q].size(); ++n) rec_bits += got.rec[q][n] != ref.rec[q][n];
    }
    std::printf("[ multi-step ] brick_onchip %s, 61x47x53%s: %lld field values and %lld receiver samples differ in bits\n",
                to_string(p), room == GridRoom::Fixed ? "" : ", furnished", field_bits, rec_bits);
    EXPECT_GT(peak, 0.0);
    EXPECT_EQ(field_bits, 0) << to_string(p);
    EXPECT_EQ(rec_bits, 0) << to_string(p);
  }
}

// Sources inside the obstacles: at a corner of furnished_plan's inner box (a solid node next
// to air) and at a node enclosed in it (which the source gives an event, and its solid
// neighbours too). A solid node keeps its +0 without a slot in the events form; one with a
// source takes a slot that writes the +0 the source's value is added to, as the per-step
// path does: the same bits, float and double.
TEST(BrickOnchip, SourcesInsideObstaclesMatchBitForBit) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  const SourceSignal g = gaussian(4);
  const std::vector<SourceNode> src = {{{12, 11, 17}, g, 1.0, Injection::Value, nullptr},
                                       {{20, 17, 21}, g, 0.7, Injection::Difference, nullptr},
                                       {{40, 30, 30}, g, 0.5, Injection::Value, nullptr}};
  const std::vector<ReceiverTaps> rec = {trilinear(11, 10, 16, 0.1, 0.02), {{{20, 17, 21}, 1.0}}};
  for (Precision p : {Precision::Float, Precision::Double}) {
    SCOPED_TRACE(to_string(p));
    const GridRun ref = run_grid(p, default_kernel_for(st, p), 61, 47, 53, src, rec, {3, 40, 17}, 91,
                                 GridRoom::FurnishedRandomSolids);
    const GridRun got = run_grid(p, "brick_onchip", 61, 47, 53, src, rec, {3, 40, 17}, 91,
                                 GridRoom::FurnishedRandomSolids);
    long long field_bits = 0, nonzero = 0;
    for (size_t q = 0; q < ref.cur.size(); ++q) {
      field_bits += (got.cur[q] != ref.cur[q]) + (got.prev[q] != ref.prev[q]);
      nonzero += ref.cur[q] != 0;
    }
    std::printf("[ multi-step ] brick_onchip %s, 61x47x53 furnished, sources inside the obstacles: %lld field values "
                "differ in bits\n",
                to_string(p), field_bits);
    EXPECT_GT(nonzero, 0);
    EXPECT_EQ(field_bits, 0);
    EXPECT_TRUE(got.rec == ref.rec) << "the receivers differ";
    ASSERT_EQ(ref.rec[1].size(), 60u);
    double peak = 0;
    for (double v : ref.rec[1]) peak = std::max(peak, std::abs(v));
    EXPECT_GT(peak, 0.0) << "the enclosed source's node holds its value after each step";
  }
}

// A brick with more events than its shared memory's slots takes its slots from a region of
// the global ones (BrickEvents). The test bounds the shared memory's slots by the kernel's
// test variable WS_BRICK_SMEM_EVENT_SLOTS: none (every brick in global memory) and 16 (the
// bricks with few events in shared memory, the others in global memory): the same bits.
TEST(BrickOnchip, EventSlotsInGlobalMemoryMatchBitForBit) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  for (const char* slots : {"0", "16"})
    for (Precision p : {Precision::Float, Precision::Double}) {
      SCOPED_TRACE(std::string("shared-memory slots ") + slots + ", " + to_string(p));
      const GridRun ref = run_odd(p, default_kernel_for(st, p), GridRoom::FurnishedRandomSolids);
      ASSERT_EQ(setenv("WS_BRICK_SMEM_EVENT_SLOTS", slots, 1), 0);
      const GridRun got = run_odd(p, "brick_onchip", GridRoom::FurnishedRandomSolids);
      unsetenv("WS_BRICK_SMEM_EVENT_SLOTS");
      long long field_bits = 0;
      for (size_t q = 0; q < ref.cur.size(); ++q) field_bits += (got.cur[q] != ref.cur[q]) + (got.prev[q] != ref.prev[q]);
      std::printf("[ multi-step ] brick_onchip %s, 61x47x53 furnished, %s event slots in shared memory: %lld field "
                  "values differ in bits\n",
                  to_string(p), slots, field_bits);
      EXPECT_EQ(field_bits, 0);
      EXPECT_TRUE(got.rec == ref.rec) << "the receivers differ";
    }
}

// This device's cut of an nx x ny x nz float grid (n^3 when ny and nz are left out).
BrickGrid device_cut(int nx, int ny = 0, int nz = 0) {
  int dev = 0, sms = 0, smem = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&smem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  return brick_layout(make_layout(nx, ny > 0 ? ny : nx, nz > 0 ? nz : nx, 1, 4), Precision::Float, sms, (size_t)smem);
}

// The default kernel and brick_onchip on an nx x ny x nz float grid from random fields with
// these sources and receivers: the fields and every receiver sample the same bits, the
// first receiver with `samples` samples.
void expect_float_grid_bits(int nx, int ny, int nz, const std::vector<SourceNode>& src,
                            const std::vector<ReceiverTaps>& taps, const std::vector<int>& advances, int seed,
                            size_t samples, GridRoom room = GridRoom::Fixed) {
  const Stencil st = make_stencil("7pt");
  const GridRun ref = run_grid(Precision::Float, default_kernel_for(st, Precision::Float), nx, ny, nz, src, taps,
                               advances, seed, room);
  const GridRun got = run_grid(Precision::Float, "brick_onchip", nx, ny, nz, src, taps, advances, seed, room);
  long long field_bits = 0;
  for (size_t q = 0; q < ref.cur.size(); ++q) field_bits += (got.cur[q] != ref.cur[q]) + (got.prev[q] != ref.prev[q]);
  std::printf("[ multi-step ] brick_onchip float, %dx%dx%d%s: %lld field values differ in bits\n", nx, ny, nz,
              room == GridRoom::Fixed ? "" : ", furnished", field_bits);
  EXPECT_EQ(field_bits, 0);
  EXPECT_EQ(got.rec[0].size(), samples);
  EXPECT_TRUE(got.rec == ref.rec) << "the receivers differ";
}

// 150 x 150 x 128 points (2.9 M) need the kernel's large form (bricks of 30 x 30 x 26,
// more shell points, inner columns and face elements per thread than the small form
// holds): float only (double does not fit), from random fields, a source (beside an
// obstacle when furnished) and receivers; with fixed walls and furnished.
TEST(BrickOnchip, LargeBricksMatchTheStepPathBitForBit) {
  WS_REQUIRE_GPU();
  const SourceSignal g = gaussian(8);
  for (GridRoom room : {GridRoom::Fixed, GridRoom::Furnished})
    expect_float_grid_bits(150, 150, 128,
                           {{{75, 60, 52}, g, 1.0, Injection::Value, nullptr},
                            {{29, 30, 25}, g, 0.5, Injection::Value, nullptr}},
                           {trilinear(29, 29, 25, 0.125, 0.0), {{{149, 149, 127}, 1.0}}}, {1, 7, 260}, 91, 268u,
                           room);
}

// A tall grid (20 x 200 x 600) that the H200 cuts into bricks of 47 planes: the events
// form's inner columns skip their listed planes by masks of two words (brick_events.cuh),
// furnished, a source and a receiver above the inner box.
TEST(BrickOnchip, TallBricksWithTwoMaskWordsMatchBitForBit) {
  WS_REQUIRE_GPU();
  const BrickGrid cut = device_cut(20, 200, 600);
  if (brick_mask_words(cut) < 2)
    GTEST_SKIP() << "this GPU cuts 20x200x600 into bricks of " << cut.sz << " planes, one mask word";
  const SourceSignal g = gaussian(8);
  expect_float_grid_bits(20, 200, 600, {{{6, 60, 300}, g, 1.0, Injection::Value, nullptr}},
                         {trilinear(5, 59, 301, 0.125, 0.0)}, {1, 7, 60}, 97, 68u, GridRoom::Furnished);
}

// 96^3 runs blocks of 1024 threads (its bricks of 32 x 16 x 14 have more shell points than
// 512 threads hold), where the smaller grids above run 512: the same bits, with sources and
// receivers across bricks.
TEST(BrickOnchip, BricksOfFullBlocksMatchTheStepPathBitForBit) {
  WS_REQUIRE_GPU();
  if (device_cut(96).threads != kBrickThreads)
    GTEST_SKIP() << "this GPU cuts 96^3 into bricks that blocks of " << kBrickFewThreads << " threads hold";
  const SourceSignal g = gaussian(8);
  for (GridRoom room : {GridRoom::Fixed, GridRoom::Furnished})
    expect_float_grid_bits(96, 96, 96,
                           {{{48, 40, 41}, g, 1.0, Injection::Value, nullptr},
                            {{31, 15, 13}, g, 0.5, Injection::Value, nullptr}},
                           {trilinear(31, 15, 13, 0.125, 0.0), {{{95, 95, 95}, 1.0}}}, {1, 7, 140}, 95, 148u, room);
}

// 64^3 furnished on blocks of 512 threads (where this GPU cuts it so): the events form of
// the half-size blocks, a source beside the floor's box and a receiver on the inner box's
// surface.
TEST(BrickOnchip, HalfSizeBlocksInAFurnishedRoomMatchBitForBit) {
  WS_REQUIRE_GPU();
  if (device_cut(64).threads != kBrickFewThreads)
    GTEST_SKIP() << "this GPU cuts 64^3 into bricks for blocks of " << device_cut(64).threads << " threads";
  const SourceSignal g = gaussian(8);
  expect_float_grid_bits(64, 64, 64,
                         {{{34, 40, 5}, g, 1.0, Injection::Value, nullptr},
                          {{20, 20, 40}, g, 0.5, Injection::Difference, nullptr}},
                         {trilinear(31, 15, 13, 0.125, 0.0), {{{20, 24, 32}, 1.0}}}, {1, 7, 140}, 97, 148u,
                         GridRoom::Furnished);
}

// More sources (40) and receiver taps (320) in one brick than a block lists in shared
// memory (32 and 256): that block reads the step data's lists every step. 64^3 is cut
// into bricks of 32 x 8 x 8; every source and receiver lies in the first, on its shell and
// inside it.
TEST(BrickOnchip, ABrickWithMoreSourcesAndTapsThanItListsMatchesBitForBit) {
  WS_REQUIRE_GPU();
  const BrickGrid cut = device_cut(64);
  if (cut.sx < 32 || cut.sy < 8 || cut.sz < 8)
    GTEST_SKIP() << "this GPU cuts 64^3 into bricks of " << cut.sx << "x" << cut.sy << "x" << cut.sz
                 << ", smaller than the 32x8x8 the test's sources and receivers fill";
  const SourceSignal g = gaussian(6);
  std::vector<SourceNode> src;
  std::vector<ReceiverTaps> taps;
  for (int n = 0; n < 40; ++n) {
    src.push_back({{(7 * n) % 32, n % 8, n / 8}, g, 0.1 + 0.01 * n, Injection::Value, nullptr});
    taps.push_back(trilinear((5 * n) % 31, n % 7, (n / 7) % 7, 0.125, 0.0));
  }
  expect_float_grid_bits(64, 64, 64, src, taps, {3, 260}, 93, 263u);
}

// A few steps on a small grid (45 bricks of at most 4 x 5 x 4) with sources and receivers,
// with fixed walls and furnished (furnished_plan: the events form; its first two steps are
// the solver's settling steps): what compute-sanitizer's tools run, short enough for them.
TEST(BrickOnchipSmall, AFewStepsMatchTheStepPathBitForBit) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  for (GridRoom room : {GridRoom::Fixed, GridRoom::Furnished}) {
    SCOPED_TRACE(room == GridRoom::Fixed ? "fixed walls" : "furnished");
    std::vector<double> out[2], prev[2], rec[2];
    for (int which = 0; which < 2; ++which) {
      auto s = make_cuda_solver(Precision::Float, st, 19, 13, 11, st.courant_max, multi_step::kDt,
                                which == 0 ? default_kernel_for(st, Precision::Float) : std::string("brick_onchip"));
      std::vector<double> a = testing::random_field(s->layout(), 5), b = testing::random_field(s->layout(), 6);
      if (room == GridRoom::Furnished) {
        const BoundaryPlan plan = furnished_plan(s->layout());
        s->set_boundary(plan);
        for (int64_t q : plan.solid) a[(size_t)q] = b[(size_t)q] = 0;
      }
      SourceSignal g;
      g.kind = SignalKind::Gaussian;
      g.width_s = 2 * multi_step::kDt;
      s->set_sources({{{9, 6, 5}, g, 1.0, Injection::Value, nullptr}, {{18, 6, 5}, g, 0.5, Injection::Value, nullptr}});
      s->set_receiver_taps({{{{3, 4, 5}, 1.0}}, {{{3, 4, 3}, 0.5}, {{4, 4, 3}, 0.25}, {{4, 5, 4}, 0.25}}});
      s->write_state(a, b, 0);
      s->advance(6);
      s->read_state(out[which], prev[which]);
      for (const auto& q : s->take_receiver_samples()) rec[which].insert(rec[which].end(), q.begin(), q.end());
    }
    EXPECT_TRUE(out[1] == out[0]) << "u^n differs";
    EXPECT_TRUE(prev[1] == prev[0]) << "u^{n-1} differs";
    EXPECT_EQ(rec[1].size(), 12u);
    EXPECT_TRUE(rec[1] == rec[0]) << "the receivers differ";
  }
}

// Host launches per step count every advance queued since the batch began (a GUI frame is
// queued in chunks of 256 steps), not the last one alone: a run of 256 steps and one of a
// single step are two launches of brick_onchip, 2 / 257 a step; the single step alone is one.
TEST(BrickOnchip, HostLaunchesPerStepCountTheWholeBatch) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  auto s = make_cuda_solver(Precision::Float, st, 40, 30, 20, st.courant_max, multi_step::kDt, "brick_onchip");
  s->advance_async(256);
  s->advance_async(1);
  s->finish_async();
  EXPECT_NEAR(s->step_launches().host_launches_per_step, 2.0 / 257, 1e-9);
  s->advance(1);
  EXPECT_NEAR(s->step_launches().host_launches_per_step, 1.0, 1e-9);
}

// A block other than 32x32x1 is refused naming the one allowed, and the running kernel
// stays; a grid past the bricks' room is refused naming its size.
TEST(BrickOnchip, RefusesOtherBlocksAndGridsItCannotHold) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  auto s = make_cuda_solver(Precision::Float, st, 40, 30, 20, st.courant_max, multi_step::kDt, "brick_onchip");
  try {
    s->set_kernel("brick_onchip", LaunchOptions{{16, 8, 1}, true});
    FAIL() << "16x8 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("32x32x1"), std::string::npos) << e.what();
  }
  EXPECT_EQ(s->kernel().id, "brick_onchip");
  try {
    auto big = make_cuda_solver(Precision::Float, st, 300, 300, 300, st.courant_max, multi_step::kDt, "brick_onchip");
    big->advance(1);
    FAIL() << "300^3 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("300x300x300"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ws
