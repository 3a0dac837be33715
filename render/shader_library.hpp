#pragma once
// Where shader sources come from, in order: $WS_SHADER_DIR, shaders/ next to
// the executable, the source tree's shaders/ (WS_SHADER_DIR at build time),
// then the copy embedded into the binary. The first three let a shader be
// edited without a rebuild; the last makes a staged binary self-contained.
#include <string>

#include "gl_program.hpp"

namespace ws::render {

struct ShaderSource {
  std::string text;
  std::string origin;  // the file path, or "embedded"
};

// Throws std::runtime_error when no source has `name`.
ShaderSource load_shader_source(const std::string& name);

// A program from a vertex and a fragment file; `with_colormap` prepends
// colormap.glsl to the fragment stage. Every stage starts with "#version 430 core".
gl::Program build_program(const std::string& vert, const std::string& frag, bool with_colormap);

}  // namespace ws::render
