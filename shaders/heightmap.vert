// The sediment model's basin surface: interleaved vertices written by CUDA
// (or uploaded from the CPU solver), 7 floats each: position in metres (z is
// the exaggerated height), the unit normal of that surface, and s.
layout(location = 0) in vec3 a_position_m;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in float a_sand;
uniform mat4 u_mvp;
uniform float u_z_offset_m;  // shifts the lowest h to z = 0, so the camera frames the relief
out vec3 v_normal;
out float v_sand;
void main() {
  v_normal = a_normal;
  v_sand = a_sand;
  gl_Position = u_mvp * vec4(a_position_m + vec3(0.0, 0.0, u_z_offset_m), 1.0);
}
