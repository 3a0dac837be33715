#pragma once
// A linked GLSL program (move-only), built from shader sources with the
// compile and link logs in the error message, plus uniform setters by name.
#include <glad/gl.h>

#include <glm/glm.hpp>
#include <string>
#include <vector>

namespace ws::gl {

// One shader stage: its source strings (concatenated in order by GL) and a
// name for error messages.
struct ShaderStage {
  GLenum type;
  std::vector<std::string> sources;
  std::string name;
};

class Program {
 public:
  Program() = default;
  explicit Program(const std::vector<ShaderStage>& stages);  // throws std::runtime_error with the log
  ~Program();
  Program(Program&& o) noexcept;
  Program& operator=(Program&& o) noexcept;
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;

  GLuint id() const { return id_; }
  void use() const { glUseProgram(id_); }

  // Uniform setters; a name the linker dropped (unused) is silently ignored.
  void set(const char* name, int v) const;
  void set(const char* name, float v) const;
  void set(const char* name, const glm::vec2& v) const;
  void set(const char* name, const glm::vec3& v) const;
  void set(const char* name, const glm::vec4& v) const;
  void set(const char* name, const glm::mat4& m) const;

 private:
  GLint loc(const char* name) const { return glGetUniformLocation(id_, name); }
  GLuint id_ = 0;
};

}  // namespace ws::gl
