// Point sprites for sources and receivers: a constant size in pixels.
layout(location = 0) in vec3 a_position_m;
layout(location = 1) in vec4 a_colour;
uniform mat4 u_mvp;
uniform float u_point_size_px;
out vec4 v_colour;
void main() {
  v_colour = a_colour;
  gl_Position = u_mvp * vec4(a_position_m, 1.0);
  gl_PointSize = u_point_size_px;
}
