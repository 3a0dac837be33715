// Sand fraction s as colour (mud: dark olive brown, sand: pale yellow), lit by
// one directional light plus ambient so the relief reads as shape.
in vec3 v_normal;
in float v_sand;
uniform vec3 u_light_dir;  // towards the light, world space
out vec4 frag_colour;

vec3 sand_mud(float s) {
  const vec3 mud = vec3(0.38, 0.32, 0.25);
  const vec3 silt = vec3(0.64, 0.55, 0.38);
  const vec3 sand = vec3(0.97, 0.87, 0.58);
  float t = clamp(s, 0.0, 1.0);
  return t < 0.5 ? mix(mud, silt, t * 2.0) : mix(silt, sand, (t - 0.5) * 2.0);
}

void main() {
  if (isnan(v_sand) || isinf(v_sand)) {  // a blown-up state shows magenta, as the wave view does
    frag_colour = vec4(1.0, 0.0, 1.0, 1.0);
    return;
  }
  vec3 n = normalize(v_normal);
  if (!gl_FrontFacing) n = -n;
  float diffuse = max(dot(n, normalize(u_light_dir)), 0.0);
  frag_colour = vec4(sand_mud(v_sand) * (0.35 + 0.65 * diffuse), 1.0);
}
