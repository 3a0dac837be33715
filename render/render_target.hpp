#pragma once
// An offscreen framebuffer: an RGBA8 colour texture (which ImGui can show and
// glBlitFramebuffer can copy to a window) plus a depth renderbuffer. Every
// view draws into one of these, so the window, the EGL path and PNG output
// share the same drawing code.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "gl_objects.hpp"

namespace ws::render {

class RenderTarget {
 public:
  RenderTarget(int width_px, int height_px);
  // Reallocates the attachments when the size changes (a no-op otherwise).
  void resize(int width_px, int height_px);
  void bind() const;  // as the draw framebuffer, with the viewport set
  int width() const { return w_; }
  int height() const { return h_; }
  GLuint colour_texture() const { return colour_.id(); }
  GLuint framebuffer() const { return fbo_.id(); }
  // RGBA8 pixels, top row first (as image files store them).
  std::vector<uint8_t> read_rgba() const;
  // Copies the colour into the bound window framebuffer's rectangle.
  void blit_to_default(int dst_x, int dst_y, int dst_w, int dst_h) const;

 private:
  void allocate();
  int w_ = 0, h_ = 0;
  gl::Framebuffer fbo_;
  gl::Texture colour_;
  gl::Renderbuffer depth_;
};

// Binds the target, clears it to `background` and sets the state every 3-D view starts
// from: depth test (LEQUAL, so lines drawn after a surface at the same depth win), no
// culling (slices and surfaces are seen from both sides), no blending.
void begin_3d_pass(RenderTarget& target, const glm::vec4& background);

// Reads the bound read framebuffer (e.g. a window's back buffer), top row first.
std::vector<uint8_t> read_framebuffer_rgba(GLuint framebuffer, int width_px, int height_px);

}  // namespace ws::render
