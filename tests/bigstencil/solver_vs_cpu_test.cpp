// Each kernel inside the CUDA solver against the CPU reference solver: random
// u^n and u^{n-1} on the interior, zero halo, NaN row padding, 200 steps at 0.9
// of the stencil's stability limit; then u^n and u^{n-1} compared on the
// interior, the halo checked to be still exactly zero and the padding still NaN.
// The grid (53 x 71 x 37) is not a multiple of any block and is cut into several
// blocks, pencils and z chunks on every axis.
// double runs are compared with the CPU double run (1e-12 relative); float runs
// with the CPU double run too, within a tolerance set by how far the CPU float
// run drifts from it (see tolerance.hpp for why a fixed 1e-5 is not enough).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "bigstencil/cases.hpp"
#include "bigstencil/tolerance.hpp"
#include "common/gpu.hpp"
#include "cpu/cpu_solver.hpp"
#include "cuda/cuda_solver.hpp"

namespace ws::testing {
namespace {

constexpr int kNx = 53, kNy = 71, kNz = 37;
// 200 steps (fewer under compute-sanitizer: long_run_steps).
const int kSteps = (int)long_run_steps(200);
constexpr double kDt = 1e-5;

struct State {
  std::vector<double> cur, prev;
  FieldLayout layout;
};

// A value in [-1, 1) that depends only on (i, j, k, seed) and is exact in float, so the
// float and the double runs (whose layouts differ) start from the same state.
double point_value(int i, int j, int k, uint64_t seed) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ULL + (uint64_t)(i + 1) * 73856093ULL + (uint64_t)(j + 1) * 19349663ULL +
               (uint64_t)(k + 1) * 83492791ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  return (double)(float)((double)(z >> 40) / (double)(1ULL << 24) * 2.0 - 1.0);
}

// Random interior, zero halo, NaN in the row padding outside interior + halo.
std::vector<double> poisoned_field(const FieldLayout& L, uint64_t seed) {
  std::vector<double> u(L.total, 0.0);
  for (int64_t q = 0; q < L.total; ++q) {
    const int64_t i = q % L.pitch - L.x0;
    if (i < -L.halo || i >= L.nx + L.halo) u[q] = std::nan("");
  }
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) u[L.index(i, j, k)] = point_value(i, j, k, seed);
  return u;
}

State run_solver(WaveSolver& s) {
  const FieldLayout L = s.layout();
  s.write_state(poisoned_field(L, 11), poisoned_field(L, 12), 0);
  s.advance(kSteps);
  State r;
  r.layout = L;
  s.read_state(r.cur, r.prev);
  return r;
}

// max |a - b| over the interior (NaN counts as a failure) and max |b|; layouts may differ.
std::pair<double, double> interior_diff(const std::vector<double>& a, const FieldLayout& La,
                                        const std::vector<double>& b, const FieldLayout& Lb) {
  double md = 0, mb = 0;
  for (int k = 0; k < La.nz; ++k)
    for (int j = 0; j < La.ny; ++j)
      for (int i = 0; i < La.nx; ++i) {
        const double x = a[La.index(i, j, k)], y = b[Lb.index(i, j, k)];
        md = std::max(md, std::isnan(x) ? 1e300 : std::abs(x - y));
        mb = std::max(mb, std::abs(y));
      }
  return {md, mb};
}

// The CPU double run and the CPU float run's drift from it, once per stencil.
struct Reference {
  State exact;          // CPU, double
  double float_drift;   // max|cpu_float - cpu_double| / max|cpu_double| over both time levels
};

const Reference& reference(const std::string& stencil) {
  static std::map<std::string, Reference> cache;
  auto it = cache.find(stencil);
  if (it != cache.end()) return it->second;
  const Stencil st = test_stencil(stencil);
  const double courant = 0.9 * st.courant_max;
  Reference r;
  r.exact = run_solver(*make_cpu_solver(Precision::Double, st, kNx, kNy, kNz, courant, kDt));
  const State f = run_solver(*make_cpu_solver(Precision::Float, st, kNx, kNy, kNz, courant, kDt));
  const auto [d1, m1] = interior_diff(f.cur, f.layout, r.exact.cur, r.exact.layout);
  const auto [d2, m2] = interior_diff(f.prev, f.layout, r.exact.prev, r.exact.layout);
  r.float_drift = std::max(d1 / m1, d2 / m2);
  return cache.emplace(stencil, std::move(r)).first->second;
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
  auto gpu = make_cuda_solver(c.precision, st, kNx, kNy, kNz, 0.9 * st.courant_max, kDt, c.kernel);
  ASSERT_EQ(gpu->kernel().id, c.kernel);
  const State g = run_solver(*gpu);
  const Reference& r = reference(c.stencil);
  const double tol =
      c.precision == Precision::Double ? kDoubleRelTol : many_step_float_tolerance(r.float_drift);
  const struct {
    const char* name;
    const std::vector<double>& gpu;
    const std::vector<double>& ref;
  } levels[] = {{"u^n", g.cur, r.exact.cur}, {"u^{n-1}", g.prev, r.exact.prev}};
  for (const auto& lv : levels) {
    const auto [md, mb] = interior_diff(lv.gpu, g.layout, lv.ref, r.exact.layout);
    EXPECT_LE(md, tol * mb) << lv.name << ": max |cuda - cpu double| = " << md << ", max |cpu| = " << mb
                            << ", tolerance " << tol << " relative (CPU float drift " << r.float_drift << ") after "
                            << kSteps << " steps";
    check_boundary(lv.gpu, g.layout, lv.name);
  }
}

INSTANTIATE_TEST_SUITE_P(AllKernels, SolverVsCpu, ::testing::ValuesIn(kernel_cases()),
                         [](const ::testing::TestParamInfo<KernelCase>& i) { return case_name(i.param); });

}  // namespace
}  // namespace ws::testing
