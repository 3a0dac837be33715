// The colour bar: a quad in normalised device coordinates whose v coordinate
// runs over the map from -1 (bottom) to +1 (top).
layout(location = 0) in vec2 a_ndc;
layout(location = 1) in float a_map_position;
out float v_map_position;
void main() {
  v_map_position = a_map_position;
  gl_Position = vec4(a_ndc, 0.0, 1.0);
}
