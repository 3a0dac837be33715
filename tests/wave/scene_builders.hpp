#pragma once
// Small scenes for the physics tests, built in code so each test states its numbers.
#include "scene/scene.hpp"

namespace ws::testing {

inline WaveScene cube_scene(double side_m, double rate_hz, Precision p) {
  WaveScene s;
  s.name = "test cube";
  s.room_m = {side_m, side_m, side_m};
  s.sound_speed_m_s = 343.0;
  s.sample_rate_hz = rate_hz;
  s.precision = p;
  return s;
}

}  // namespace ws::testing
