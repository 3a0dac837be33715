// The kernels that run whole steps themselves: persistent_l2 (walls, obstacles, sources
// and receivers inside one cooperative launch of many steps), temporal_2step and
// temporal_2step_vec (two steps per pass over DRAM, sources, receivers and the box's walls
// inside; an obstacle makes the solver step them singly) and zstream_fused and zstream_fused_vec (one launch per step
// with everything inside). Through the CUDA solver each must give what the solver's
// per-step path gives with the default 7-point kernel (the same arithmetic per node; the
// test asserts agreement to 1e-12 / 1e-5 of the field's size and prints how many values
// differ in their bits: none on the H100 except temporal_2step in double, about half of
// them in the last bits, docs/gpu-runs.md), over advances that are not multiples of
// anything, across the receiver buffer's 4096-step chunks and the sampled signal's
// windows, for several tile shapes, in float and double; and with an odd grid and a
// random start.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>

#include "boundary/boundary_plan.hpp"
#include "common/gpu.hpp"
#include "common/random_field.hpp"
#include "core/sample_stream.hpp"
#include "cuda/column_events.hpp"
#include "cuda/cuda_solver.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/tiled_step.hpp"

namespace ws {
namespace {

constexpr int kNx = 37, kNy = 29, kNz = 23;
constexpr double kDt = 1.0 / 16000;

BoxWalls room_walls() {
  BoxWalls w;
  w.fill(WallCondition::with_absorption(0.3));
  w[1] = WallCondition::rigid();
  w[4] = WallCondition::fixed();
  return w;
}

SolidNodes obstacle() {
  SolidNodes s;
  s.material.assign((size_t)kNx * kNy * kNz, 0);
  s.admittance = {0.5};
  for (int k = 8; k < 14; ++k)
    for (int j = 5; j < 12; ++j)
      for (int i = 20; i < 27; ++i) s.material[i + (size_t)kNx * (j + (size_t)kNy * k)] = 1;
  return s;
}

std::vector<SourceNode> sources(const std::shared_ptr<SampleStream>& samples) {
  std::vector<SourceNode> out;
  SourceSignal rc;
  rc.kind = SignalKind::RaisedCosine;
  rc.width_s = 2e-3;
  rc.delay_s = 1e-3;
  out.push_back({{5, 6, 7}, rc, 0.7, Injection::Value, nullptr});
  // A trilinear volume-velocity source: eight nodes, the centred difference, weights summing to 1.
  SourceSignal g;
  g.kind = SignalKind::Gaussian;
  g.width_s = 5e-4;
  g.delay_s = 3e-3;
  const double f[2] = {0.3, 0.7};
  for (int c = 0; c < 8; ++c)
    out.push_back({{30 + (c & 1), 20 + ((c >> 1) & 1), 15 + (c >> 2)}, g,
                   2.0 * f[c & 1] * f[(c >> 1) & 1] * f[c >> 2], Injection::Difference, nullptr});
  SourceSignal s;
  s.kind = SignalKind::Sampled;
  s.amplitude = 0.01;
  s.delay_s = 0.01;
  out.push_back({{12, 22, 3}, s, 1.0, Injection::Difference, samples});
  // On boundary nodes: the -x face, and the edge of the +x and +y faces.
  out.push_back({{0, 10, 11}, g, 0.6, Injection::Value, nullptr});
  out.push_back({{kNx - 1, kNy - 1, 12}, rc, 0.4, Injection::Value, nullptr});
  return out;
}

std::vector<ReceiverTaps> receivers() {
  std::vector<ReceiverTaps> r;
  r.push_back({{{{2, 2, 2}, 1.0}}});
  r.push_back({{{{kNx - 1, kNy - 1, kNz - 1}, 1.0}}});  // in a corner, on three walls
  ReceiverTaps spread;
  for (int c = 0; c < 8; ++c) spread.push_back({{15 + (c & 1), 9 + ((c >> 1) & 1), 18 + (c >> 2)}, 0.125});
  r.push_back(spread);
  return r;
}

struct Run {
  std::vector<double> cur, prev;
  std::vector<std::vector<double>> rec;
};

// Fixed walls; the room's walls of every kind; those with a gap of one node in the x_min
// wall (a face that is not all boundary nodes); those and an obstacle inside.
// The walls with one node of the x_min wall absorbing more than the rest of it (a face
// whose nodes do not share their coefficients) is WallsUneven.
enum class Room { Fixed, Walls, WallsWithGap, WallsUneven, WallsAndObstacle };

const char* room_name(Room r) {
  switch (r) {
    case Room::Fixed: return "fixed walls";
    case Room::Walls: return "walls";
    case Room::WallsWithGap: return "walls with a gap";
    case Room::WallsUneven: return "walls, one node of x_min absorbing more";
    default: return "walls and obstacle";
  }
}

// The index in the plan of its node at (i, j, k).
size_t plan_row(const BoundaryPlan& p, const FieldLayout& L, int i, int j, int k) {
  const size_t r = (size_t)(std::find(p.node.begin(), p.node.end(), L.index(i, j, k)) - p.node.begin());
  if (r == p.node.size()) throw std::logic_error("plan_row: no boundary node there");
  return r;
}

// The plan without its node at (i, j, k).
BoundaryPlan without_node(BoundaryPlan p, const FieldLayout& L, int i, int j, int k) {
  const size_t r = plan_row(p, L, i, j, k);
  p.node.erase(p.node.begin() + (long)r);
  p.neighbours.erase(p.neighbours.begin() + (long)r);
  p.count.erase(p.count.begin() + (long)r);
  p.beta_sum.erase(p.beta_sum.begin() + (long)r);
  return p;
}

// solids_hold_values: the states written leave the solid nodes' random values (the
// solver must zero them), and a second state is written after the fourth advance.
Run run(Precision p, const std::string& kernel, const BlockShape* block, const std::vector<int>& advances, Room room,
        const std::string& stencil = "7pt", bool graph = true, int z_waves = 0, bool solids_hold_values = false) {
  const Stencil st = make_stencil(stencil);
  auto solver = make_cuda_solver(p, st, kNx, kNy, kNz, st.courant_max, kDt, kernel);
  solver->set_step_graph(graph);
  if (block) solver->set_kernel(kernel, LaunchOptions{*block, true, z_waves});
  const SolidNodes solids = room == Room::WallsAndObstacle ? obstacle() : SolidNodes{};
  BoxWalls fixed;
  fixed.fill(WallCondition::fixed());
  BoundaryPlan plan =
      make_boundary_plan(solver->layout(), room == Room::Fixed ? fixed : room_walls(), solids, st.courant_max);
  if (room == Room::WallsWithGap) plan = without_node(plan, solver->layout(), 0, 10, 6);
  if (room == Room::WallsUneven) plan.beta_sum[plan_row(plan, solver->layout(), 0, 10, 6)] *= 1.5;
  solver->set_boundary(plan);
  std::mt19937 rng(3);
  std::vector<float> samples(6000);
  for (float& v : samples) v = std::uniform_real_distribution<float>(-1.f, 1.f)(rng);
  solver->set_sources(sources(std::make_shared<BufferSampleStream>(samples)));
  solver->set_receiver_taps(receivers());
  const FieldLayout& L = solver->layout();
  auto a = testing::random_field(L, 41), b = testing::random_field(L, 42);
  if (!solids_hold_values)
    for (int64_t q : plan.solid) a[q] = b[q] = 0;
  solver->write_state(a, b, 0);
  Run r;
  r.rec.assign(3, {});
  const int longest_n = *std::max_element(advances.begin(), advances.end());
  StepLaunches longest;  // after the longest advance (4100 steps)
  for (size_t x = 0; x < advances.size(); ++x) {
    const int n = advances[x];
    if (solids_hold_values && x == 4) {
      std::vector<double> c, q;
      solver->read_state(c, q);
      const auto noise = testing::random_field(L, 45);
      for (int64_t s : plan.solid) c[s] = q[s] = noise[s];
      solver->write_state(c, q, solver->step());
    }
    solver->advance(n);
    if (n == longest_n) longest = solver->step_launches();
    auto got = solver->take_receiver_samples();
    for (int q = 0; q < 3; ++q) r.rec[q].insert(r.rec[q].end(), got[q].begin(), got[q].end());
  }
  EXPECT_EQ(solver->step(), [&] { long long s = 0; for (int n : advances) s += n; return s; }());
  // Host launches per step over 4100 steps: persistent_l2 runs them as two launches (of
  // at most 4096 steps); temporal_2step as a pass per two steps, with the sources' values
  // computed before each pass and the receivers read after it: 1.5 per step here, and
  // for temporal_2step_vec with boundary nodes their two levels around the pass: 2.5.
  if (kernel == "persistent_l2") {
    EXPECT_LT(longest.host_launches_per_step, 0.001) << "the advance was not run as launches of many steps";
  } else if (kernel == "cluster_onchip" || kernel == "spread_onchip") {
    // Runs of up to kSourceValueSteps steps, each after the kernel of its source values.
    EXPECT_LE(longest.host_launches_per_step, 2.0 / kSourceValueSteps + 0.001) << "the advance was not run as long runs";
  } else if (kernel == "zstream_fused" || kernel == "zstream_fused_vec") {
    // One launch per step, and per run of up to kSourceValueSteps steps one for the
    // sources' values and one for the receivers of its last step; with the graph, runs of
    // up to kSourceValueSteps steps replayed with one launch and one counter update.
    EXPECT_EQ(longest.boundary, 0) << "the boundary-node kernels ran beside the fused kernel";
    EXPECT_EQ(longest.graph, graph);
    if (graph) {
      EXPECT_LE(longest.host_launches_per_step, 0.06) << "the runs were not replayed from a graph";
    } else {
      // Runs of kSourceValueSteps, and up to two more where the receiver buffer's end cuts one.
      const double runs = std::ceil((double)longest_n / kSourceValueSteps) + 2;
      EXPECT_LE(longest.host_launches_per_step, 1.0 + 2.0 * runs / longest_n + 1e-9) << "the step was not one launch";
      EXPECT_GE(longest.host_launches_per_step, 1.0);
    }
  } else if (kernel == "temporal_2step_vec" && room == Room::WallsWithGap) {
    EXPECT_TRUE(longest.graph) << "a scene whose walls are not whole faces was run in passes, not single steps";
  } else if ((kernel == "temporal_2step" || kernel == "temporal_2step_vec") && room != Room::WallsAndObstacle) {
    const bool walls = room == Room::Walls || room == Room::WallsUneven;
    const double per_step = kernel == "temporal_2step_vec" && walls ? 2.5 : 1.5;
    EXPECT_LE(longest.host_launches_per_step, per_step + 0.01) << "the advance was not run as passes of two steps";
    EXPECT_GE(longest.host_launches_per_step, 0.49);
    EXPECT_FALSE(longest.graph) << "the step graph replayed single steps instead of the passes";
  }
  solver->read_state(r.cur, r.prev);
  return r;
}

long long differing_bits(const std::vector<double>& a, const std::vector<double>& b) {
  long long n = 0;
  for (size_t q = 0; q < a.size() && q < b.size(); ++q) n += a[q] != b[q];
  return n;
}

void compare(Precision p, double tol, const std::string& kernel, Room room, const std::vector<BlockShape>& blocks,
             const std::string& stencil = "7pt", bool graph = true, int z_waves = 0, bool solids_hold_values = false) {
  WS_REQUIRE_GPU();
  const std::vector<int> advances = {1, 7, 500, 4100, 33, 2};
  const Stencil st = make_stencil(stencil);
  const std::string ref_kernel = default_kernel_for(st, p);
  const Run ref = run(p, ref_kernel, nullptr, advances, room, stencil, true, 0, solids_hold_values);
  const FieldLayout L = make_layout(kNx, kNy, kNz, halo_for(st), p == Precision::Float ? 4 : 8);
  for (BlockShape b : blocks) {
    SCOPED_TRACE(::testing::Message() << kernel << " " << to_string(p) << " block " << b.x << "x" << b.y << "x" << b.z
                                      << " " << stencil << " " << room_name(room) << (graph ? "" : ", graph off")
                                      << ", z_waves " << z_waves << " vs " << ref_kernel);
    const Run got = run(p, kernel, &b, advances, room, stencil, graph, z_waves, solids_hold_values);
    const auto [d, m] = testing::max_diff(got.cur, ref.cur, L);
    EXPECT_GT(m, 0.0);
    EXPECT_LE(d, tol * m) << "u^n: max |diff| " << d << " of max |u| " << m;
    const auto [dp, mp] = testing::max_diff(got.prev, ref.prev, L);
    EXPECT_LE(dp, tol * mp) << "u^{n-1}: max |diff| " << dp << " of max |u| " << mp;
    long long rec_bits = 0;
    for (int q = 0; q < 3; ++q) {
      ASSERT_EQ(got.rec[q].size(), ref.rec[q].size()) << "receiver " << q;
      double peak = 0, diff = 0;
      for (size_t n = 0; n < ref.rec[q].size(); ++n) {
        peak = std::max(peak, std::abs(ref.rec[q][n]));
        diff = std::max(diff, std::abs(got.rec[q][n] - ref.rec[q][n]));
      }
      EXPECT_LE(diff, tol * peak) << "receiver " << q;
      rec_bits += differing_bits(got.rec[q], ref.rec[q]);
    }
    std::printf("[ multi-step ] %s %s, %s, %dx%dx%d: %lld of %zu field values and %lld receiver samples differ in bits\n",
                kernel.c_str(), to_string(p), room_name(room), b.x, b.y, b.z, differing_bits(got.cur, ref.cur) + differing_bits(got.prev, ref.prev),
                2 * ref.cur.size(), rec_bits);
    if (solids_hold_values) {  // the whole-step kernels give the per-step path's bits
      EXPECT_EQ(differing_bits(got.cur, ref.cur) + differing_bits(got.prev, ref.prev), 0);
      EXPECT_EQ(rec_bits, 0);
    }
  }
}

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
  ws::Run got[2];  // (Run alone names testing::Test::Run here)
  for (int which = 0; which < 2; ++which) {
    const std::string first = which == 0 ? default_kernel_for(st, Precision::Double) : order[0];
    auto solver = make_cuda_solver(Precision::Double, st, kNx, kNy, kNz, st.courant_max, kDt, first);
    const BoundaryPlan plan = make_boundary_plan(solver->layout(), room_walls(), obstacle(), st.courant_max);
    solver->set_boundary(plan);
    std::mt19937 rng(3);
    std::vector<float> samples(6000);
    for (float& v : samples) v = std::uniform_real_distribution<float>(-1.f, 1.f)(rng);
    solver->set_sources(sources(std::make_shared<BufferSampleStream>(samples)));
    solver->set_receiver_taps(receivers());
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
    double peak = 0, diff = 0;
    for (size_t n = 0; n < got[0].rec[q].size(); ++n) {
      peak = std::max(peak, std::abs(got[0].rec[q][n]));
      diff = std::max(diff, std::abs(got[1].rec[q][n] - got[0].rec[q][n]));
    }
    EXPECT_GT(peak, 0.0) << "receiver " << q;
    EXPECT_LE(diff, 1e-12 * peak) << "receiver " << q;
  }
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
