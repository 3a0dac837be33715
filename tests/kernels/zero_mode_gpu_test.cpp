// The zero-frequency mode is exact in every CUDA kernel: a constant field is a
// fixed point of the update bit for bit, in float and double, over 10^5 steps.
//
//  Interior: every registered kernel x one stencil of each family it runs
//    (7pt, leggy:2/4/5/8, compact, box, a 27-point scheme) x float/double x the
//    constants below, on 13 x 11 x 9 with both time levels constant everywhere,
//    halo and row padding included: 1 plain launch, then a CUDA graph of 1000
//    launches replayed 100 times, no host synchronisation in between; the runs of
//    one stencil and precision go side by side, one stream each. Every interior
//    value of both levels must still be the constant, bit for bit. The dense
//    large-radius cases (compact_tiled and zsweep_box at radius 3 and 4, 40-180 us
//    a step on this grid: one block, compute-bound) replay the graph 10 times.
//  Zero halo: ztma_leggy takes its halo from the TMA's out-of-bounds fill, i.e.
//    as 0 whatever the array holds, so a constant is not a fixed point next to
//    the halo. It runs a few steps on a grid with a margin of (steps x M) points
//    and the core, which the halo cannot have reached, must keep the constant.
//  Walls: the 7-point stencil with rigid, absorbing (admittance 0.3) and open
//    walls on all six sides and a small solid obstacle. The default 7-point kernel
//    through the CUDA solver (advance(), the boundary-node kernels around the
//    interior one), each wall type x constant x precision; every 7-point kernel
//    with the same three launches per step (DeviceBoundary::compute, the kernel,
//    DeviceBoundary::scatter, as the solver issues them) in CUDA graphs, each wall
//    type x constant x precision. Air nodes keep the constant, solid nodes hold 0.
//
// Why this fails for an update with a folded centre, u^{n+1} = c0 u + c1 S - u^{n-1}
// with c0 = round(2 - 6 lambda^2), c1 = round(lambda^2): for u = c the result is
// round(c0 c + c1 round(6c)) - c, and c0 + 6 c1 != 2 after rounding, so for most
// c the first step is already off by an ulp (at lambda^2 = 0.27, -123.456 is off in
// float and double; 0.7316 happens to be exact there, hence two constants), and in
// float the zero mode then grows like exp(n sqrt(6e-8)): -123.456 reaches ~1e12
// within the 10^5 steps. The boundary nodes' old form cu u + cn sum u_y + cp u^{n-1}
// fails the same way. The kernels now evaluate (2u - u^{n-1}) + lambda^2 sum_p w_p
// (u(x+p) - u(x)) in a form whose Laplacian is exactly 0 for a constant
// (sim/cuda/kernels/exact_update.cuh, sim/boundary/boundary_plan.hpp).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "boundary/boundary_kernels.hpp"
#include "boundary/boundary_plan.hpp"
#include "common/gpu.hpp"
#include "cuda/cuda_solver.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/kernel_registry.hpp"
#include "wave/wave_solver.hpp"

namespace ws {
namespace {

constexpr double kConstants[] = {0.7316, -123.456};
// Launches per graph: even, so the two grids are back in their roles; 1000, or the
// even part of WS_TEST_MAX_STEPS (at least 2) under compute-sanitizer.
const int kGraphSteps = std::max(2, (int)::ws::testing::long_run_steps(1000) / 2 * 2);
// Under compute-sanitizer (WS_TEST_MAX_STEPS, long_run_steps) one replay of a short graph
// and a short solver run: the same kernels and launches, the same bit-for-bit check.
const int kReplays = (int)std::max(1LL, ::ws::testing::long_run_steps(100LL * kGraphSteps) / kGraphSteps);  // 1 + 100 x 1000 steps
const int kDenseReplays = (int)std::max(1LL, ::ws::testing::long_run_steps(10LL * kGraphSteps) / kGraphSteps);  // 1 + 10 x 1000 (dense)
const int kSolverSteps = (int)::ws::testing::long_run_steps(100000);
constexpr int kZeroHaloSteps = 4;
constexpr int kNx = 13, kNy = 11, kNz = 9;
constexpr double kFractionOfLimit = 0.9;

// One stencil of each family, and leggy radii that take every code path of the
// leggy kernels (vector widths, unrolled or shifting queues, block widths).
const std::vector<std::string>& stencil_names() {
  static const std::vector<std::string> names{"7pt",       "leggy:2",    "leggy:4",   "leggy:5",  "leggy:8",
                                              "compact:3", "compact:22", "box:2,2,2", "box:3,1,0", "iwb"};
  return names;
}

// Kernels that read the halo as 0 instead of from the array (ztma_leggy.cu: the tensor
// maps span the interior only; cluster_onchip.cu, spread_onchip.cu: the grid in shared
// memory with a zero ring).
bool reads_zero_halo(const KernelVariant& v) {
  return v.id == "ztma_leggy" || v.id == "cluster_onchip" || v.id == "spread_onchip";
}

// A step of the dense weight-cube / class-sum kernels costs 40-180 us on the small grid
// from radius 3 on (one block does all the arithmetic): they replay the graph fewer times.
int replays_for(const KernelVariant& v, const Stencil& st) {
  return (v.id == "compact_tiled" || v.id == "zsweep_box") && st.radius >= 3 ? kDenseReplays : kReplays;
}

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class T>
void launch(const KernelVariant& v, const StepArgs<T>& args, const LaunchOptions& o, cudaStream_t s) {
  if constexpr (std::is_same_v<T, float>) v.launch_float(args, o, s);
  else v.launch_double(args, o, s);
}

std::string at_text(int i, int j, int k, double v) {
  char b[96];
  std::snprintf(b, sizeof b, "(%d,%d,%d) = %.17g", i, j, k, v);
  return b;
}

// A 2 x 3 x 2 block of solid nodes (admittance 0.5) inside the 13 x 11 x 9 grid.
SolidNodes small_obstacle() {
  SolidNodes s;
  s.material.assign((size_t)kNx * kNy * kNz, 0);
  s.admittance = {0.5};
  for (int k = 3; k < 5; ++k)
    for (int j = 4; j < 7; ++j)
      for (int i = 5; i < 7; ++i) s.material[i + (size_t)kNx * (j + (size_t)kNy * k)] = 1;
  return s;
}

struct WallCase {
  const char* name;
  WallCondition wall;
};

const std::vector<WallCase>& wall_cases() {
  static const std::vector<WallCase> w{{"rigid", WallCondition::rigid()},
                                       {"absorbing 0.3", WallCondition::with_admittance(0.3)},
                                       {"open", WallCondition::open()}};
  return w;
}

BoxWalls all_walls(const WallCondition& c) {
  BoxWalls w;
  w.fill(c);
  return w;
}

// One case run in a CUDA graph: its own two grids (filled with the constant
// everywhere), its stream, and optionally the boundary-node kernels.
template <class T>
struct Run {
  const KernelVariant* v = nullptr;
  std::string what;
  double c = 0.0;
  const Stencil* st = nullptr;
  double lambda2 = 0.0;
  int replays = kReplays;
  FieldLayout L;
  LaunchOptions opt;
  DeviceBuffer<T> a, b;  // u^n and u^{n-1} at the start
  CudaStream stream;
  std::unique_ptr<DeviceBoundary<T>> boundary;
  SolidNodes solids;
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;

  Run(const KernelVariant& kv, const Stencil& s, double constant, int nx, int ny, int nz)
      : v(&kv), c(constant), st(&s), lambda2(std::pow(kFractionOfLimit * s.courant_max, 2)) {
    L = make_layout(nx, ny, nz, halo_for(s), sizeof(T));
    opt = LaunchOptions{preferred_block(kv, s, precision_of<T>()), true};
    a = DeviceBuffer<T>(L.total);
    b = DeviceBuffer<T>(L.total);
    const std::vector<T> fill(L.total, T(c));  // interior, halo and padding
    copy_to_device(a.get(), fill.data(), a.bytes());
    copy_to_device(b.get(), fill.data(), b.bytes());
    what = kv.id + " " + s.name + " " + to_string(precision_of<T>()) + " c = " + std::to_string(c);
  }
  ~Run() {
    if (exec) cudaGraphExecDestroy(exec);
    if (graph) cudaGraphDestroy(graph);
  }
  // Step n reads u^n from one grid and overwrites the other (the solver's order).
  void step(long long n) {
    T* cur = n % 2 == 0 ? a.get() : b.get();
    T* nxt = n % 2 == 0 ? b.get() : a.get();
    if (boundary) boundary->compute(cur, nxt, stream.get());
    launch(*v, StepArgs<T>{nxt, cur, L, st, lambda2}, opt, stream.get());
    if (boundary) boundary->scatter(nxt, stream.get());
  }
  // Both levels, bit for bit, over the interior shrunk by `margin` on every side; solid
  // nodes must be 0.
  void check(int margin) {
    std::vector<T> ha(L.total), hb(L.total);
    CUDA_CHECK(cudaMemcpyAsync(ha.data(), a.get(), a.bytes(), cudaMemcpyDeviceToHost, stream.get()));
    CUDA_CHECK(cudaMemcpyAsync(hb.data(), b.get(), b.bytes(), cudaMemcpyDeviceToHost, stream.get()));
    CUDA_CHECK(cudaStreamSynchronize(stream.get()));
    long long off = 0, solid_off = 0;
    std::string first;
    for (int k = margin; k < L.nz - margin; ++k)
      for (int j = margin; j < L.ny - margin; ++j)
        for (int i = margin; i < L.nx - margin; ++i) {
          const int64_t q = L.index(i, j, k);
          if (solids.solid(i, j, k, L.nx, L.ny)) {
            solid_off += (ha[q] != T(0)) + (hb[q] != T(0));
            continue;
          }
          for (T u : {ha[q], hb[q]})
            if (!same_bits(u, T(c)) && off++ == 0) first = at_text(i, j, k, (double)u);
        }
    EXPECT_EQ(off, 0) << what << ": " << off << " values changed, e.g. " << first << " (c = " << (double)T(c)
                      << ")";
    EXPECT_EQ(solid_off, 0) << what << ": solid nodes are not 0";
  }
};

// Runs side by side, one stream each. The first steps run one after the other, each
// synchronised, so that the constant tables of KernelA, compact_tiled and zsweep_box
// (one per precision, shared by runs with the same stencil) are uploaded before any
// graph is captured: the graphs then hold kernel launches only. So the runs of one
// call must not need two different tables of one kernel.
template <class T>
void run_graphs(std::vector<std::unique_ptr<Run<T>>>& runs) {
  for (auto& r : runs) {
    r->step(0);
    CUDA_CHECK(cudaStreamSynchronize(r->stream.get()));
  }
  for (auto& r : runs) {
    CUDA_CHECK(cudaStreamBeginCapture(r->stream.get(), cudaStreamCaptureModeRelaxed));
    for (long long n = 1; n <= kGraphSteps; ++n) r->step(n);
    CUDA_CHECK(cudaStreamEndCapture(r->stream.get(), &r->graph));
    CUDA_CHECK(cudaGraphInstantiate(&r->exec, r->graph, 0));
  }
  for (int rep = 0; rep < kReplays; ++rep)
    for (auto& r : runs)
      if (rep < r->replays) CUDA_CHECK(cudaGraphLaunch(r->exec, r->stream.get()));
  for (auto& r : runs) r->check(0);
  CUDA_CHECK(cudaDeviceSynchronize());
}

// Every kernel x constant of one stencil and precision.
template <class T>
int run_interior(const std::string& name) {
  const Stencil st = make_stencil(name);
  std::vector<std::unique_ptr<Run<T>>> runs;
  for (const auto& v : KernelRegistry::instance().all()) {
    if (!v.has_precision(precision_of<T>()) || !v.supports(st) || reads_zero_halo(v)) continue;
    for (double c : kConstants) {
      runs.push_back(std::make_unique<Run<T>>(v, st, c, kNx, kNy, kNz));
      runs.back()->replays = replays_for(v, st);
    }
  }
  run_graphs(runs);
  return (int)runs.size();
}

// Kernels with a zero halo: kZeroHaloSteps plain launches on a grid with a margin of
// kZeroHaloSteps x radius points around a 13 x 11 x 9 core, which the zeros cannot reach
// (u^{n-1} has had one step less).
template <class T>
int run_zero_halo(const std::string& name) {
  const Stencil st = make_stencil(name);
  const int margin = kZeroHaloSteps * st.radius;
  int cases = 0;
  for (const auto& v : KernelRegistry::instance().all()) {
    if (!v.has_precision(precision_of<T>()) || !v.supports(st) || !reads_zero_halo(v)) continue;
    for (double c : kConstants) {
      Run<T> r(v, st, c, kNx + 2 * margin, kNy + 2 * margin, kNz + 2 * margin);
      for (long long n = 0; n < kZeroHaloSteps; ++n) r.step(n);
      r.check(margin);
      ++cases;
    }
  }
  return cases;
}

// Every 7-point kernel x wall type x constant, with the obstacle, in graphs.
template <class T>
int run_walls_in_graphs() {
  const Stencil st = make_stencil("7pt");
  std::vector<std::unique_ptr<Run<T>>> runs;
  for (const KernelVariant* v : KernelRegistry::instance().supporting(st, precision_of<T>()))
    for (const auto& wc : wall_cases())
      for (double c : kConstants) {
        auto r = std::make_unique<Run<T>>(*v, st, c, kNx, kNy, kNz);
        r->solids = small_obstacle();
        const BoundaryPlan plan = make_boundary_plan(r->L, all_walls(wc.wall), r->solids, std::sqrt(r->lambda2));
        EXPECT_FALSE(plan.empty());
        r->boundary = std::make_unique<DeviceBoundary<T>>(plan, r->L);
        r->what += std::string(", walls ") + wc.name + " + obstacle";
        runs.push_back(std::move(r));
      }
  run_graphs(runs);
  return (int)runs.size();
}

TEST(ZeroMode, EveryKernelKeepsAConstantFieldBitForBit) {
  WS_REQUIRE_GPU();
  int cases = 0;
  for (const auto& name : stencil_names()) {
    cases += run_interior<float>(name);
    cases += run_interior<double>(name);
  }
  std::printf("[ ZeroMode ] %d interior cases (kernel x stencil x precision x constant), %d steps each (%d dense)\n",
              cases, 1 + kGraphSteps * kReplays, 1 + kGraphSteps * kDenseReplays);
  EXPECT_GT(cases, 0);
}

TEST(ZeroMode, ZeroHaloKernelsKeepAConstantAwayFromTheHalo) {
  WS_REQUIRE_GPU();
  int cases = 0;
  for (const auto& name : stencil_names()) {
    cases += run_zero_halo<float>(name);
    cases += run_zero_halo<double>(name);
  }
  std::printf("[ ZeroMode ] %d zero-halo cases, %d steps each\n", cases, kZeroHaloSteps);
  EXPECT_GT(cases, 0);
}

TEST(ZeroMode, EverySevenPointKernelWithWallsAndObstacle) {
  WS_REQUIRE_GPU();
  const int cases = run_walls_in_graphs<float>() + run_walls_in_graphs<double>();
  std::printf("[ ZeroMode ] %d wall cases in graphs (kernel x wall type x precision x constant), %d steps each\n",
              cases, 1 + kGraphSteps * kReplays);
  EXPECT_GT(cases, 0);
}

// advance() through the solver with one wall condition on all six sides and the obstacle.
void solver_case(Precision p, const WallCase& wc, double c) {
  const Stencil st = make_stencil("7pt");
  const std::string kernel = default_kernel_for(st, p);
  SCOPED_TRACE(kernel + " " + to_string(p) + " walls " + wc.name + " + obstacle, c = " + std::to_string(c));
  const double courant = kFractionOfLimit * st.courant_max;
  auto solver = make_cuda_solver(p, st, kNx, kNy, kNz, courant, 1.0 / 16000.0, kernel);
  const SolidNodes solids = small_obstacle();
  const BoundaryPlan plan = make_boundary_plan(solver->layout(), all_walls(wc.wall), solids, courant);
  ASSERT_FALSE(plan.empty());
  solver->set_boundary(plan);
  const FieldLayout& L = solver->layout();
  // The constant as the solver stores it (read_state converts back to double exactly).
  const double cs = p == Precision::Float ? (double)(float)c : c;
  const std::vector<double> fill(L.total, cs);
  solver->write_state(fill, fill, 0);
  solver->advance(kSolverSteps);
  std::vector<double> u, up;
  solver->read_state(u, up);
  long long off = 0, solid_off = 0;
  std::string first;
  for (int k = 0; k < kNz; ++k)
    for (int j = 0; j < kNy; ++j)
      for (int i = 0; i < kNx; ++i) {
        const int64_t q = L.index(i, j, k);
        if (solids.solid(i, j, k, kNx, kNy)) {
          solid_off += (u[q] != 0.0) + (up[q] != 0.0);
          continue;
        }
        for (double v : {u[q], up[q]})
          if (!same_bits(v, cs) && off++ == 0) first = at_text(i, j, k, v);
      }
  EXPECT_EQ(off, 0) << off << " air values changed, e.g. " << first << " (c = " << cs << ")";
  EXPECT_EQ(solid_off, 0) << "solid nodes are not 0";
}

TEST(ZeroMode, DefaultKernelThroughTheSolverWithWallsAndObstacle) {
  WS_REQUIRE_GPU();
  int cases = 0;
  for (Precision p : {Precision::Float, Precision::Double})
    for (const auto& wc : wall_cases())
      for (double c : kConstants) {
        solver_case(p, wc, c);
        ++cases;
      }
  std::printf("[ ZeroMode ] %d solver cases with walls, %d steps each\n", cases, kSolverSteps);
}

}  // namespace
}  // namespace ws
