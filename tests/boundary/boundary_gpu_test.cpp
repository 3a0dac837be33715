// Boundary nodes on the GPU: every 7-point kernel variant with absorbing walls and
// an absorbing obstacle against the CPU reference.
#include <gtest/gtest.h>

#include "boundary_fixtures.hpp"
#include "common/gpu.hpp"
#include "common/random_field.hpp"
#include "cuda/cuda_solver.hpp"

namespace ws {
namespace {

template <Precision P>
void compare_all(double tol) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  const int nx = 37, ny = 29, nz = 23;
  BoxWalls w = testing::walls_all(WallCondition::with_absorption(0.4));
  w[2] = WallCondition::rigid();
  w[5] = WallCondition::fixed();
  const SolidNodes solids = testing::block_solid(nx, ny, nz, 10, 20, 5, 12, 8, 19, 0.7);
  for (const KernelVariant* v : KernelRegistry::instance().supporting(st, P)) {
    auto cpu = make_cpu_solver(P, st, nx, ny, nz, st.courant_max, 1.0 / 8000);
    auto gpu = make_cuda_solver(P, st, nx, ny, nz, st.courant_max, 1.0 / 8000, v->id);
    const BoundaryPlan plan = make_boundary_plan(cpu->layout(), w, solids, st.courant_max);
    cpu->set_boundary(plan);
    gpu->set_boundary(plan);
    const auto& L = cpu->layout();
    auto a = testing::random_field(L, 31), b = testing::random_field(L, 32);
    for (int64_t q : plan.solid) a[q] = b[q] = 0;
    cpu->write_state(a, b, 0);
    gpu->write_state(a, b, 0);
    const int steps = (int)::ws::testing::long_run_steps(300);
    cpu->advance(steps);
    gpu->advance(steps);
    std::vector<double> x, xp, y, yp;
    cpu->read_state(x, xp);
    gpu->read_state(y, yp);
    const auto [d, m] = testing::max_diff(y, x, L);
    EXPECT_LE(d, tol * m) << v->id;
    for (int64_t q : plan.solid) EXPECT_EQ(y[q], 0.0) << v->id << ": a solid node moved";
  }
}

TEST(BoundaryGpu, EveryKernelMatchesCpuDouble) { compare_all<Precision::Double>(1e-12); }
TEST(BoundaryGpu, EveryKernelMatchesCpuFloat) { compare_all<Precision::Float>(1e-5); }

}  // namespace
}  // namespace ws
