#pragma once
// Scenes for the decomposition tests, run through any WaveSolver: every wall type, an
// obstacle across each cut, sources and receivers on both sides of a cut and one
// receiver whose taps straddle it, stencils of radius 1 to 3 (axial, and a 27-point
// box whose diagonal neighbours cross a cut). A decomposed run must reproduce the
// undecomposed one bit for bit.
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "boundary/boundary_plan.hpp"
#include "common/gpu.hpp"
#include "decomp/slab_plan.hpp"
#include "stencil/stencil.hpp"
#include "wave/wave_solver.hpp"

namespace ws::test {

struct DecompCase {
  std::string name;
  std::string stencil;
  Precision precision = Precision::Float;
  BoxWalls walls{};
  bool obstacle = false;
  int nx = 11, ny = 9, nz = 24;
};

using SolverFactory = std::function<std::unique_ptr<WaveSolver>(Precision, const Stencil&, int nx, int ny, int nz,
                                                                double courant, double dt_s)>;

struct CaseResult {
  std::vector<std::vector<double>> receivers;
  std::vector<double> u_cur, u_prev;
  long long step = 0;
};

inline std::vector<DecompCase> decomp_cases() {
  std::vector<DecompCase> c;
  const BoxWalls fixed{};
  BoxWalls rigid, absorbing, open, mixed;
  for (int w = 0; w < 6; ++w) {
    rigid[w] = WallCondition::rigid();
    absorbing[w] = WallCondition::with_absorption(0.3);
    open[w] = WallCondition::open();
  }
  mixed = {WallCondition::rigid(),  WallCondition::open(),  WallCondition::fixed(),
           WallCondition::with_admittance(0.2), WallCondition::open(), WallCondition::rigid()};
  for (Precision p : {Precision::Float, Precision::Double}) {
    const std::string suffix = p == Precision::Float ? "_float" : "_double";
    c.push_back({"fixed_7pt" + suffix, "7pt", p, fixed, false});
    c.push_back({"rigid_7pt" + suffix, "7pt", p, rigid, false});
    c.push_back({"absorbing_7pt" + suffix, "7pt", p, absorbing, false});
    c.push_back({"open_7pt" + suffix, "7pt", p, open, false});
    c.push_back({"mixed_obstacle_7pt" + suffix, "7pt", p, mixed, true});
    c.push_back({"fixed_obstacle_7pt" + suffix, "7pt", p, fixed, true});
    c.push_back({"fixed_leggy2" + suffix, "leggy:2", p, fixed, false});
    c.push_back({"fixed_leggy3" + suffix, "leggy:3", p, fixed, false});
    c.push_back({"fixed_box111" + suffix, "box:1,1,1", p, fixed, false});  // diagonal neighbours across a cut
  }
  return c;
}

// Solid boxes across the planes where 2 and 3 slabs cut a 24-plane grid (8, 12, 16).
inline SolidNodes case_solids(const DecompCase& c) {
  SolidNodes s;
  if (!c.obstacle) return s;
  s.material.assign((size_t)c.nx * c.ny * c.nz, 0);
  s.admittance = {0.0, 0.4};  // material 1 rigid, material 2 absorbing
  auto box = [&](int i0, int i1, int j0, int j1, int k0, int k1, uint8_t m) {
    for (int k = k0; k <= k1; ++k)
      for (int j = j0; j <= j1; ++j)
        for (int i = i0; i <= i1; ++i) s.material[i + (size_t)c.nx * (j + (size_t)c.ny * k)] = m;
  };
  box(2, 4, 2, 5, 10, 14, 1);  // across 12
  box(6, 8, 4, 6, 6, 9, 2);    // across 8
  box(5, 7, 1, 3, 15, 17, 1);  // across 16
  return s;
}

inline std::vector<SourceNode> case_sources(double dt_s) {
  SourceSignal sig;
  sig.kind = SignalKind::RaisedCosine;
  sig.width_s = 12 * dt_s;
  std::vector<SourceNode> s;
  auto add = [&](int i, int j, int k, double gain, Injection how) {
    SourceNode n;
    n.node = GridIndex{i, j, k};
    n.signal = sig;
    n.gain = gain;
    n.injection = how;
    s.push_back(n);
  };
  add(5, 4, 11, 1.0, Injection::Value);        // just below the cut at 12
  add(6, 5, 12, -0.7, Injection::Difference);  // just above it
  add(3, 7, 7, 0.5, Injection::Value);         // below the cut at 8
  add(3, 7, 7, 0.25, Injection::Value);        // a second source on the same node
  add(8, 2, 16, 0.3, Injection::Value);        // on the first plane above the cut at 16
  return s;
}

inline std::vector<ReceiverTaps> case_receivers() {
  auto one = [](int i, int j, int k) { return ReceiverTaps{GridTap{GridIndex{i, j, k}, 1.0}}; };
  std::vector<ReceiverTaps> r = {one(9, 6, 11), one(9, 6, 12), one(1, 1, 0), one(1, 2, 23), one(7, 3, 8),
                                 one(7, 3, 7), one(4, 4, 16)};
  // Trilinear-like taps straddling the cuts at 12 and at 8 (weights sum to 1).
  ReceiverTaps straddle;
  const double w[8] = {0.11, 0.07, 0.19, 0.13, 0.05, 0.17, 0.2, 0.08};
  int q = 0;
  for (int dk = 0; dk < 2; ++dk)
    for (int dj = 0; dj < 2; ++dj)
      for (int di = 0; di < 2; ++di) straddle.push_back({GridIndex{7 + di, 5 + dj, 11 + dk}, w[q++]});
  r.push_back(straddle);
  r.push_back({GridTap{GridIndex{2, 2, 7}, 0.6}, GridTap{GridIndex{2, 2, 8}, 0.4}});
  return r;
}

// The advances of a case: 5, 17 and 25 steps, or, when WS_TEST_MAX_STEPS caps the run
// (the compute-sanitizer runs, tests/common/gpu.hpp), the capped total in up to three.
inline std::vector<int> case_chunks() {
  const int total = (int)testing::long_run_steps(47);
  if (total == 47) return {5, 17, 25};
  if (total < 3) return {total};
  return {total / 3, total / 3, total - 2 * (total / 3)};
}

// Runs the case for 47 steps in three advances (receivers taken after each).
inline CaseResult run_case(const DecompCase& c, const SolverFactory& make) {
  const Stencil st = make_stencil(c.stencil);
  const double courant = 0.9 * st.courant_max, dt_s = 1e-5;
  auto solver = make(c.precision, st, c.nx, c.ny, c.nz, courant, dt_s);
  solver->set_boundary(make_boundary_plan(solver->layout(), c.walls, case_solids(c), courant));
  solver->set_sources(case_sources(dt_s));
  solver->set_receiver_taps(case_receivers());
  CaseResult out;
  out.receivers.assign(case_receivers().size(), {});
  for (int chunk : case_chunks()) {
    solver->advance(chunk);
    auto fresh = solver->take_receiver_samples();
    for (size_t r = 0; r < fresh.size(); ++r)
      out.receivers[r].insert(out.receivers[r].end(), fresh[r].begin(), fresh[r].end());
  }
  solver->read_state(out.u_cur, out.u_prev);
  out.step = solver->step();
  return out;
}

// The receivers must be non-trivial for the comparison to mean anything.
inline double peak_of(const CaseResult& r) {
  double p = 0.0;
  for (const auto& v : r.receivers)
    for (double x : v) p = std::max(p, std::fabs(x));
  return p;
}

}  // namespace ws::test
