// spread_onchip on grids taller than the GPU has SMs: each block then owns several planes
// (the last block fewer), its first and last planes are different planes, and a receiver
// or source may lie on either side of a block's edge. Against the solver's per-step path
// with the default 7-point kernel, from a random start, with absorbing, rigid and fixed
// walls, sources and receivers; and the launches it refuses, by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "boundary/boundary_plan.hpp"
#include "common/gpu.hpp"
#include "common/random_field.hpp"
#include "cuda/cuda_solver.hpp"

namespace ws {
namespace {

constexpr double kDt = 1.0 / 16000;

int sm_count() {
  int dev = 0, sms = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) return 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess) return 0;
  return sms;
}

struct TallRun {
  std::vector<double> cur, prev;
  std::vector<std::vector<double>> rec;
};

TallRun run_tall(Precision p, const std::string& kernel, int nz, const std::vector<int>& advances) {
  const Stencil st = make_stencil("7pt");
  auto s = make_cuda_solver(p, st, 21, 13, nz, st.courant_max, kDt, kernel);
  BoxWalls w;
  w.fill(WallCondition::with_absorption(0.35));
  w[2] = WallCondition::rigid();
  w[5] = WallCondition::fixed();
  s->set_boundary(make_boundary_plan(s->layout(), w, {}, st.courant_max));
  SourceSignal g;
  g.kind = SignalKind::Gaussian;
  g.width_s = 3 * kDt;
  g.delay_s = 8 * kDt;
  // Sources on a block's first and last plane (planes 3 and 5 with three planes a block),
  // inside one, and on the top plane.
  s->set_sources({{{9, 6, 3}, g, 1.0, Injection::Value, nullptr},
                  {{4, 2, 5}, g, 0.5, Injection::Difference, nullptr},
                  {{20, 12, nz / 2}, g, 0.8, Injection::Value, nullptr},
                  {{10, 6, nz - 1}, g, 0.3, Injection::Value, nullptr}});
  // Receivers: trilinear across blocks (planes 2-3 and 5-6), on a block's middle plane, in
  // the top corner.
  std::vector<ReceiverTaps> rec;
  for (int k0 : {2, 5}) {
    ReceiverTaps t;
    for (int c = 0; c < 8; ++c) t.push_back({{7 + (c & 1), 4 + ((c >> 1) & 1), k0 + (c >> 2)}, 0.125});
    rec.push_back(t);
  }
  rec.push_back({{{11, 7, 4}, 1.0}});
  rec.push_back({{{20, 12, nz - 1}, 1.0}});
  s->set_receiver_taps(rec);
  s->write_state(testing::random_field(s->layout(), 71), testing::random_field(s->layout(), 72), 0);
  TallRun r;
  r.rec.assign(rec.size(), {});
  for (int n : advances) {
    s->advance(n);
    auto got = s->take_receiver_samples();
    for (size_t q = 0; q < rec.size(); ++q) r.rec[q].insert(r.rec[q].end(), got[q].begin(), got[q].end());
  }
  s->read_state(r.cur, r.prev);
  return r;
}

// A grid of planes_per_block planes per SM, less one (the last block is short).
void compare_tall(Precision p, double tol, int planes_per_block) {
  WS_REQUIRE_GPU();
  const int sms = sm_count();
  ASSERT_GT(sms, 0);
  const int nz = planes_per_block * sms - 1;
  const std::vector<int> advances = {1, 5, 300, 2};
  const TallRun ref = run_tall(p, default_kernel_for(make_stencil("7pt"), p), nz, advances);
  const TallRun got = run_tall(p, "spread_onchip", nz, advances);
  const FieldLayout L = make_layout(21, 13, nz, 1, p == Precision::Float ? 4 : 8);
  const auto [d, m] = testing::max_diff(got.cur, ref.cur, L);
  EXPECT_GT(m, 0.0);
  EXPECT_LE(d, tol * m) << "u^n: max |diff| " << d << " of max |u| " << m;
  const auto [dp, mp] = testing::max_diff(got.prev, ref.prev, L);
  EXPECT_LE(dp, tol * mp) << "u^{n-1}: max |diff| " << dp << " of max |u| " << mp;
  long long field_bits = 0, rec_bits = 0;
  for (size_t q = 0; q < ref.cur.size(); ++q) field_bits += (got.cur[q] != ref.cur[q]) + (got.prev[q] != ref.prev[q]);
  for (size_t q = 0; q < ref.rec.size(); ++q) {
    ASSERT_EQ(got.rec[q].size(), ref.rec[q].size()) << "receiver " << q;
    for (size_t n = 0; n < ref.rec[q].size(); ++n) {
      EXPECT_NEAR(got.rec[q][n], ref.rec[q][n], tol * std::max(1.0, std::abs(ref.rec[q][n])))
          << "receiver " << q << " sample " << n;
      rec_bits += got.rec[q][n] != ref.rec[q][n];
    }
  }
  std::printf("[ multi-step ] spread_onchip %s, 21x13x%d (%d planes a block on %d SMs): %lld field values and %lld "
              "receiver samples differ in bits\n",
              to_string(p), nz, planes_per_block, sms, field_bits, rec_bits);
  EXPECT_EQ(field_bits, 0);
  EXPECT_EQ(rec_bits, 0);
}

TEST(SpreadOnchip, TallGridWithThreePlanesABlockMatchesTheStepPathFloat) { compare_tall(Precision::Float, 1e-5, 3); }
TEST(SpreadOnchip, TallGridWithTwoPlanesABlockMatchesTheStepPathDouble) { compare_tall(Precision::Double, 1e-12, 2); }

// Rows of two vectors in float (7 points) and of two in double (3 points): every vector of a
// row lies on an x face and ends inside the row's padding; walls of every kind, a source on
// the middle plane, receivers on a face and across two planes.
TEST(SpreadOnchip, NarrowRowsMatchTheStepPathBitForBit) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  for (Precision p : {Precision::Float, Precision::Double}) {
    const int nx = p == Precision::Float ? 7 : 3;
    std::vector<double> out[2], prev[2];
    std::vector<std::vector<double>> rec[2];
    for (int which = 0; which < 2; ++which) {
      auto s = make_cuda_solver(p, st, nx, 9, 40, st.courant_max, kDt,
                                which == 0 ? default_kernel_for(st, p) : std::string("spread_onchip"));
      BoxWalls w;
      w.fill(WallCondition::with_absorption(0.25));
      w[0] = WallCondition::rigid();
      w[4] = WallCondition::fixed();
      s->set_boundary(make_boundary_plan(s->layout(), w, {}, st.courant_max));
      SourceSignal g;
      g.kind = SignalKind::Gaussian;
      g.width_s = 2 * kDt;
      g.delay_s = 6 * kDt;
      s->set_sources({{{nx / 2, 4, 20}, g, 1.0, Injection::Value, nullptr}});
      s->set_receiver_taps({{{{nx - 1, 8, 39}, 1.0}}, {{{0, 3, 11}, 0.5}, {{0, 3, 12}, 0.5}}});
      s->write_state(testing::random_field(s->layout(), 81), testing::random_field(s->layout(), 82), 0);
      s->advance(3);
      s->advance(120);
      s->read_state(out[which], prev[which]);
      rec[which] = s->take_receiver_samples();
    }
    long long bits = 0;
    for (size_t q = 0; q < out[0].size(); ++q) bits += (out[0][q] != out[1][q]) + (prev[0][q] != prev[1][q]);
    EXPECT_EQ(bits, 0) << to_string(p);
    ASSERT_EQ(rec[0].size(), rec[1].size());
    for (size_t q = 0; q < rec[0].size(); ++q) EXPECT_EQ(rec[0][q], rec[1][q]) << to_string(p) << " receiver " << q;
    EXPECT_GT(*std::max_element(out[1].begin(), out[1].end()), 0.0);
  }
}

// Rooms whose slow rows (the faces' and those with events) run apart from the bare update,
// on grids of several planes a block: an obstacle across blocks' edges (rows with events
// inside the block's planes, listed at launch start), a slab one plane thick like a table
// top, sources on an x face and in the obstacle's shadow, receivers beside them; and rows of
// one vector (every node of a row on a slow row). Against the per-step path, bit for bit.
struct RoomCase {
  int nx, ny, nz;
  bool obstacle;
  BlockShape block{32, 16, 1};
};

std::vector<std::vector<double>> run_room(Precision p, const std::string& kernel, const RoomCase& c,
                                          std::vector<double>& cur, std::vector<double>& prev) {
  const Stencil st = make_stencil("7pt");
  auto s = make_cuda_solver(p, st, c.nx, c.ny, c.nz, st.courant_max, kDt, kernel);
  if (kernel == "spread_onchip") s->set_kernel(kernel, LaunchOptions{c.block, true});
  BoxWalls w;
  w.fill(WallCondition::with_absorption(0.3));
  w[1] = WallCondition::rigid();
  w[4] = WallCondition::with_admittance(0.7);
  SolidNodes solids;
  if (c.obstacle) {
    solids.material.assign((size_t)c.nx * c.ny * c.nz, 0);
    solids.admittance = {0.4, 0.05};
    auto mark = [&](int i0, int i1, int j0, int j1, int k0, int k1, uint8_t m) {
      for (int k = k0; k < k1; ++k)
        for (int j = j0; j < j1; ++j)
          for (int i = i0; i < i1; ++i) solids.material[i + (size_t)c.nx * (j + (size_t)c.ny * k)] = m;
    };
    mark(c.nx / 3, c.nx / 3 + 9, 4, 11, c.nz / 2 - 4, c.nz / 2 + 5, 1);  // a box across several blocks
    mark(2, c.nx - 5, c.ny - 8, c.ny - 3, c.nz / 4, c.nz / 4 + 1, 2);      // a slab one plane thick
  }
  const BoundaryPlan plan = make_boundary_plan(s->layout(), w, solids, st.courant_max);
  s->set_boundary(plan);
  SourceSignal g;
  g.kind = SignalKind::Gaussian;
  g.width_s = 2 * kDt;
  g.delay_s = 5 * kDt;
  s->set_sources({{{0, c.ny / 2, c.nz / 3}, g, 1.0, Injection::Value, nullptr},
                  {{c.nx / 2, 2, c.nz / 2 + 6}, g, 0.7, Injection::Difference, nullptr},
                  {{c.nx - 1, c.ny - 1, c.nz - 1}, g, 0.4, Injection::Value, nullptr}});
  s->set_receiver_taps({{{{1, c.ny / 2, c.nz / 3}, 1.0}},
                        {{{c.nx / 2, 3, c.nz / 2 + 6}, 0.5}, {{c.nx / 2, 3, c.nz / 2 + 7}, 0.5}},
                        {{{c.nx - 1, 0, 0}, 1.0}}});
  auto a = testing::random_field(s->layout(), 91), b = testing::random_field(s->layout(), 92);
  for (int64_t q : plan.solid) a[q] = b[q] = 0;  // the solids' nodes start at zero, as the solver leaves them
  s->write_state(a, b, 0);
  std::vector<std::vector<double>> rec(3);
  for (int n : {1, 4, 161}) {
    s->advance(n);
    auto got = s->take_receiver_samples();
    for (size_t q = 0; q < rec.size(); ++q) rec[q].insert(rec[q].end(), got[q].begin(), got[q].end());
  }
  s->read_state(cur, prev);
  return rec;
}

void compare_room(Precision p, const RoomCase& c) {
  const Stencil st = make_stencil("7pt");
  std::vector<double> cur[2], prev[2];
  std::vector<std::vector<double>> rec[2];
  rec[0] = run_room(p, default_kernel_for(st, p), c, cur[0], prev[0]);
  rec[1] = run_room(p, "spread_onchip", c, cur[1], prev[1]);
  long long bits = 0;
  for (size_t q = 0; q < cur[0].size(); ++q) bits += (cur[0][q] != cur[1][q]) + (prev[0][q] != prev[1][q]);
  long long rec_bits = 0;
  ASSERT_EQ(rec[0].size(), rec[1].size());
  for (size_t q = 0; q < rec[0].size(); ++q) {
    ASSERT_EQ(rec[0][q].size(), rec[1][q].size()) << "receiver " << q;
    for (size_t n = 0; n < rec[0][q].size(); ++n) rec_bits += rec[0][q][n] != rec[1][q][n];
  }
  std::printf("[ multi-step ] spread_onchip %s room %dx%dx%d%s: %lld field values and %lld receiver samples "
              "differ in bits\n",
              to_string(p), c.nx, c.ny, c.nz, c.obstacle ? " with obstacles" : "", bits, rec_bits);
  EXPECT_EQ(bits, 0);
  EXPECT_EQ(rec_bits, 0);
  EXPECT_GT(*std::max_element(cur[1].begin(), cur[1].end()), 0.0);
}

TEST(SpreadOnchip, RoomsWithObstaclesOverSeveralPlanesABlockMatchTheStepPathBitForBit) {
  WS_REQUIRE_GPU();
  const int sms = sm_count();
  ASSERT_GT(sms, 0);
  compare_room(Precision::Float, {37, 23, 2 * sms - 3, true});
  compare_room(Precision::Double, {21, 19, 2 * sms + 1, true});
  compare_room(Precision::Float, {45, 17, sms / 2, true});  // one plane a block
}

// Blocks of one warp on planes of more strips than 32 rounds of it: the slow rows of the
// later rounds are looked up in shared memory instead of the thread's register mask.
TEST(SpreadOnchip, RoomsOnOneWarpBlocksPastTheRegisterMaskMatchTheStepPath) {
  WS_REQUIRE_GPU();
  compare_room(Precision::Float, {101, 90, 24, true, {32, 1, 1}});
}

TEST(SpreadOnchip, RowsOfOneVectorMatchTheStepPathBitForBit) {
  WS_REQUIRE_GPU();
  const int sms = sm_count();
  ASSERT_GT(sms, 0);
  compare_room(Precision::Float, {4, 11, 2 * sms - 1, false});
  compare_room(Precision::Double, {2, 9, sms + 3, false});
  compare_room(Precision::Float, {3, 5, 29, false});  // one vector a row, ending in its padding
}

// A grid whose fields do not fit in the SMs' shared memory is refused by set_kernel with
// the sizes named; the running kernel stays and runs.
TEST(SpreadOnchip, RefusesAGridBeyondTheSharedMemoryAndKeepsItsKernel) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  auto solver = make_cuda_solver(Precision::Float, st, 256, 256, 256, 0.5, kDt, "zstream_vec");
  try {
    solver->set_kernel("spread_onchip", LaunchOptions{{32, 16, 1}, true});
    FAIL() << "a 256^3 grid was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("256x256x256"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("SMs"), std::string::npos) << e.what();
  }
  EXPECT_EQ(solver->kernel().id, "zstream_vec");
  solver->advance(3);
  EXPECT_EQ(solver->step(), 3);
}

// A receiver whose taps span three planes cannot be recorded by one block: the advance is
// refused, naming the span.
TEST(SpreadOnchip, RefusesAReceiverSpanningThreePlanes) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  auto solver = make_cuda_solver(Precision::Float, st, 20, 20, 20, 0.5, kDt, "spread_onchip");
  solver->set_receiver_taps({{{{5, 5, 4}, 0.5}, {{5, 5, 6}, 0.5}}});
  try {
    solver->advance(10);
    FAIL() << "a receiver over planes 4-6 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("span 3 z planes"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ws
