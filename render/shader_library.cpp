#include "shader_library.hpp"

#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "embedded_shaders.hpp"

namespace ws::render {

namespace {

std::string executable_dir() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  std::string p(buf, (size_t)n);
  const auto slash = p.rfind('/');
  return slash == std::string::npos ? "" : p.substr(0, slash);
}

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

std::vector<std::string> search_dirs() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("WS_SHADER_DIR")) dirs.push_back(env);
  const std::string exe = executable_dir();
  if (!exe.empty()) dirs.push_back(exe + "/shaders");
#ifdef WS_SHADER_DIR
  dirs.push_back(WS_SHADER_DIR);
#endif
  return dirs;
}

}  // namespace

ShaderSource load_shader_source(const std::string& name) {
  ShaderSource s;
  for (const auto& d : search_dirs()) {
    if (read_file(d + "/" + name, s.text)) {
      s.origin = d + "/" + name;
      return s;
    }
  }
  for (const auto& e : embedded_shaders()) {
    if (name == e.name) return {e.text, "embedded"};
  }
  std::string tried;
  for (const auto& d : search_dirs()) tried += " " + d;
  throw std::runtime_error("shader '" + name + "' not found in:" + tried + " nor embedded in the binary");
}

gl::Program build_program(const std::string& vert, const std::string& frag, bool with_colormap) {
  const std::string version = "#version 430 core\n";
  const ShaderSource v = load_shader_source(vert);
  const ShaderSource f = load_shader_source(frag);
  std::vector<gl::ShaderStage> stages;
  stages.push_back({GL_VERTEX_SHADER, {version, v.text}, v.origin});
  if (with_colormap) {
    const ShaderSource c = load_shader_source("colormap.glsl");
    stages.push_back({GL_FRAGMENT_SHADER, {version, c.text, f.text}, c.origin + " + " + f.origin});
  } else {
    stages.push_back({GL_FRAGMENT_SHADER, {version, f.text}, f.origin});
  }
  return gl::Program(stages);
}

}  // namespace ws::render
