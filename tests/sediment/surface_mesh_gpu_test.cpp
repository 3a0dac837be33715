// The surface-mesh kernel against its CPU version, and the cross-section of device views.
#include <gtest/gtest.h>

#include <cmath>

#include "common/gpu.hpp"
#include "core/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "sediment/cross_section.hpp"
#include "sediment/sediment_model.hpp"
#include "sediment/surface_mesh.hpp"
#include "sediment_test_scenes.hpp"

namespace ws {
namespace {

TEST(SurfaceMeshGpu, KernelMatchesCpuVersion) {
  WS_REQUIRE_GPU();
  for (Precision p : {Precision::Double, Precision::Float}) {
    SedimentScene sc = testing::river_scene(77, 51, true);
    sc.precision = p;
    SedimentModel gpu(sc, BackendChoice::Cuda);
    SedimentModel cpu(sc, BackendChoice::Cpu);
    gpu.advance(25);
    std::vector<double> h, s;
    gpu.solver().read_state(h, s);
    cpu.solver().write_state(h, s, gpu.step());  // the same state on the host, same precision
    for (int stride : {1, 4}) {
      SCOPED_TRACE(std::string(to_string(p)) + " stride " + std::to_string(stride));
      SurfaceMeshSpec spec;
      spec.stride = stride;
      spec.vertical_exaggeration = 25.f;
      const SurfaceMeshDims d = surface_mesh_dims(sc.nx, sc.ny, stride);
      DeviceBuffer<float> dv(d.floats + 7);
      const std::vector<float> poison(d.floats + 7, NAN);
      copy_to_device(dv.get(), poison.data(), dv.bytes());
      CUDA_CHECK(cudaDeviceSynchronize());  // the model's stream is non-blocking
      write_surface_vertices_device(gpu.view_h(), gpu.view_s(), spec, dv.get(), gpu.stream());
      gpu.synchronize();
      std::vector<float> got(d.floats + 7), want(d.floats, NAN);
      CUDA_CHECK(cudaMemcpy(got.data(), dv.get(), dv.bytes(), cudaMemcpyDeviceToHost));
      write_surface_vertices_host(cpu.view_h(), cpu.view_s(), spec, want.data());
      double scale = 0;
      for (float v : want) scale = std::max(scale, (double)std::fabs(v));
      for (size_t q = 0; q < d.floats; ++q)
        ASSERT_NEAR(got[q], want[q], 4e-7 * scale + 1e-6) << "float " << q << " of vertex " << q / 7;
      for (size_t q = d.floats; q < got.size(); ++q) EXPECT_TRUE(std::isnan(got[q])) << "wrote past the buffer";
    }
  }
}

TEST(SurfaceMeshGpu, CrossSectionOfDeviceViews) {
  WS_REQUIRE_GPU();
  const SedimentScene sc = testing::river_scene(41, 29, true);
  SedimentModel gpu(sc, BackendChoice::Cuda);
  gpu.advance(10);
  gpu.synchronize();
  std::vector<double> h, s;
  gpu.solver().read_state(h, s);
  const SedimentLayout D = make_sediment_layout(sc.nx, sc.ny, 8);
  const CrossSection c = extract_cross_section(gpu.view_h(), gpu.view_s(), SectionAxis::Column, 13, gpu.stream());
  ASSERT_EQ((int)c.h_m.size(), sc.ny);
  for (int j = 0; j < sc.ny; ++j) {
    EXPECT_EQ(c.h_m[j], h[D.index(13, j)]);
    EXPECT_EQ(c.s[j], s[D.index(13, j)]);
  }
}

}  // namespace
}  // namespace ws
