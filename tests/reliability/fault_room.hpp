#pragma once
// The small room the model and GPU fault tests run (absorbing nothing, one raw source,
// one receiver: a few thousand nodes, so a fault at step 300 comes quickly), and an
// environment variable set for one scope (the test hooks read theirs from the environment).
#include <cstdlib>
#include <string>

#include "scene/scene.hpp"

namespace ws::test {

inline WaveScene small_room(Precision p) {
  WaveScene s;
  s.name = "fault room";
  s.room_m = {1.0, 0.8, 0.6};
  s.sound_speed_m_s = 343.0;
  s.sample_rate_hz = 12000.0;
  s.courant = 0.45;
  s.precision = p;
  s.sources.push_back({{0.3, 0.25, 0.2}, {SignalKind::RaisedCosine, 1.0, 1e-3, 0.0, 0.0}, SourceQuantity::Scheme,
                       Injection::Value});
  s.receivers.push_back({"r", {0.75, 0.55, 0.4}});
  return s;
}

struct ScopedEnv {
  std::string name;
  ScopedEnv(const std::string& n, const std::string& v) : name(n) { ::setenv(n.c_str(), v.c_str(), 1); }
  ~ScopedEnv() { ::unsetenv(name.c_str()); }
};

}  // namespace ws::test
