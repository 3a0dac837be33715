// Semi-transparent, so the slices behind an obstacle stay visible. Clipped to
// the room [0, u_room_max_m]: an obstacle may reach through a wall (an L-shaped
// hall is a box with a block in one corner), and only the part inside counts.
in vec3 v_normal;
in vec3 v_colour;
in vec3 v_position_m;
uniform vec3 u_light_dir;
uniform float u_alpha;
uniform vec3 u_room_max_m;
out vec4 frag_colour;
void main() {
  if (any(lessThan(v_position_m, vec3(0.0))) || any(greaterThan(v_position_m, u_room_max_m))) discard;
  vec3 n = normalize(v_normal);
  float diffuse = abs(dot(n, normalize(u_light_dir)));  // two-sided: inside faces lit too
  frag_colour = vec4(v_colour * (0.35 + 0.65 * diffuse), u_alpha);
}
