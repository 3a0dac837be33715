layout(location = 0) in vec3 a_position_m;
uniform mat4 u_mvp;
void main() { gl_Position = u_mvp * vec4(a_position_m, 1.0); }
