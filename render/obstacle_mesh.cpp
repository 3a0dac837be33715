#include "obstacle_mesh.hpp"

#include "shader_library.hpp"

namespace ws::render {

glm::vec3 material_colour(int material) {
  // Distinct, muted colours that read against both the dark background and the slices' colour map.
  static const glm::vec3 palette[] = {{0.75f, 0.75f, 0.78f}, {0.36f, 0.72f, 0.45f}, {0.90f, 0.62f, 0.25f},
                                      {0.55f, 0.45f, 0.85f}, {0.30f, 0.70f, 0.80f}, {0.85f, 0.45f, 0.60f},
                                      {0.70f, 0.70f, 0.30f}, {0.50f, 0.35f, 0.25f}};
  const int n = (int)(sizeof palette / sizeof palette[0]);
  return palette[((material - 1) % n + n) % n];
}

SceneObstacles scene_obstacles(const WaveScene& scene) {
  SceneObstacles o;
  if (!scene.geometry.contains("obstacles") || scene.geometry.at("obstacles").empty()) return o;
  const geo::SceneGeometry g = geo::parse_geometry(scene.geometry, scene.scene_dir);
  o.triangles = geo::geometry_triangles(g);
  o.materials = g.materials;
  o.warnings = g.warnings;
  o.obstacle_count = g.obstacles.size();
  return o;
}

ObstacleMesh::ObstacleMesh(const std::vector<geo::Triangle>& tris)
    : prog_(build_program("obstacle.vert", "obstacle.frag", false)) {
  // Flat shading: three vertices per triangle, each with the face normal and the material colour.
  std::vector<float> v;
  v.reserve(tris.size() * 27);
  for (const auto& t : tris) {
    const glm::vec3 a((float)t.v_m[0].x, (float)t.v_m[0].y, (float)t.v_m[0].z);
    const glm::vec3 b((float)t.v_m[1].x, (float)t.v_m[1].y, (float)t.v_m[1].z);
    const glm::vec3 c((float)t.v_m[2].x, (float)t.v_m[2].y, (float)t.v_m[2].z);
    glm::vec3 n = glm::cross(b - a, c - a);
    const float len = glm::length(n);
    n = len > 0.0f ? n / len : glm::vec3(0, 0, 1);
    const glm::vec3 col = material_colour(t.material);
    for (const glm::vec3& p : {a, b, c}) v.insert(v.end(), {p.x, p.y, p.z, n.x, n.y, n.z, col.r, col.g, col.b});
  }
  vertices_ = (GLsizei)(tris.size() * 3);
  glBindVertexArray(vao_.id());
  glBindBuffer(GL_ARRAY_BUFFER, vbo_.id());
  glBufferData(GL_ARRAY_BUFFER, v.size() * sizeof(float), v.data(), GL_STATIC_DRAW);
  const GLsizei stride = 9 * sizeof(float);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, stride, (void*)0);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, stride, (void*)(3 * sizeof(float)));
  glEnableVertexAttribArray(2);
  glVertexAttribPointer(2, 3, GL_FLOAT, GL_FALSE, stride, (void*)(6 * sizeof(float)));
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  gl::check_gl("uploading the obstacle mesh");
}

void ObstacleMesh::draw(const glm::mat4& mvp, float alpha, const glm::vec3& room_max_m) const {
  if (vertices_ == 0) return;
  prog_.use();
  prog_.set("u_mvp", mvp);
  prog_.set("u_alpha", alpha);
  prog_.set("u_room_max_m", room_max_m);
  prog_.set("u_light_dir", glm::vec3(-0.35f, -0.55f, 0.76f));
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glDepthMask(GL_FALSE);  // see-through: later obstacle faces and the slices behind still show
  glBindVertexArray(vao_.id());
  glDrawArrays(GL_TRIANGLES, 0, vertices_);
  glBindVertexArray(0);
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
}

}  // namespace ws::render
