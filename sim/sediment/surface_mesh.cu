#include "sediment/surface_mesh.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/cuda_check.hpp"
#include "core/hd.hpp"
#include "cuda/kernels/load.cuh"

namespace ws {

namespace {

struct MeshGeometry {
  int nx, ny, mx, my, stride;
  int64_t pitch, origin;
  float dx, dy, exaggeration;
};

// One vertex. The normal uses central differences of the exaggerated height
// between the neighbouring interior cells (one-sided at the basin's edge, never
// the ghost layer, whose heights encode boundary fluxes rather than terrain).
template <class T>
WS_HD void surface_vertex(const T* h, const T* s, const MeshGeometry& g, int a, int b, float* out) {
  const int i = a * g.stride, j = b * g.stride;
  auto at = [&](const T* f, int ii, int jj) { return (float)f[g.origin + (int64_t)jj * g.pitch + ii]; };
  const int il = i > 0 ? i - 1 : i, ir = i < g.nx - 1 ? i + 1 : i;
  const int jd = j > 0 ? j - 1 : j, ju = j < g.ny - 1 ? j + 1 : j;
  const float dzdx = g.exaggeration * (at(h, ir, j) - at(h, il, j)) / ((ir - il) * g.dx);
  const float dzdy = g.exaggeration * (at(h, i, ju) - at(h, i, jd)) / ((ju - jd) * g.dy);
  const float inv = 1.0f / sqrtf(dzdx * dzdx + dzdy * dzdy + 1.0f);
  float* v = out + ((size_t)b * g.mx + a) * kSurfaceFloatsPerVertex;
  v[0] = (i + 0.5f) * g.dx;
  v[1] = (j + 0.5f) * g.dy;
  v[2] = g.exaggeration * at(h, i, j);
  v[3] = -dzdx * inv;
  v[4] = -dzdy * inv;
  v[5] = inv;
  v[6] = at(s, i, j);
}

template <class T>
__global__ void surface_kernel(const T* h, const T* s, MeshGeometry g, float* out) {
  const int a = blockIdx.x * blockDim.x + threadIdx.x, b = blockIdx.y * blockDim.y + threadIdx.y;
  if (a < g.mx && b < g.my) surface_vertex(h, s, g, a, b, out);
}

MeshGeometry geometry(const SedimentFieldView& h, const SedimentFieldView& s, const SurfaceMeshSpec& spec) {
  if (h.nx != s.nx || h.ny != s.ny || h.pitch != s.pitch || h.origin != s.origin || h.precision != s.precision ||
      h.on_device != s.on_device)
    throw std::invalid_argument("surface mesh: the h and s views must share size, layout, precision and location");
  const SurfaceMeshDims d = surface_mesh_dims(h.nx, h.ny, spec.stride);
  return {h.nx, h.ny, d.mx, d.my, spec.stride, h.pitch, h.origin, (float)h.dx_m, (float)h.dy_m,
          spec.vertical_exaggeration};
}

}  // namespace

SurfaceMeshDims surface_mesh_dims(int nx, int ny, int stride) {
  if (stride < 1)
    throw std::invalid_argument("surface mesh stride = " + std::to_string(stride) + " is not allowed: >= 1");
  if (nx < 2 || ny < 2) throw std::invalid_argument("surface mesh needs at least 2 x 2 cells");
  SurfaceMeshDims d;
  d.mx = (nx - 1) / stride + 1;
  d.my = (ny - 1) / stride + 1;
  if (d.mx < 2 || d.my < 2)
    throw std::invalid_argument("surface mesh stride = " + std::to_string(stride) +
                                " leaves fewer than 2 x 2 vertices");
  d.vertices = (size_t)d.mx * d.my;
  d.floats = d.vertices * kSurfaceFloatsPerVertex;
  d.indices = (size_t)6 * (d.mx - 1) * (d.my - 1);
  return d;
}

void write_surface_vertices_device(const SedimentFieldView& h, const SedimentFieldView& s, const SurfaceMeshSpec& spec,
                                   float* d_vertices, cudaStream_t stream) {
  const MeshGeometry g = geometry(h, s, spec);
  if (!h.on_device) throw std::invalid_argument("write_surface_vertices_device: the views are on the host");
  const dim3 block(32, 8, 1), grid(ceil_div(g.mx, 32), ceil_div(g.my, 8), 1);
  if (h.precision == Precision::Float)
    surface_kernel<float><<<grid, block, 0, stream>>>((const float*)h.data, (const float*)s.data, g, d_vertices);
  else
    surface_kernel<double><<<grid, block, 0, stream>>>((const double*)h.data, (const double*)s.data, g, d_vertices);
  CUDA_CHECK_LAUNCH();
}

void write_surface_vertices_host(const SedimentFieldView& h, const SedimentFieldView& s, const SurfaceMeshSpec& spec,
                                 float* vertices) {
  const MeshGeometry g = geometry(h, s, spec);
  if (h.on_device) throw std::invalid_argument("write_surface_vertices_host: the views are on the device");
#pragma omp parallel for schedule(static)
  for (int b = 0; b < g.my; ++b)
    for (int a = 0; a < g.mx; ++a) {
      if (h.precision == Precision::Float)
        surface_vertex((const float*)h.data, (const float*)s.data, g, a, b, vertices);
      else
        surface_vertex((const double*)h.data, (const double*)s.data, g, a, b, vertices);
    }
}

std::vector<uint32_t> surface_mesh_indices(int mx, int my) {
  if (mx < 2 || my < 2) throw std::invalid_argument("surface mesh indices need at least 2 x 2 vertices");
  std::vector<uint32_t> idx;
  idx.reserve((size_t)6 * (mx - 1) * (my - 1));
  for (int b = 0; b + 1 < my; ++b)
    for (int a = 0; a + 1 < mx; ++a) {
      const uint32_t v00 = (uint32_t)(b * mx + a), v10 = v00 + 1, v01 = v00 + (uint32_t)mx, v11 = v01 + 1;
      idx.insert(idx.end(), {v00, v10, v11, v00, v11, v01});
    }
  return idx;
}

}  // namespace ws
