#pragma once
// Move-only RAII owners of OpenGL objects. Each owns one GL name, created in
// the constructor and deleted in the destructor, so a resource lives exactly as
// long as the C++ object that holds it and cannot be deleted twice.
// A GL context must be current whenever one of these is created or destroyed.
#include <glad/gl.h>

#include <utility>

namespace ws::gl {

// Deleter policies: how one name of each object kind is created and deleted.
struct BufferPolicy {
  static GLuint create() { GLuint n = 0; glGenBuffers(1, &n); return n; }
  static void destroy(GLuint n) { glDeleteBuffers(1, &n); }
};
struct TexturePolicy {
  static GLuint create() { GLuint n = 0; glGenTextures(1, &n); return n; }
  static void destroy(GLuint n) { glDeleteTextures(1, &n); }
};
struct VertexArrayPolicy {
  static GLuint create() { GLuint n = 0; glGenVertexArrays(1, &n); return n; }
  static void destroy(GLuint n) { glDeleteVertexArrays(1, &n); }
};
struct FramebufferPolicy {
  static GLuint create() { GLuint n = 0; glGenFramebuffers(1, &n); return n; }
  static void destroy(GLuint n) { glDeleteFramebuffers(1, &n); }
};
struct RenderbufferPolicy {
  static GLuint create() { GLuint n = 0; glGenRenderbuffers(1, &n); return n; }
  static void destroy(GLuint n) { glDeleteRenderbuffers(1, &n); }
};

template <class Policy>
class Handle {
 public:
  Handle() : id_(Policy::create()) {}
  ~Handle() { reset(); }
  Handle(Handle&& o) noexcept : id_(std::exchange(o.id_, 0)) {}
  Handle& operator=(Handle&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, 0);
    }
    return *this;
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;

  GLuint id() const { return id_; }
  explicit operator bool() const { return id_ != 0; }

 private:
  void reset() {
    if (id_) Policy::destroy(id_);
    id_ = 0;
  }
  GLuint id_ = 0;
};

using Buffer = Handle<BufferPolicy>;
using Texture = Handle<TexturePolicy>;
using VertexArray = Handle<VertexArrayPolicy>;
using Framebuffer = Handle<FramebufferPolicy>;
using Renderbuffer = Handle<RenderbufferPolicy>;

// Throws std::runtime_error naming `what` and the GL error when glGetError reports one.
void check_gl(const char* what);

}  // namespace ws::gl
