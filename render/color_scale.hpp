#pragma once
// How field values become colours: a symmetric range [-m, m] chosen
// automatically from max |u| (smoothed so the picture does not flicker as a
// wavefront passes a slice) or fixed, shown linearly or in decibels.
#include <algorithm>
#include <cmath>

namespace ws::render {

struct ColorScale {
  bool automatic = true;
  bool decibels = false;
  float fixed_max = 0.1f;       // used when !automatic
  float db_span = 60.0f;        // dB below the range maximum that still get colour
  float auto_max = 0.0f;        // smoothed max |u| (automatic mode)
  float auto_decay = 0.95f;     // per update: how fast the automatic range may shrink

  // Feeds this frame's max |u|: the range grows at once and shrinks slowly.
  void observe(float max_abs) {
    if (!std::isfinite(max_abs)) return;
    auto_max = std::max(max_abs, auto_max * auto_decay);
  }
  // The value shown at full colour.
  float range_max() const {
    const float m = automatic ? auto_max : fixed_max;
    return m > 1e-30f ? m : 1e-30f;
  }
};

}  // namespace ws::render
