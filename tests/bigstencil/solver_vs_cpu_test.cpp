// Each kernel inside the CUDA solver against the CPU reference solver, both in
// the same precision: random u^n and u^{n-1} (interior), zero halo, NaN row
// padding, 200 steps at 0.9 of the stencil's stability limit, then u^n and
// u^{n-1} compared on the interior, the halo checked to be still exactly zero
// and the padding still NaN. The grid (53 x 71 x 37) is not a multiple of any
// block and is cut into several blocks, pencils and z chunks on every axis.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

#include "bigstencil/cases.hpp"
#include "bigstencil/tolerance.hpp"
#include "common/gpu.hpp"
#include "common/random_field.hpp"
#include "cpu/cpu_solver.hpp"
#include "cuda/cuda_solver.hpp"

namespace ws::testing {
namespace {

constexpr int kNx = 53, kNy = 71, kNz = 37, kSteps = 200;
constexpr double kDt = 1e-5;

struct State {
  std::vector<double> cur, prev;
};

// Random interior, zero halo (random_field), NaN in the row padding outside interior + halo.
std::vector<double> poisoned_field(const FieldLayout& L, unsigned seed) {
  std::vector<double> u = random_field(L, seed);
  for (int64_t q = 0; q < L.total; ++q) {
    const int64_t i = q % L.pitch - L.x0;
    if (i < -L.halo || i >= L.nx + L.halo) u[q] = std::nan("");
  }
  return u;
}

State initial_state(const FieldLayout& L) { return {poisoned_field(L, 11), poisoned_field(L, 12)}; }

// The CPU reference after kSteps, computed once per (stencil, precision) and shared by the kernels.
const State& reference(const std::string& stencil, Precision p) {
  static std::map<std::pair<std::string, Precision>, State> cache;
  const auto key = std::make_pair(stencil, p);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  const Stencil st = test_stencil(stencil);
  auto cpu = make_cpu_solver(p, st, kNx, kNy, kNz, 0.9 * st.courant_max, kDt);
  State s0 = initial_state(cpu->layout());
  cpu->write_state(s0.cur, s0.prev, 0);
  cpu->advance(kSteps);
  State r;
  cpu->read_state(r.cur, r.prev);
  return cache.emplace(key, std::move(r)).first->second;
}

void check_boundary(const std::vector<double>& u, const FieldLayout& L, const char* what) {
  long long halo_nonzero = 0, padding_written = 0;
  for (int64_t q = 0; q < L.total; ++q) {
    const int64_t k = q / L.plane, j = (q % L.plane) / L.pitch, i = q % L.pitch - L.x0;
    const int h = L.halo;
    if (i < -h || i >= L.nx + h) {
      if (!std::isnan(u[q])) ++padding_written;
      continue;
    }
    const bool interior = i >= 0 && i < L.nx && j >= h && j < L.ny + h && k >= h && k < L.nz + h;
    if (!interior && u[q] != 0.0) ++halo_nonzero;
  }
  EXPECT_EQ(halo_nonzero, 0) << what << ": halo cells changed (the fixed boundary must never be written)";
  EXPECT_EQ(padding_written, 0) << what << ": row padding written";
}

class SolverVsCpu : public ::testing::TestWithParam<KernelCase> {};

TEST_P(SolverVsCpu, TwoHundredStepsMatchCpuReference) {
  WS_REQUIRE_GPU();
  const KernelCase& c = GetParam();
  const Stencil st = test_stencil(c.stencil);
  const double courant = 0.9 * st.courant_max;
  auto gpu = make_cuda_solver(c.precision, st, kNx, kNy, kNz, courant, kDt, c.kernel);
  ASSERT_EQ(gpu->kernel().id, c.kernel);
  const FieldLayout& L = gpu->layout();
  State s0 = initial_state(L);
  gpu->write_state(s0.cur, s0.prev, 0);
  gpu->advance(kSteps);
  State g;
  gpu->read_state(g.cur, g.prev);
  const State& r = reference(c.stencil, c.precision);
  ASSERT_EQ(r.cur.size(), g.cur.size()) << "CPU and CUDA layouts differ";

  const double tol = relative_tolerance(st, courant * courant, c.precision);
  for (const auto& [name, a, b] : {std::make_tuple("u^n", &g.cur, &r.cur), std::make_tuple("u^{n-1}", &g.prev, &r.prev)}) {
    const auto [md, mb] = max_diff(*a, *b, L);
    EXPECT_LE(md, tol * mb) << name << ": max |cuda - cpu| = " << md << ", max |cpu| = " << mb << ", tolerance "
                            << tol << " relative, after " << kSteps << " steps";
    check_boundary(*a, L, name);
  }
}

INSTANTIATE_TEST_SUITE_P(AllKernels, SolverVsCpu, ::testing::ValuesIn(kernel_cases()),
                         [](const ::testing::TestParamInfo<KernelCase>& i) { return case_name(i.param); });

}  // namespace
}  // namespace ws::testing
