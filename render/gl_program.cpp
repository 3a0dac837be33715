#include "gl_program.hpp"

#include <glm/gtc/type_ptr.hpp>
#include <stdexcept>
#include <utility>

namespace ws::gl {

namespace {

std::string shader_log(GLuint s) {
  GLint n = 0;
  glGetShaderiv(s, GL_INFO_LOG_LENGTH, &n);
  std::string log(n > 0 ? n : 0, '\0');
  if (n > 0) glGetShaderInfoLog(s, n, nullptr, log.data());
  return log;
}

std::string program_log(GLuint p) {
  GLint n = 0;
  glGetProgramiv(p, GL_INFO_LOG_LENGTH, &n);
  std::string log(n > 0 ? n : 0, '\0');
  if (n > 0) glGetProgramInfoLog(p, n, nullptr, log.data());
  return log;
}

}  // namespace

Program::Program(const std::vector<ShaderStage>& stages) {
  std::vector<GLuint> shaders;
  auto cleanup = [&] {
    for (GLuint s : shaders) glDeleteShader(s);
  };
  for (const auto& st : stages) {
    const GLuint s = glCreateShader(st.type);
    shaders.push_back(s);
    std::vector<const GLchar*> ptrs;
    std::vector<GLint> lens;
    for (const auto& src : st.sources) {
      ptrs.push_back(src.c_str());
      lens.push_back((GLint)src.size());
    }
    glShaderSource(s, (GLsizei)ptrs.size(), ptrs.data(), lens.data());
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
      const std::string log = shader_log(s);
      cleanup();
      throw std::runtime_error("shader '" + st.name + "' does not compile:\n" + log);
    }
  }
  id_ = glCreateProgram();
  for (GLuint s : shaders) glAttachShader(id_, s);
  glLinkProgram(id_);
  cleanup();  // attached shaders are kept alive by the program until it is deleted
  GLint ok = 0;
  glGetProgramiv(id_, GL_LINK_STATUS, &ok);
  if (!ok) {
    std::string names;
    for (const auto& st : stages) names += (names.empty() ? "" : " + ") + st.name;
    const std::string log = program_log(id_);
    glDeleteProgram(id_);
    id_ = 0;
    throw std::runtime_error("program (" + names + ") does not link:\n" + log);
  }
}

Program::~Program() {
  if (id_) glDeleteProgram(id_);
}

Program::Program(Program&& o) noexcept : id_(std::exchange(o.id_, 0)) {}

Program& Program::operator=(Program&& o) noexcept {
  if (this != &o) {
    if (id_) glDeleteProgram(id_);
    id_ = std::exchange(o.id_, 0);
  }
  return *this;
}

void Program::set(const char* n, int v) const { glUniform1i(loc(n), v); }
void Program::set(const char* n, float v) const { glUniform1f(loc(n), v); }
void Program::set(const char* n, const glm::vec2& v) const { glUniform2fv(loc(n), 1, glm::value_ptr(v)); }
void Program::set(const char* n, const glm::vec3& v) const { glUniform3fv(loc(n), 1, glm::value_ptr(v)); }
void Program::set(const char* n, const glm::vec4& v) const { glUniform4fv(loc(n), 1, glm::value_ptr(v)); }
void Program::set(const char* n, const glm::mat4& m) const {
  glUniformMatrix4fv(loc(n), 1, GL_FALSE, glm::value_ptr(m));
}

}  // namespace ws::gl
