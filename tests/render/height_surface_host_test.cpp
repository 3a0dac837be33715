// The sediment height surface on the CPU path (llvmpipe through EGL): the GL
// vertex buffer holds exactly the host writer's vertices for the model's
// state, every vertex is written (the buffer is poisoned with NaN first), the
// stride keeps large basins near a million vertices, and the frame puts the
// lowest height at z = 0.
#include <gtest/gtest.h>

#include <cmath>

#include "egl_fixture.hpp"
#include "height_case.hpp"
#include "height_surface.hpp"
#include "render_target.hpp"

namespace ws {
namespace {

TEST(HeightSurface, StrideKeepsTheMeshNearAMillionVertices) {
  EXPECT_EQ(render::surface_stride_for(384, 256, 1u << 20), 1);
  EXPECT_EQ(render::surface_stride_for(4096, 4096, 1u << 20), 4);  // 1024^2 vertices
  EXPECT_EQ(render::surface_stride_for(4097, 4096, 1u << 20), 5);  // 1025 x 1024 would be one row too many
  const SurfaceMeshDims d = surface_mesh_dims(8192, 2048, render::surface_stride_for(8192, 2048, 1u << 20));
  EXPECT_LE(d.vertices, 1u << 20);
  EXPECT_GT(d.vertices, (1u << 20) / 2);
  EXPECT_EQ(render::surface_stride_for(2, 2, 1), 1);  // never below 2 x 2 vertices
}

TEST(HeightSurface, FrameShiftsTheLowestHeightToZero) {
  const render::HeightFrame f = render::make_height_frame(40e3, 20e3, -12.0, 3.0, 100.0f);
  EXPECT_FLOAT_EQ(f.z_offset_m, 1200.0f);
  EXPECT_FLOAT_EQ(f.extent_m.z, 1500.0f);
  EXPECT_FLOAT_EQ(f.extent_m.x, 40e3f);
  // Flat: the box keeps some height so the camera distance stays sensible.
  EXPECT_GT(render::make_height_frame(40e3, 20e3, 1.0, 1.0, 100.0f).extent_m.z, 0.0f);
  EXPECT_NEAR(render::auto_exaggeration(40e3, 20e3, 10.0), 0.15 * 40e3 / 10.0, 1e-3);
}

TEST(HeightSurface, HostUploadEqualsTheHostWriter) {
  WS_REQUIRE_EGL();
  for (Precision p : {Precision::Float, Precision::Double}) {
    SedimentModel m(testing::height_test_scene(p), BackendChoice::Cpu);
    m.advance(25);
    const SedimentFieldView h = m.view_h();
    ASSERT_FALSE(h.on_device);
    for (size_t max_vertices : {size_t(1) << 20, size_t(3000)}) {  // stride 1, then a stride > 1
      render::HeightSurface surf(h.nx, h.ny, false, true, max_vertices);
      EXPECT_EQ(surf.mode(), render::SliceUploadMode::Upload);
      // Poison: a vertex the update skips stays NaN and fails below.
      const std::vector<float> nan(surf.dims().floats, std::nanf(""));
      glBindBuffer(GL_ARRAY_BUFFER, surf.vertex_buffer());
      glBufferSubData(GL_ARRAY_BUFFER, 0, nan.size() * sizeof(float), nan.data());
      glBindBuffer(GL_ARRAY_BUFFER, 0);
      surf.update(m.view_h(), m.view_s(), 37.0f, 0);
      const auto got = surf.read_back();
      const auto want = testing::reference_vertices(m, {surf.stride(), 37.0f});
      ASSERT_EQ(got.size(), want.size());
      size_t bad = 0;
      for (size_t q = 0; q < got.size(); ++q)
        if (!(std::fabs(got[q] - want[q]) <= 1e-4f * (1.0f + std::fabs(want[q])))) ++bad;
      EXPECT_EQ(bad, 0u) << "precision " << to_string(p) << ", stride " << surf.stride();
      if (max_vertices == 3000) EXPECT_GT(surf.stride(), 1);
      // z is the exaggerated height, and s stays a fraction.
      for (size_t v = 0; v < surf.dims().vertices; ++v) {
        EXPECT_TRUE(std::isfinite(got[v * kSurfaceFloatsPerVertex + 2]));
        const float s = got[v * kSurfaceFloatsPerVertex + kSurfaceSandOffset];
        ASSERT_TRUE(s >= 0.0f && s <= 1.0f) << "vertex " << v << " s = " << s;
      }
    }
  }
}

TEST(HeightSurface, DrawsTheSurfaceIntoATarget) {
  WS_REQUIRE_EGL();
  SedimentModel m(testing::height_test_scene(Precision::Float), BackendChoice::Cpu);
  m.advance(10);
  const SedimentFieldView h = m.view_h();
  render::HeightSurface surf(h.nx, h.ny, false);
  const SedimentStats st = m.stats();
  const float ex = render::auto_exaggeration(m.scene().length_x_m(), m.scene().length_y_m(), st.h_max_m - st.h_min_m);
  surf.update(m.view_h(), m.view_s(), ex, 0);
  const render::HeightFrame frame =
      render::make_height_frame(m.scene().length_x_m(), m.scene().length_y_m(), st.h_min_m, st.h_max_m, ex);
  render::OrbitCamera cam;
  cam.reset(frame.extent_m);
  render::RenderTarget target(200, 150);
  render::HeightRenderer renderer;
  renderer.draw(target, cam, surf, frame);
  const auto rgba = target.read_rgba();
  // Pixels in the sand/mud colour map (the grey box lines and the background are not): the surface was drawn.
  long drawn = 0;
  for (size_t q = 0; q < rgba.size(); q += 4) {
    const int r = rgba[q], g = rgba[q + 1], b = rgba[q + 2];
    drawn += r > b + 12 && g > b && r >= g && r > 40;
  }
  EXPECT_GT(drawn, 200L * 150 / 25) << "the basin (20 x 7.7 km, framed whole) should cover about a tenth";
}

}  // namespace
}  // namespace ws
