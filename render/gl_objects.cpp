#include "gl_objects.hpp"

#include <cstdio>
#include <stdexcept>
#include <string>

namespace ws::gl {

void check_gl(const char* what) {
  const GLenum e = glGetError();
  if (e == GL_NO_ERROR) return;
  char hex[16];
  snprintf(hex, sizeof hex, "0x%04x", (unsigned)e);
  throw std::runtime_error(std::string("OpenGL error ") + hex + " after " + what);
}

}  // namespace ws::gl
