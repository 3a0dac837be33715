#include "height_surface.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/cuda_check.hpp"
#include "shader_library.hpp"

namespace ws::render {

int surface_stride_for(int nx, int ny, size_t max_vertices) {
  // Grow the stride while the mesh is too large and the next one still leaves 2 x 2 vertices.
  int stride = 1;
  while ((size_t)((nx - 1) / stride + 1) * (size_t)((ny - 1) / stride + 1) > max_vertices &&
         (std::min(nx, ny) - 1) / (stride + 1) >= 1)
    ++stride;
  return stride;
}

float auto_exaggeration(double lx, double ly, double relief_m, double fraction) {
  const double e = fraction * std::max(lx, ly) / std::max(relief_m, 1e-3);
  return (float)std::clamp(e, 1.0, 1e7);
}

HeightSurface::HeightSurface(int nx, int ny, bool on_device, bool allow_interop, size_t max_vertices)
    : nx_(nx), ny_(ny), stride_(surface_stride_for(nx, ny, max_vertices)), dims_(surface_mesh_dims(nx, ny, stride_)) {
  glBindVertexArray(vao_.id());
  glBindBuffer(GL_ARRAY_BUFFER, vbo_.id());
  glBufferData(GL_ARRAY_BUFFER, dims_.floats * sizeof(float), nullptr, GL_DYNAMIC_DRAW);
  const GLsizei stride_bytes = kSurfaceFloatsPerVertex * sizeof(float);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride_bytes, (void*)(kSurfacePositionOffset * sizeof(float)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride_bytes, (void*)(kSurfaceNormalOffset * sizeof(float)));
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 1, GL_FLOAT, GL_FALSE, stride_bytes, (void*)(kSurfaceSandOffset * sizeof(float)));
  // The index buffer is part of the vertex array's state; it never changes for one grid.
  const std::vector<uint32_t> idx = surface_mesh_indices(dims_.mx, dims_.my);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ibo_.id());
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, idx.size() * sizeof(uint32_t), idx.data(), GL_STATIC_DRAW);
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);

  if (!on_device) {
    mode_ = SliceUploadMode::Upload;
    interop_note_ = "the fields live on the host (CPU solver)";
  } else {
    interop_note_ = allow_interop ? interop_unavailable_reason() : "interop disabled by the caller";
    if (interop_note_.empty()) {
      try {
        vbo_cuda_ = std::make_unique<CudaGlBuffer>(vbo_.id(), cudaGraphicsRegisterFlagsWriteDiscard);
        mode_ = SliceUploadMode::Interop;
      } catch (const CudaError& e) {
        interop_note_ = std::string("registering the GL vertex buffer with CUDA failed: ") + e.what();
      }
    }
    if (mode_ != SliceUploadMode::Interop) {
      mode_ = SliceUploadMode::Staged;
      CUDA_CHECK(cudaMalloc(&staging_dev_, dims_.floats * sizeof(float)));
    }
  }
  if (mode_ != SliceUploadMode::Interop) host_.resize(dims_.floats);
  gl::check_gl("creating the height surface buffers");
}

HeightSurface::~HeightSurface() {
  vbo_cuda_.reset();  // unregister before GL deletes the buffer
  if (staging_dev_) cudaFree(staging_dev_);
}

void HeightSurface::update(const SedimentFieldView& h, const SedimentFieldView& s, float exaggeration,
                           cudaStream_t stream) {
  if (h.nx != nx_ || h.ny != ny_)
    throw std::invalid_argument("HeightSurface::update: the basin is " + std::to_string(h.nx) + "x" +
                                std::to_string(h.ny) + ", the mesh was made for " + std::to_string(nx_) + "x" +
                                std::to_string(ny_));
  if (h.on_device != (mode_ != SliceUploadMode::Upload))
    throw std::invalid_argument("HeightSurface::update: the fields moved between host and device; recreate");
  exaggeration_ = exaggeration;
  const SurfaceMeshSpec spec{stride_, exaggeration};
  if (mode_ == SliceUploadMode::Interop) {
    // CUDA writes the GL buffer in place; unmapping at scope exit orders the
    // writes before GL's draw on the same device, with no host round trip.
    ScopedMap map(vbo_cuda_->resource(), stream);
    size_t bytes = 0;
    float* d = static_cast<float*>(map.pointer(&bytes));
    if (bytes < dims_.floats * sizeof(float)) throw std::runtime_error("HeightSurface: mapped buffer too small");
    write_surface_vertices_device(h, s, spec, d, stream);
    return;
  }
  if (mode_ == SliceUploadMode::Staged) {
    write_surface_vertices_device(h, s, spec, staging_dev_, stream);
    CUDA_CHECK(cudaMemcpyAsync(host_.data(), staging_dev_, dims_.floats * sizeof(float), cudaMemcpyDeviceToHost,
                               stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
  } else {
    write_surface_vertices_host(h, s, spec, host_.data());
  }
  glBindBuffer(GL_ARRAY_BUFFER, vbo_.id());
  glBufferSubData(GL_ARRAY_BUFFER, 0, dims_.floats * sizeof(float), host_.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

std::vector<float> HeightSurface::read_back() const {
  std::vector<float> out(dims_.floats);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_.id());
  glGetBufferSubData(GL_ARRAY_BUFFER, 0, out.size() * sizeof(float), out.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  return out;
}

HeightFrame make_height_frame(double lx, double ly, double h_min_m, double h_max_m, float exaggeration) {
  HeightFrame f;
  const double relief = std::max(h_max_m - h_min_m, 0.0) * exaggeration;
  // A flat basin still gets a box of some height, so the camera keeps a sensible distance.
  f.extent_m = glm::vec3((float)lx, (float)ly, (float)std::max(relief, 0.02 * std::max(lx, ly)));
  f.z_offset_m = (float)(-h_min_m * exaggeration);
  return f;
}

HeightRenderer::HeightRenderer()
    : surface_prog_(build_program("heightmap.vert", "heightmap.frag", false)),
      line_prog_(build_program("line.vert", "line.frag", false)) {}

void HeightRenderer::draw(RenderTarget& target, const OrbitCamera& camera, const HeightSurface& surface,
                          const HeightFrame& frame, const HeightStyle& style) {
  begin_3d_pass(target, style.background);
  const glm::mat4 mvp = camera.projection((float)target.width() / target.height()) * camera.view();
  surface_prog_.use();
  surface_prog_.set("u_mvp", mvp);
  surface_prog_.set("u_z_offset_m", frame.z_offset_m);
  surface_prog_.set("u_light_dir", style.light_dir);
  glEnable(GL_POLYGON_OFFSET_FILL);  // the section line wins the depth test on the surface
  glPolygonOffset(1.0f, 1.0f);
  glBindVertexArray(surface.vertex_array());
  glDrawElements(GL_TRIANGLES, (GLsizei)surface.dims().indices, GL_UNSIGNED_INT, nullptr);
  glDisable(GL_POLYGON_OFFSET_FILL);

  std::vector<glm::vec3> lines;
  if (style.box) {
    const glm::vec3 e = frame.extent_m;
    const glm::vec3 c[8] = {{0, 0, 0}, {e.x, 0, 0}, {e.x, e.y, 0}, {0, e.y, 0},
                            {0, 0, e.z}, {e.x, 0, e.z}, {e.x, e.y, e.z}, {0, e.y, e.z}};
    const int edges[12][2] = {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 6},
                              {6, 7}, {7, 4}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
    for (const auto& ed : edges) {
      lines.push_back(c[ed[0]]);
      lines.push_back(c[ed[1]]);
    }
  }
  line_prog_.use();
  line_prog_.set("u_mvp", mvp);
  glBindVertexArray(line_vao_.id());
  glBindBuffer(GL_ARRAY_BUFFER, line_vbo_.id());
  glEnableVertexAttribArray(0);
  auto draw_lines = [&](const std::vector<glm::vec3>& pts, const glm::vec4& colour, GLenum mode) {
    if (pts.empty()) return;
    line_prog_.set("u_colour", colour);
    glBufferData(GL_ARRAY_BUFFER, pts.size() * sizeof(glm::vec3), pts.data(), GL_STREAM_DRAW);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(glm::vec3), (void*)0);
    glDrawArrays(mode, 0, (GLsizei)pts.size());
  };
  draw_lines(lines, style.box_colour, GL_LINES);
  draw_lines(style.section_line, style.section_colour, GL_LINE_STRIP);
  glBindVertexArray(0);
  glUseProgram(0);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

}  // namespace ws::render
