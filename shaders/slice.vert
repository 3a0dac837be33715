// A slice quad in room coordinates (metres); the texture coordinate addresses
// the slice's R32F texture with texel centres on the grid nodes.
layout(location = 0) in vec3 a_position_m;
layout(location = 1) in vec2 a_texcoord;
uniform mat4 u_mvp;
out vec2 v_texcoord;
void main() {
  v_texcoord = a_texcoord;
  gl_Position = u_mvp * vec4(a_position_m, 1.0);
}
