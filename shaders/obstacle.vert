// Obstacle triangles (furniture, pillars, imported meshes) in metres, flat
// shaded: every vertex carries its triangle's normal and its material's colour.
layout(location = 0) in vec3 a_position_m;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec3 a_colour;
uniform mat4 u_mvp;
out vec3 v_normal;
out vec3 v_colour;
out vec3 v_position_m;
void main() {
  v_normal = a_normal;
  v_colour = a_colour;
  v_position_m = a_position_m;
  gl_Position = u_mvp * vec4(a_position_m, 1.0);
}
