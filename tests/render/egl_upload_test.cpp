// The CPU backend's path through a real GL context (Mesa llvmpipe here):
// slices uploaded with glTexSubImage2D and read back from the textures equal
// the field, including after the planes move (no stale texels).
#include <gtest/gtest.h>

#include <cmath>

#include "common/random_field.hpp"
#include "cpu/cpu_solver.hpp"
#include "egl_fixture.hpp"
#include "slice_textures.hpp"

namespace ws {
namespace {

void expect_slices_equal_field(const render::SliceTextures& tex, const std::vector<double>& u, const FieldLayout& L) {
  const render::SlicePositions pos = tex.positions();
  for (int q = 0; q < render::kSliceCount; ++q) {
    const auto a = (render::SliceAxis)q;
    const auto got = tex.read_back(a);
    const auto t = render::tangent_axes(a);
    ASSERT_EQ((int)got.size(), tex.width(a) * tex.height(a));
    int bad = 0;
    for (int v = 0; v < tex.height(a); ++v)
      for (int uu = 0; uu < tex.width(a); ++uu) {
        int idx[3];
        idx[render::normal_axis(a)] = pos.index_for(a);
        idx[t[0]] = uu;
        idx[t[1]] = v;
        const float want = (float)u[L.index(idx[0], idx[1], idx[2])];
        const float have = got[(size_t)v * tex.width(a) + uu];
        if (have != want && bad++ < 5)
          ADD_FAILURE() << render::slice_name(a) << " texel (" << uu << "," << v << "): " << have << " != " << want;
      }
    EXPECT_EQ(bad, 0) << render::slice_name(a);
  }
}

TEST(EglUpload, ContextIsGl43Core) {
  WS_REQUIRE_EGL();
  std::string why;
  auto* egl = testing::shared_egl(why);
  std::cout << "GL_RENDERER: " << egl->renderer() << " | GL_VERSION: " << egl->version() << "\n";
  GLint major = 0, minor = 0, mask = 0;
  glGetIntegerv(GL_MAJOR_VERSION, &major);
  glGetIntegerv(GL_MINOR_VERSION, &minor);
  glGetIntegerv(GL_CONTEXT_PROFILE_MASK, &mask);
  EXPECT_GE(major * 10 + minor, 43);
  EXPECT_TRUE(mask & GL_CONTEXT_CORE_PROFILE_BIT);
}

TEST(EglUpload, HostFieldSlicesEqualField) {
  WS_REQUIRE_EGL();
  for (Precision p : {Precision::Float, Precision::Double}) {
    auto solver = make_cpu_solver(p, make_stencil("7pt"), 29, 19, 11, 0.5, 1e-4);
    const FieldLayout L = solver->layout();
    const auto u = testing::random_field(L, 11);
    solver->write_state(u, std::vector<double>(L.total, 0.0), 0);
    render::SliceTextures tex(solver->current_field());
    EXPECT_EQ(tex.mode(), render::SliceUploadMode::Upload);
    tex.update(solver->current_field(), {4, 7, 9}, nullptr);
    expect_slices_equal_field(tex, u, L);
    // Move every plane (one to each far edge): no texel of the old planes may survive.
    tex.update(solver->current_field(), {28, 0, 10}, nullptr);
    expect_slices_equal_field(tex, u, L);
    const int64_t q = L.index(28, 5, 3);
    EXPECT_EQ(tex.value_at(render::SliceAxis::YZ, 5, 3), (float)u[q]);
    // Out-of-range planes are clamped to the grid.
    tex.update(solver->current_field(), {-4, 99, 99}, nullptr);
    EXPECT_EQ(tex.positions().i, 0);
    EXPECT_EQ(tex.positions().j, 18);
    EXPECT_EQ(tex.positions().k, 10);
    expect_slices_equal_field(tex, u, L);
  }
}

TEST(EglUpload, RefusesAFieldOfAnotherSize) {
  WS_REQUIRE_EGL();
  auto a = make_cpu_solver(Precision::Float, make_stencil("7pt"), 9, 8, 7, 0.5, 1e-4);
  auto b = make_cpu_solver(Precision::Float, make_stencil("7pt"), 9, 8, 6, 0.5, 1e-4);
  render::SliceTextures tex(a->current_field());
  EXPECT_THROW(tex.update(b->current_field(), {1, 1, 1}, nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace ws
