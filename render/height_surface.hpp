#pragma once
// The sediment model's 3-D view: the basin height h(x, y) as a lit triangle
// mesh coloured by the sand fraction s (sim/sediment/surface_mesh.hpp gives
// the vertex layout and the kernels that fill it).
//
// HeightSurface owns the GL vertex and index buffers and fills the vertex
// buffer each frame the same three ways SliceTextures fills its textures:
//  - Interop (CUDA model, GL on the same GPU): the vertex buffer is registered
//    with CUDA once (CudaGlBuffer); each frame a ScopedMap maps it on the
//    model's stream and write_surface_vertices_device writes straight into it.
//  - Staged (CUDA model, GL elsewhere, e.g. llvmpipe): the same kernel writes
//    a device buffer that is copied to the host and uploaded.
//  - Upload (CPU model): write_surface_vertices_host, then glBufferSubData.
// HeightRenderer draws it into a RenderTarget with an OrbitCamera.
#include <memory>
#include <string>
#include <vector>

#include "cuda_gl_interop.hpp"
#include "gl_objects.hpp"
#include "gl_program.hpp"
#include "orbit_camera.hpp"
#include "render_target.hpp"
#include "sediment/surface_mesh.hpp"
#include "slice_textures.hpp"  // SliceUploadMode

namespace ws::render {

// The smallest stride that keeps the mesh at or below max_vertices.
int surface_stride_for(int nx, int ny, size_t max_vertices);

// Vertical exaggeration that shows a relief of `relief_m` as `fraction` of the
// basin's longer side (reliefs below 1 mm count as 1 mm).
float auto_exaggeration(double length_x_m, double length_y_m, double relief_m, double fraction = 0.15);

class HeightSurface {
 public:
  // A GL context must be current. on_device: the model's fields live on the
  // CUDA device; interop is tried when they do and allow_interop is set.
  HeightSurface(int nx, int ny, bool on_device, bool allow_interop = true, size_t max_vertices = 1u << 20);
  ~HeightSurface();
  HeightSurface(const HeightSurface&) = delete;
  HeightSurface& operator=(const HeightSurface&) = delete;

  // Rewrites every vertex from h and s (same nx, ny as at construction; the
  // precision may change). stream: the model's CUDA stream (ignored on the host).
  void update(const SedimentFieldView& h, const SedimentFieldView& s, float vertical_exaggeration,
              cudaStream_t stream);

  const SurfaceMeshDims& dims() const { return dims_; }
  int stride() const { return stride_; }
  SliceUploadMode mode() const { return mode_; }
  const std::string& interop_note() const { return interop_note_; }  // why not interop (empty when it is)
  GLuint vertex_array() const { return vao_.id(); }
  GLuint vertex_buffer() const { return vbo_.id(); }
  float exaggeration() const { return exaggeration_; }
  // The vertex buffer read back from GL (tests).
  std::vector<float> read_back() const;

 private:
  int nx_, ny_, stride_;
  SurfaceMeshDims dims_;
  gl::VertexArray vao_;
  gl::Buffer vbo_, ibo_;
  std::unique_ptr<CudaGlBuffer> vbo_cuda_;
  SliceUploadMode mode_ = SliceUploadMode::Upload;
  std::string interop_note_;
  float* staging_dev_ = nullptr;
  std::vector<float> host_;
  float exaggeration_ = 1.0f;
};

// Where the surface sits in the view: the box [0, extent] the camera frames,
// and the z shift that puts the lowest height at z = 0.
struct HeightFrame {
  glm::vec3 extent_m{1.0f};
  float z_offset_m = 0.0f;
};
HeightFrame make_height_frame(double length_x_m, double length_y_m, double h_min_m, double h_max_m,
                              float vertical_exaggeration);

struct HeightStyle {
  glm::vec4 background{0.11f, 0.12f, 0.14f, 1.0f};
  glm::vec4 box_colour{0.6f, 0.6f, 0.62f, 1.0f};
  glm::vec3 light_dir{-0.4f, -0.5f, 0.75f};
  bool box = true;
  // Optional cross-section line on the surface (world coordinates, already offset).
  std::vector<glm::vec3> section_line;
  glm::vec4 section_colour{0.95f, 0.2f, 0.2f, 1.0f};
};

class HeightRenderer {
 public:
  HeightRenderer();  // compiles the programs; a GL 4.3 context must be current
  void draw(RenderTarget& target, const OrbitCamera& camera, const HeightSurface& surface, const HeightFrame& frame,
            const HeightStyle& style = {});

 private:
  gl::Program surface_prog_, line_prog_;
  gl::VertexArray line_vao_;
  gl::Buffer line_vbo_;
};

}  // namespace ws::render
