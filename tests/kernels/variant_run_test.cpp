// Many steps of every 7-point variant x precision x cache mode through the
// CUDA solver (set_kernel), from random u^n and u^{n-1}, against the CPU
// reference: max |diff| <= 1e-12 (double) or 1e-5 (float) of max |u|.
// 500 steps on 37 x 29 x 23, fewer on the point-thick slabs and the larger grid;
// this family's variants also run with non-default blocks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "common/gpu.hpp"
#include "common/random_field.hpp"
#include "cpu/cpu_solver.hpp"
#include "cuda/cuda_solver.hpp"
#include "kernels/kernel_cases.hpp"

namespace ws {
namespace {

using testing::KernelCase;

constexpr double kCourant = 0.5;  // 2 - 6 lambda^2 = 0.5: the centre's share of the update is not ~0
constexpr double kDt = 1.0 / 44100;

struct Reference {
  FieldLayout layout;
  std::vector<double> u0, u1;      // initial u^n, u^{n-1}
  std::vector<double> cur, prev;   // after `steps`
};

// The CPU result for a precision, grid and step count, computed once.
const Reference& reference(Precision p, int nx, int ny, int nz, int steps) {
  static std::map<std::tuple<int, int, int, int, int>, Reference> cache;
  const auto key = std::make_tuple((int)p, nx, ny, nz, steps);
  auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  const Stencil st = make_stencil("7pt");
  auto cpu = make_cpu_solver(p, st, nx, ny, nz, kCourant, kDt);
  Reference r;
  r.layout = cpu->layout();
  r.u0 = testing::random_field(r.layout, 100 + nx + 3 * ny + 7 * nz);
  r.u1 = testing::random_field(r.layout, 200 + nx + 3 * ny + 7 * nz);
  cpu->write_state(r.u0, r.u1, 0);
  cpu->advance(steps);
  cpu->read_state(r.cur, r.prev);
  return cache.emplace(key, std::move(r)).first->second;
}

void compare_run(const KernelCase& c, const BlockShape& block, int nx, int ny, int nz, int steps) {
  SCOPED_TRACE(::testing::Message() << c.id << " " << to_string(c.precision) << (c.readonly_cache ? " ro" : " plain")
                                    << " block " << block.x << "x" << block.y << "x" << block.z << " grid " << nx
                                    << "x" << ny << "x" << nz << ", " << steps << " steps");
  const Stencil st = make_stencil("7pt");
  const Reference& ref = reference(c.precision, nx, ny, nz, steps);
  auto gpu = make_cuda_solver(c.precision, st, nx, ny, nz, kCourant, kDt, c.id);
  gpu->set_kernel(c.id, LaunchOptions{block, c.readonly_cache});
  ASSERT_EQ(gpu->layout().total, ref.layout.total);
  gpu->write_state(ref.u0, ref.u1, 0);
  gpu->advance(steps);
  std::vector<double> cur, prev;
  gpu->read_state(cur, prev);
  const double tol = c.precision == Precision::Double ? 1e-12 : 1e-5;
  const auto [d, m] = testing::max_diff(cur, ref.cur, ref.layout);
  EXPECT_LE(d, tol * m) << "u^n: max |diff| " << d << " vs max |u| " << m;
  const auto [dp, mp] = testing::max_diff(prev, ref.prev, ref.layout);
  EXPECT_LE(dp, tol * mp) << "u^{n-1}: max |diff| " << dp << " vs max |u| " << mp;
  // The fixed boundary stays zero (the halo is never written).
  const auto& L = ref.layout;
  double halo_max = 0.0;
  for (int k = -1; k <= L.nz; ++k)
    for (int j = -1; j <= L.ny; ++j)
      for (int i = -1; i <= L.nx; ++i) {
        if (i >= 0 && i < L.nx && j >= 0 && j < L.ny && k >= 0 && k < L.nz) continue;
        halo_max = std::max({halo_max, std::abs(cur[L.index(i, j, k)]), std::abs(prev[L.index(i, j, k)])});
      }
  EXPECT_EQ(halo_max, 0.0) << "the fixed boundary was written";
}

class VariantRun : public ::testing::TestWithParam<KernelCase> {};

TEST_P(VariantRun, MatchesCpuReferenceOnOddGrids) {
  WS_REQUIRE_GPU();
  const KernelCase& c = GetParam();
  const KernelVariant& v = KernelRegistry::instance().at(c.id);
  for (const auto& s : testing::test_sizes()) {
    if (!testing::grid_refusal(v, c.precision, s.nx, s.ny, s.nz).empty()) continue;
    compare_run(c, v.default_block, s.nx, s.ny, s.nz, s.steps);
    if (HasFailure()) return;
  }
}

TEST_P(VariantRun, MatchesCpuReferenceWithOtherBlocks) {
  WS_REQUIRE_GPU();
  const KernelCase& c = GetParam();
  const KernelVariant& v = KernelRegistry::instance().at(c.id);
  const auto blocks = testing::alternate_blocks(v);
  if (blocks.empty()) GTEST_SKIP() << c.id << " is run at its default block only (other family)";
  for (const auto& b : blocks) {
    compare_run(c, b, 37, 29, 23, 200);
    compare_run(c, b, 150, 67, 70, 20);
    if (HasFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(AllSevenPoint, VariantRun, ::testing::ValuesIn(testing::seven_point_cases()),
                         [](const ::testing::TestParamInfo<KernelCase>& i) { return testing::case_name(i.param); });

}  // namespace
}  // namespace ws
