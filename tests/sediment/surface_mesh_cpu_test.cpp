// The height-surface vertex writer (CPU version) and the index buffer.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "sediment/sediment_layout.hpp"
#include "sediment/surface_mesh.hpp"

namespace ws {
namespace {

struct HostField {
  SedimentLayout L;
  std::vector<double> h, s;
  SedimentFieldView view(const std::vector<double>& f, double dx, double dy) const {
    return {f.data(), Precision::Double, L.nx, L.ny, L.pitch, L.index(0, 0), false, dx, dy};
  }
};

// h = a + b x + c y (x, y at cell centres), s = i / nx.
HostField plane(int nx, int ny, double dx, double dy, double a, double b, double c) {
  HostField f;
  f.L = make_sediment_layout(nx, ny, 8);
  f.h.assign(f.L.total, -1e9);  // ghosts hold nonsense: the mesh must not read them
  f.s.assign(f.L.total, -1e9);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      f.h[f.L.index(i, j)] = a + b * (i + 0.5) * dx + c * (j + 0.5) * dy;
      f.s[f.L.index(i, j)] = double(i) / nx;
    }
  return f;
}

TEST(SurfaceMesh, DimsAndStride) {
  const SurfaceMeshDims d = surface_mesh_dims(10, 7, 1);
  EXPECT_EQ(d.mx, 10);
  EXPECT_EQ(d.my, 7);
  EXPECT_EQ(d.floats, 70u * kSurfaceFloatsPerVertex);
  EXPECT_EQ(d.indices, 6u * 9 * 6);
  const SurfaceMeshDims e = surface_mesh_dims(4096, 4096, 4);
  EXPECT_EQ(e.mx, 1024);
  EXPECT_THROW(surface_mesh_dims(10, 7, 0), std::invalid_argument);
  EXPECT_THROW(surface_mesh_dims(10, 7, 9), std::invalid_argument);
}

TEST(SurfaceMesh, PlaneGivesExactPositionsNormalsAndSand) {
  const double dx = 20, dy = 30, b = 0.05, c = -0.02, exag = 10;
  const HostField f = plane(13, 9, dx, dy, 5.0, b, c);
  for (int stride : {1, 3}) {
    SurfaceMeshSpec spec;
    spec.stride = stride;
    spec.vertical_exaggeration = (float)exag;
    const SurfaceMeshDims d = surface_mesh_dims(13, 9, stride);
    std::vector<float> v(d.floats, NAN);
    write_surface_vertices_host(f.view(f.h, dx, dy), f.view(f.s, dx, dy), spec, v.data());
    // Normal of z = exag (a + b x + c y): (-exag b, -exag c, 1) / norm, the same at the edges (one-sided differences).
    const double n = std::sqrt(exag * b * exag * b + exag * c * exag * c + 1);
    for (int vb = 0; vb < d.my; ++vb)
      for (int va = 0; va < d.mx; ++va) {
        const float* p = &v[((size_t)vb * d.mx + va) * kSurfaceFloatsPerVertex];
        const int i = va * stride, j = vb * stride;
        EXPECT_FLOAT_EQ(p[0], (float)((i + 0.5) * dx));
        EXPECT_FLOAT_EQ(p[1], (float)((j + 0.5) * dy));
        EXPECT_NEAR(p[2], exag * f.h[f.L.index(i, j)], 1e-4);
        EXPECT_NEAR(p[3], -exag * b / n, 1e-5);
        EXPECT_NEAR(p[4], -exag * c / n, 1e-5);
        EXPECT_NEAR(p[5], 1 / n, 1e-5);
        EXPECT_FLOAT_EQ(p[6], (float)(double(i) / 13));
      }
  }
}

TEST(SurfaceMesh, IndicesCoverTheGridCounterClockwise) {
  const int mx = 5, my = 4;
  const std::vector<uint32_t> idx = surface_mesh_indices(mx, my);
  ASSERT_EQ(idx.size(), 6u * (mx - 1) * (my - 1));
  std::vector<int> used(mx * my, 0);
  for (size_t t = 0; t < idx.size(); t += 3) {
    int x[3], y[3];
    for (int q = 0; q < 3; ++q) {
      ASSERT_LT(idx[t + q], (uint32_t)(mx * my));
      used[idx[t + q]] = 1;
      x[q] = idx[t + q] % mx;
      y[q] = idx[t + q] / mx;
    }
    const int cross = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
    EXPECT_GT(cross, 0) << "triangle " << t / 3 << " is not counter-clockwise seen from +z";
  }
  for (int u : used) EXPECT_EQ(u, 1);
}

}  // namespace
}  // namespace ws
