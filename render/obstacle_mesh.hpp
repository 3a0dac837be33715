#pragma once
// The scene's obstacles in the 3-D view: geo::Triangle surfaces (primitives
// tessellated, imported meshes as they are) drawn flat-shaded with one colour
// per material and semi-transparent, so the slices stay visible through them.
#include <string>
#include <vector>

#include "geometry/geometry.hpp"
#include "gl_objects.hpp"
#include "gl_program.hpp"

namespace ws::render {

// The colour of 1-based material m (a fixed palette, cycling).
glm::vec3 material_colour(int material);

// A scene's obstacle surfaces and what parsing them said (warnings, e.g. a
// mesh that is not watertight). Empty when the scene has no obstacles.
struct SceneObstacles {
  std::vector<geo::Triangle> triangles;
  std::vector<geo::Material> materials;
  std::vector<std::string> warnings;
  size_t obstacle_count = 0;
};
// Throws SceneError / MeshError like the scene loader would.
SceneObstacles scene_obstacles(const WaveScene& scene);

class ObstacleMesh {
 public:
  // A GL context must be current.
  explicit ObstacleMesh(const std::vector<geo::Triangle>& triangles);
  size_t triangle_count() const { return (size_t)vertices_ / 3; }
  // Draws with blending on and depth writes off (call after the opaque parts),
  // clipped to the room box [0, room_max_m].
  void draw(const glm::mat4& mvp, float alpha, const glm::vec3& room_max_m) const;

 private:
  gl::Program prog_;
  gl::VertexArray vao_;
  gl::Buffer vbo_;
  GLsizei vertices_ = 0;
};

}  // namespace ws::render
