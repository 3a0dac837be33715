#pragma once
// The seam to the 3-D height view: the basin surface h(x, y) as an
// interleaved vertex array written straight into a float buffer (a mapped GL
// buffer on the device, or host memory for the CPU backend), and the index
// buffer of its triangles.
//
// Vertex layout (kSurfaceFloatsPerVertex floats, tightly packed):
//   [0..2] position in metres: x east, y north, z up = vertical_exaggeration * h
//   [3..5] unit normal of the exaggerated surface
//   [6]    s, the sand fraction in [0, 1] (the renderer maps it through a colormap)
// Vertex (a, b), a in [0, mx), b in [0, my), samples cell (a stride, b stride)
// at its centre ((i + 0.5) dx, (j + 0.5) dy) and lies at vertex index b mx + a.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sediment/sediment_view.hpp"

namespace ws {

constexpr int kSurfaceFloatsPerVertex = 7;
constexpr int kSurfacePositionOffset = 0, kSurfaceNormalOffset = 3, kSurfaceSandOffset = 6;  // in floats

struct SurfaceMeshSpec {
  int stride = 1;                    // sample every stride-th cell in x and y (>= 1): 4096^2 cells need ~4
  float vertical_exaggeration = 1.f; // z = exaggeration * h
};

struct SurfaceMeshDims {
  int mx = 0, my = 0;      // vertices per row and column
  size_t vertices = 0;     // mx * my
  size_t floats = 0;       // vertices * kSurfaceFloatsPerVertex (the vertex buffer's size)
  size_t indices = 0;      // 6 (mx - 1)(my - 1), GL_TRIANGLES
};

// std::invalid_argument for stride < 1 or a grid smaller than 2 x 2.
SurfaceMeshDims surface_mesh_dims(int nx, int ny, int stride);

// Device views (CUDA backend): one thread per vertex, on `stream` (the model's),
// into d_vertices (>= dims.floats floats, e.g. a mapped GL buffer).
void write_surface_vertices_device(const SedimentFieldView& h, const SedimentFieldView& s, const SurfaceMeshSpec& spec,
                                   float* d_vertices, cudaStream_t stream);
// Host views (CPU backend), the same numbers.
void write_surface_vertices_host(const SedimentFieldView& h, const SedimentFieldView& s, const SurfaceMeshSpec& spec,
                                 float* vertices);

// Two counter-clockwise triangles (seen from +z) per quad of the mx x my vertex grid.
std::vector<uint32_t> surface_mesh_indices(int mx, int my);

}  // namespace ws
