// A filled disc with a dark rim, so a marker stays visible on any slice colour.
in vec4 v_colour;
out vec4 frag_colour;
void main() {
  vec2 p = gl_PointCoord * 2.0 - 1.0;
  float r = length(p);
  if (r > 1.0) discard;
  frag_colour = r > 0.7 ? vec4(0.05, 0.05, 0.05, 1.0) : v_colour;
}
