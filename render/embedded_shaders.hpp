#pragma once
// The shaders/ folder as compiled into the binary (generated at build time).
#include <string>
#include <vector>

namespace ws::render {

struct EmbeddedShader {
  const char* name;  // file name in shaders/, e.g. "slice.frag"
  const char* text;
};

const std::vector<EmbeddedShader>& embedded_shaders();

}  // namespace ws::render
