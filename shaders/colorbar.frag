in float v_map_position;
out vec4 frag_colour;
void main() { frag_colour = vec4(diverging(v_map_position), 1.0); }
