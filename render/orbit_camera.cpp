#include "orbit_camera.hpp"

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>

namespace ws::render {

void OrbitCamera::reset(const glm::vec3& extent_m) {
  target = extent_m * 0.5f;
  scene_size_m_ = glm::length(extent_m);
  yaw_rad = -2.2f;
  pitch_rad = 0.45f;
  // Far enough that the bounding sphere fits the vertical field of view.
  distance_m = 0.5f * scene_size_m_ / std::sin(0.5f * fov_y_rad) * 1.05f;
}

void OrbitCamera::rotate(float dx_px, float dy_px) {
  const float rad_per_px = 0.006f;
  yaw_rad -= dx_px * rad_per_px;
  // Stop short of the poles, where "up" would flip.
  pitch_rad = std::clamp(pitch_rad + dy_px * rad_per_px, -1.5f, 1.5f);
}

void OrbitCamera::zoom(float notches) {
  distance_m *= std::pow(0.9f, notches);
  distance_m = std::clamp(distance_m, 0.05f * scene_size_m_, 20.0f * scene_size_m_);
}

glm::vec3 OrbitCamera::eye() const {
  const glm::vec3 dir(std::cos(pitch_rad) * std::cos(yaw_rad), std::cos(pitch_rad) * std::sin(yaw_rad),
                      std::sin(pitch_rad));
  return target + distance_m * dir;
}

glm::mat4 OrbitCamera::view() const { return glm::lookAt(eye(), target, glm::vec3(0, 0, 1)); }

glm::mat4 OrbitCamera::projection(float aspect) const {
  const float near_m = std::max(1e-3f, distance_m - scene_size_m_);
  const float far_m = distance_m + scene_size_m_ * 2.0f;
  return glm::perspective(fov_y_rad, aspect, std::min(near_m, 0.05f * distance_m), far_m);
}

Ray OrbitCamera::ray_through(float x_px, float y_px, float w_px, float h_px) const {
  const glm::mat4 inv = glm::inverse(projection(w_px / std::max(h_px, 1.0f)) * view());
  const float nx = 2.0f * x_px / w_px - 1.0f;
  const float ny = 1.0f - 2.0f * y_px / h_px;
  glm::vec4 a = inv * glm::vec4(nx, ny, -1.0f, 1.0f);
  glm::vec4 b = inv * glm::vec4(nx, ny, 1.0f, 1.0f);
  a /= a.w;
  b /= b.w;
  return {glm::vec3(a), glm::normalize(glm::vec3(b - a))};
}

}  // namespace ws::render
