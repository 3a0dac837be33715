in vec2 v_texcoord;
uniform sampler2D u_slice;
uniform float u_alpha;
out vec4 frag_colour;
void main() {
  float value = texture(u_slice, v_texcoord).r;
  frag_colour = vec4(colour_of(value), u_alpha);
}
