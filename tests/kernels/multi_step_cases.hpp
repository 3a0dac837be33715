#pragma once
// What the tests of the kernels that run whole steps share (persistent_gpu_test.cpp,
// fused_gpu_test.cpp): a 37 x 29 x 23 room with walls of every kind, an obstacle, sources
// and receivers; run() advances a solver with a kernel through it, compare() checks a
// kernel's run against the solver's per-step path with the default 7-point kernel.
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

namespace ws::multi_step {

constexpr int kNx = 37, kNy = 29, kNz = 23;
constexpr double kDt = 1.0 / 16000;

inline BoxWalls room_walls() {
  BoxWalls w;
  w.fill(WallCondition::with_absorption(0.3));
  w[1] = WallCondition::rigid();
  w[4] = WallCondition::fixed();
  return w;
}

inline SolidNodes obstacle() {
  SolidNodes s;
  s.material.assign((size_t)kNx * kNy * kNz, 0);
  s.admittance = {0.5};
  for (int k = 8; k < 14; ++k)
    for (int j = 5; j < 12; ++j)
      for (int i = 20; i < 27; ++i) s.material[i + (size_t)kNx * (j + (size_t)kNy * k)] = 1;
  return s;
}

inline std::vector<SourceNode> sources(const std::shared_ptr<SampleStream>& samples) {
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

inline std::vector<ReceiverTaps> receivers() {
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

inline const char* room_name(Room r) {
  switch (r) {
    case Room::Fixed: return "fixed walls";
    case Room::Walls: return "walls";
    case Room::WallsWithGap: return "walls with a gap";
    case Room::WallsUneven: return "walls, one node of x_min absorbing more";
    default: return "walls and obstacle";
  }
}

// The index in the plan of its node at (i, j, k).
inline size_t plan_row(const BoundaryPlan& p, const FieldLayout& L, int i, int j, int k) {
  const size_t r = (size_t)(std::find(p.node.begin(), p.node.end(), L.index(i, j, k)) - p.node.begin());
  if (r == p.node.size()) throw std::logic_error("plan_row: no boundary node there");
  return r;
}

// The plan without its node at (i, j, k).
inline BoundaryPlan without_node(BoundaryPlan p, const FieldLayout& L, int i, int j, int k) {
  const size_t r = plan_row(p, L, i, j, k);
  p.node.erase(p.node.begin() + (long)r);
  p.neighbours.erase(p.neighbours.begin() + (long)r);
  p.count.erase(p.count.begin() + (long)r);
  p.beta_sum.erase(p.beta_sum.begin() + (long)r);
  return p;
}

// The room's sources (fed from a fixed random signal) and its three receivers.
template <class Solver>
inline void add_sources_and_receivers(Solver& solver) {
  std::mt19937 rng(3);
  std::vector<float> samples(6000);
  for (float& v : samples) v = std::uniform_real_distribution<float>(-1.f, 1.f)(rng);
  solver.set_sources(sources(std::make_shared<BufferSampleStream>(samples)));
  solver.set_receiver_taps(receivers());
}

// The largest |ref| and the largest |got - ref| of two receivers' samples.
inline std::pair<double, double> peak_and_diff(const std::vector<double>& ref, const std::vector<double>& got) {
  double peak = 0, diff = 0;
  for (size_t n = 0; n < ref.size() && n < got.size(); ++n) {
    peak = std::max(peak, std::abs(ref[n]));
    diff = std::max(diff, std::abs(got[n] - ref[n]));
  }
  return {peak, diff};
}

// solids_hold_values: the states written leave the solid nodes' random values (the
// solver must zero them), and a second state is written after the fourth advance.
inline Run run(Precision p, const std::string& kernel, const BlockShape* block, const std::vector<int>& advances,
               Room room,
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
  add_sources_and_receivers(*solver);
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

inline long long differing_bits(const std::vector<double>& a, const std::vector<double>& b) {
  long long n = 0;
  for (size_t q = 0; q < a.size() && q < b.size(); ++q) n += a[q] != b[q];
  return n;
}

inline void compare(Precision p, double tol, const std::string& kernel, Room room, const std::vector<BlockShape>& blocks,
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
      const auto [peak, diff] = peak_and_diff(ref.rec[q], got.rec[q]);
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

}  // namespace ws::multi_step
