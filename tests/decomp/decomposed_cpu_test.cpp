// Slabs in one process on the CPU backend against the undecomposed CPU solver: the
// receivers and the final field agree bit for bit, for every case of decomp_cases.hpp
// and slab counts from 2 up to the most the grid allows (slabs one halo thick).
#include <gtest/gtest.h>

#include <array>

#include "cpu/cpu_solver.hpp"
#include "decomp/decomposed_solver.hpp"
#include "decomp/decomp_cases.hpp"
#include "decomp/model_decomp_test.hpp"
#include "decomp/slice_check.hpp"

namespace ws::test {
namespace {

SolverFactory cpu_factory() { return make_cpu_solver; }

SolverFactory slab_factory(int slabs) {
  return [slabs](Precision p, const Stencil& st, int nx, int ny, int nz, double courant, double dt) {
    DecompOptions o;
    o.slabs_per_process = slabs;
    return make_decomposed_solver(o, p, st, nx, ny, nz, courant, dt);
  };
}

class DecomposedCpu : public ::testing::TestWithParam<DecompCase> {};

TEST_P(DecomposedCpu, SlabsMatchOneGridBitForBit) {
  const DecompCase& c = GetParam();
  const CaseResult ref = run_case(c, cpu_factory());
  ASSERT_GT(peak_of(ref), 1e-6) << "the receivers must hear the sources";
  const int most = max_slabs(c.nz, halo_for(make_stencil(c.stencil)));
  for (int slabs : {2, 3, 5, most}) {
    SCOPED_TRACE("slabs " + std::to_string(slabs));
    const CaseResult got = run_case(c, slab_factory(slabs));
    EXPECT_EQ(got.step, ref.step);
    ASSERT_EQ(got.receivers.size(), ref.receivers.size());
    for (size_t r = 0; r < ref.receivers.size(); ++r) EXPECT_EQ(got.receivers[r], ref.receivers[r]) << "receiver " << r;
    EXPECT_TRUE(got.u_cur == ref.u_cur) << "u^n differs";
    EXPECT_TRUE(got.u_prev == ref.u_prev) << "u^{n-1} differs";
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, DecomposedCpu, ::testing::ValuesIn(decomp_cases()),
                         [](const auto& info) { return info.param.name; });

// A state written into the slabs (halos included) continues exactly as in one grid.
TEST(DecomposedCpu, WriteStateThenAdvanceMatches) {
  const DecompCase c = decomp_cases()[4];  // rigid/open/absorbing walls and obstacles
  const CaseResult mid = run_case(c, cpu_factory());
  const Stencil st = make_stencil(c.stencil);
  const double courant = 0.9 * st.courant_max;
  auto one = make_cpu_solver(c.precision, st, c.nx, c.ny, c.nz, courant, 1e-5);
  auto many = slab_factory(3)(c.precision, st, c.nx, c.ny, c.nz, courant, 1e-5);
  for (auto* s : {one.get(), many.get()}) {
    s->set_boundary(make_boundary_plan(s->layout(), c.walls, case_solids(c), courant));
    s->write_state(mid.u_cur, mid.u_prev, mid.step);
    s->advance(9);
  }
  std::vector<double> a, b, pa, pb;
  one->read_state(a, pa);
  many->read_state(b, pb);
  EXPECT_TRUE(a == b);
  EXPECT_EQ(many->step(), mid.step + 9);
  const FieldStats fa = one->field_stats(), fb = many->field_stats();
  EXPECT_EQ(fa.peak, fb.peak);
  EXPECT_NEAR(fa.mean, fb.mean, 1e-12 * (1.0 + fb.peak));
}

// The renderer's view: the whole grid gathered to the host in the field's precision.
TEST(DecomposedCpu, CurrentFieldIsTheWholeGrid) {
  const DecompCase c = decomp_cases()[5];  // float, obstacles
  const CaseResult ref = run_case(c, cpu_factory());
  const Stencil st = make_stencil(c.stencil);
  const double courant = 0.9 * st.courant_max;
  auto many = slab_factory(4)(c.precision, st, c.nx, c.ny, c.nz, courant, 1e-5);
  many->write_state(ref.u_cur, ref.u_prev, ref.step);
  const FieldView v = many->current_field();
  EXPECT_FALSE(v.on_device);
  EXPECT_EQ(v.precision, Precision::Float);
  ASSERT_EQ(v.layout.total, (int64_t)ref.u_cur.size());
  const float* f = static_cast<const float*>(v.data);
  size_t differ = 0;
  for (size_t q = 0; q < ref.u_cur.size(); ++q) differ += (double)f[q] != ref.u_cur[q];
  EXPECT_EQ(differ, 0u);
}

// The display's slices gather only their own points, across slab boundaries, in both
// precisions; after the state moves on, they follow.
TEST(DecomposedCpu, SliceFieldHoldsTheThreeSlices) {
  for (int which : {4, 5}) {  // double and float cases with walls and obstacles
    const DecompCase c = decomp_cases()[which];
    SCOPED_TRACE(c.name);
    const CaseResult ref = run_case(c, cpu_factory());
    const Stencil st = make_stencil(c.stencil);
    const double courant = 0.9 * st.courant_max;
    auto many = slab_factory(4)(c.precision, st, c.nx, c.ny, c.nz, courant, 1e-5);
    expect_slices_follow_the_state(*many, ref, c.nx, c.ny, c.nz);
  }
}

// The comparison can fail: slabs that skip the halo exchange answer differently.
TEST(DecomposedCpu, WithoutTheExchangeTheAnswerDiffers) {
  const DecompCase c = decomp_cases()[1];  // rigid walls
  const CaseResult ref = run_case(c, cpu_factory());
  const CaseResult got = run_case(c, [](Precision p, const Stencil& st, int nx, int ny, int nz, double courant,
                                        double dt) {
    DecompOptions o;
    o.slabs_per_process = 3;
    auto s = make_decomposed_solver(o, p, st, nx, ny, nz, courant, dt);
    decomp_probe(*s)->set_exchange(false);
    return s;
  });
  EXPECT_FALSE(got.receivers == ref.receivers);
  EXPECT_FALSE(got.u_cur == ref.u_cur);
}

TEST(DecomposedCpu, WaveModelOnSlabsMatchesOneGrid) {
  DecompOptions d;
  d.slabs_per_process = 3;
  expect_model_decomposition_matches(BackendChoice::Cpu, "", d, 160);
}

TEST(DecomposedCpu, RefusesMoreSlabsThanThePlanesAllow) {
  const Stencil st = make_stencil("leggy:3");
  DecompOptions o;
  o.slabs_per_process = 9;  // 24 planes / radius 3 = 8 at most
  try {
    make_decomposed_solver(o, Precision::Float, st, 8, 8, 24, 0.3, 1e-5);
    FAIL() << "9 slabs of 24 planes with radius 3 must be refused";
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("9 slabs"), std::string::npos) << m;
    EXPECT_NE(m.find("24 z planes"), std::string::npos) << m;
    EXPECT_NE(m.find("at most 8"), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace ws::test
