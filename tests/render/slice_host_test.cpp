// The host slice gather against direct indexing, on a grid whose sizes share
// no factor with anything, for every orientation and both precisions.
#include <gtest/gtest.h>

#include <cmath>

#include "common/random_field.hpp"
#include "cpu/cpu_solver.hpp"
#include "slice_extract.hpp"
#include "stencil/stencil.hpp"

namespace ws {
namespace {

class SliceHost : public ::testing::TestWithParam<Precision> {};

TEST_P(SliceHost, GatherMatchesIndexing) {
  const Stencil st = make_stencil("7pt");
  auto solver = make_cpu_solver(GetParam(), st, 23, 17, 13, 0.5, 1e-4);
  const FieldLayout L = solver->layout();
  const auto u = testing::random_field(L, 7);
  solver->write_state(u, std::vector<double>(L.total, 0.0), 0);
  const render::SlicePositions pos{3, 16, 0};  // an edge plane included
  const auto set = render::make_slice_set(L, pos);
  std::vector<float> out(set.total, NAN);
  const float m = render::extract_slices_host(solver->current_field(), set, out.data());
  float want_max = 0;
  for (int q = 0; q < render::kSliceCount; ++q) {
    const auto a = (render::SliceAxis)q;
    const auto& p = set.planes[q];
    for (int v = 0; v < p.height; ++v)
      for (int uu = 0; uu < p.width; ++uu) {
        int idx[3];
        const auto t = render::tangent_axes(a);
        idx[render::normal_axis(a)] = pos.index_for(a);
        idx[t[0]] = uu;
        idx[t[1]] = v;
        const float want = (float)u[L.index(idx[0], idx[1], idx[2])];
        ASSERT_EQ(out[set.offset[q] + (int64_t)v * p.width + uu], want)
            << render::slice_name(a) << " texel " << uu << "," << v;
        want_max = std::max(want_max, std::fabs(want));
      }
  }
  EXPECT_EQ(m, want_max);
  EXPECT_EQ(set.planes[0].width, 23);
  EXPECT_EQ(set.planes[0].height, 17);
  EXPECT_EQ(set.planes[1].height, 13);
  EXPECT_EQ(set.planes[2].width, 17);
}

INSTANTIATE_TEST_SUITE_P(Precisions, SliceHost, ::testing::Values(Precision::Float, Precision::Double),
                         [](const auto& info) { return std::string(to_string(info.param)); });

}  // namespace
}  // namespace ws
