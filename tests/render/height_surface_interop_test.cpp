// GPU: the sediment height surface written by CUDA equals the host writer's
// vertices for the same state.
//  - Interop: write_surface_vertices_device straight into the GL vertex buffer
//    (registered once, mapped per frame); needs the EGL device to be the CUDA
//    GPU, else the surface falls back to staged and the test says so.
//  - Staged (interop disabled): the same kernel into device memory, then uploaded.
// Float and double models, on a 203 x 77 basin (not a multiple of any block),
// stride 1 and a stride > 1, the GL buffer poisoned with NaN before each update.
#include <gtest/gtest.h>

#include <cmath>

#include "common/gpu.hpp"
#include "egl_fixture.hpp"
#include "height_case.hpp"
#include "height_surface.hpp"

namespace ws {
namespace {

struct Case {
  Precision precision;
  bool interop;
};

class HeightInterop : public ::testing::TestWithParam<Case> {};

TEST_P(HeightInterop, DeviceVerticesEqualTheHostWriter) {
  WS_REQUIRE_GPU();
  WS_REQUIRE_EGL();
  const Case c = GetParam();
  SedimentModel m(testing::height_test_scene(c.precision), BackendChoice::Cuda);
  m.advance(25);
  const SedimentFieldView h = m.view_h();
  ASSERT_TRUE(h.on_device);
  for (size_t max_vertices : {size_t(1) << 20, size_t(3000)}) {
    render::HeightSurface surf(h.nx, h.ny, true, c.interop, max_vertices);
    if (c.interop && surf.mode() != render::SliceUploadMode::Interop)
      GTEST_SKIP() << "interop not available with this EGL device: " << surf.interop_note();
    if (!c.interop) EXPECT_EQ(surf.mode(), render::SliceUploadMode::Staged);
    const std::vector<float> nan(surf.dims().floats, std::nanf(""));
    glBindBuffer(GL_ARRAY_BUFFER, surf.vertex_buffer());
    glBufferSubData(GL_ARRAY_BUFFER, 0, nan.size() * sizeof(float), nan.data());
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    surf.update(m.view_h(), m.view_s(), 41.0f, m.stream());
    m.synchronize();
    glFinish();
    const auto got = surf.read_back();
    const auto want = testing::reference_vertices(m, {surf.stride(), 41.0f});
    ASSERT_EQ(got.size(), want.size());
    size_t bad = 0, first_bad = 0;
    for (size_t q = 0; q < got.size(); ++q)
      if (!(std::fabs(got[q] - want[q]) <= 1e-4f * (1.0f + std::fabs(want[q])))) {
        if (bad++ == 0) first_bad = q;
      }
    EXPECT_EQ(bad, 0u) << "first at float " << first_bad << " (vertex " << first_bad / kSurfaceFloatsPerVertex
                       << "): got " << got[first_bad] << ", want " << want[first_bad] << "; mode "
                       << render::to_string(surf.mode()) << ", stride " << surf.stride();
    if (max_vertices == 3000) EXPECT_GT(surf.stride(), 1);
  }
}

INSTANTIATE_TEST_SUITE_P(All, HeightInterop,
                         ::testing::Values(Case{Precision::Float, true}, Case{Precision::Double, true},
                                           Case{Precision::Float, false}, Case{Precision::Double, false}),
                         [](const auto& i) {
                           return std::string(to_string(i.param.precision)) + (i.param.interop ? "_interop" : "_staged");
                         });

}  // namespace
}  // namespace ws
