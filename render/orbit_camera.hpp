#pragma once
// An orbit camera for the room, z up: it circles a target point at a
// distance, turned by yaw about z and tilted by pitch. Dragging maps pixels to
// angles, scrolling scales the distance geometrically (each notch the same
// relative zoom), and reset frames the whole room.
#include <glm/glm.hpp>

namespace ws::render {

struct Ray {
  glm::vec3 origin;
  glm::vec3 direction;  // unit
};

class OrbitCamera {
 public:
  // Frames a box [0, extent_m] from a three-quarter view.
  void reset(const glm::vec3& extent_m);
  void rotate(float dx_px, float dy_px);  // drag in pixels
  void zoom(float scroll_notches);        // > 0 zooms in

  glm::vec3 eye() const;
  glm::mat4 view() const;
  glm::mat4 projection(float aspect) const;
  // The ray through pixel (x, y) of a viewport w x h (y down, as windows report).
  Ray ray_through(float x_px, float y_px, float w_px, float h_px) const;

  float yaw_rad = 0.0f, pitch_rad = 0.0f, distance_m = 5.0f;
  float fov_y_rad = 0.8f;
  glm::vec3 target{0.0f};

 private:
  float scene_size_m_ = 5.0f;
};

}  // namespace ws::render
