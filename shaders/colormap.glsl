// Diverging colour map for a signed field, symmetric about zero.
// u_range_max: the value shown at full colour (|u| >= u_range_max saturates).
// u_log_scale = 1: decibels, |u| from u_range_max down to u_range_max * 10^(-u_db_span/20)
// maps to full..no colour, keeping the sign; quiet wavefronts stay visible.
uniform float u_range_max;
uniform int u_log_scale;
uniform float u_db_span;

// Signed position on the map in [-1, 1].
float map_position(float value) {
  float m = max(u_range_max, 1e-30);
  if (isnan(value)) return 0.0;
  if (u_log_scale == 0) return clamp(value / m, -1.0, 1.0);
  float a = abs(value) / m;
  float db = 20.0 * log(max(a, 1e-30)) / log(10.0);
  float t = clamp((db + u_db_span) / u_db_span, 0.0, 1.0);
  return sign(value) * t;
}

// Moreland's "cool to warm" map through a near-white centre: blue for
// negative pressure, red for positive, perceptually balanced on both sides.
vec3 diverging(float s) {
  const vec3 cold = vec3(0.230, 0.299, 0.754);
  const vec3 mid_cold = vec3(0.552, 0.690, 0.996);
  const vec3 centre = vec3(0.865, 0.865, 0.865);
  const vec3 mid_warm = vec3(0.958, 0.604, 0.482);
  const vec3 warm = vec3(0.706, 0.016, 0.150);
  float t = clamp(s, -1.0, 1.0);
  if (t < -0.5) return mix(cold, mid_cold, (t + 1.0) * 2.0);
  if (t < 0.0) return mix(mid_cold, centre, (t + 0.5) * 2.0);
  if (t < 0.5) return mix(centre, mid_warm, t * 2.0);
  return mix(mid_warm, warm, (t - 0.5) * 2.0);
}

vec3 colour_of(float value) {
  if (isnan(value) || isinf(value)) return vec3(1.0, 0.0, 1.0);  // a blown-up field shows magenta
  return diverging(map_position(value));
}
