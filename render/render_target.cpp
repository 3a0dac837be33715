#include "render_target.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace ws::render {

RenderTarget::RenderTarget(int w, int h) : w_(std::max(w, 1)), h_(std::max(h, 1)) { allocate(); }

void RenderTarget::resize(int w, int h) {
  w = std::max(w, 1);
  h = std::max(h, 1);
  if (w == w_ && h == h_) return;
  w_ = w;
  h_ = h;
  // Immutable texture storage cannot change size: make fresh objects.
  fbo_ = gl::Framebuffer();
  colour_ = gl::Texture();
  depth_ = gl::Renderbuffer();
  allocate();
}

void RenderTarget::allocate() {
  glBindTexture(GL_TEXTURE_2D, colour_.id());
  glTexStorage2D(GL_TEXTURE_2D, 1, GL_RGBA8, w_, h_);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glBindTexture(GL_TEXTURE_2D, 0);
  glBindRenderbuffer(GL_RENDERBUFFER, depth_.id());
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, w_, h_);
  glBindRenderbuffer(GL_RENDERBUFFER, 0);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_.id());
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, colour_.id(), 0);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_.id());
  const GLenum status = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (status != GL_FRAMEBUFFER_COMPLETE)
    throw std::runtime_error("framebuffer " + std::to_string(w_) + "x" + std::to_string(h_) +
                             " is incomplete (status 0x" + std::to_string(status) + ")");
}

void RenderTarget::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_.id());
  glViewport(0, 0, w_, h_);
}

std::vector<uint8_t> read_framebuffer_rgba(GLuint framebuffer, int w, int h) {
  std::vector<uint8_t> px((size_t)w * h * 4), flipped((size_t)w * h * 4);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, framebuffer);
  if (framebuffer == 0) glReadBuffer(GL_BACK);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, px.data());
  glBindFramebuffer(GL_READ_FRAMEBUFFER, 0);
  // GL's first row is the bottom one.
  const size_t row = (size_t)w * 4;
  for (int y = 0; y < h; ++y) std::memcpy(&flipped[(size_t)y * row], &px[(size_t)(h - 1 - y) * row], row);
  return flipped;
}

std::vector<uint8_t> RenderTarget::read_rgba() const { return read_framebuffer_rgba(fbo_.id(), w_, h_); }

void RenderTarget::blit_to_default(int x, int y, int w, int h) const {
  glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo_.id());
  glBindFramebuffer(GL_DRAW_FRAMEBUFFER, 0);
  glBlitFramebuffer(0, 0, w_, h_, x, y, x + w, y + h, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void begin_3d_pass(RenderTarget& target, const glm::vec4& background) {
  target.bind();
  glClearColor(background.r, background.g, background.b, background.a);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glDisable(GL_CULL_FACE);
  glDisable(GL_BLEND);
}

}  // namespace ws::render
