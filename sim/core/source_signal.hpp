#pragma once
// Source signals of a soft source: the value added to the new pressure at the
// source node after each update. Evaluated from the step index on host and
// device alike, so no per-step upload is needed.
#include <cmath>
#include <string>

#include "core/hd.hpp"

namespace ws {

enum class SignalKind : int { RaisedCosine = 0, Gaussian = 1, Sine = 2, Impulse = 3 };

struct SourceSignal {
  SignalKind kind = SignalKind::RaisedCosine;
  double amplitude = 1.0;
  double width_s = 1e-3;      // raised cosine: total duration; gaussian: standard deviation
  double frequency_hz = 0.0;  // sine
  double delay_s = 0.0;       // start time (raised cosine, sine) or centre offset (gaussian: 4 sigma added)
};

// Value of the signal at step n of a run with time step dt_s.
WS_HD double signal_value(const SourceSignal& s, long long n, double dt_s) {
  const double kPi = 3.14159265358979323846;
  const double t = (double)n * dt_s - s.delay_s;
  switch (s.kind) {
    case SignalKind::RaisedCosine:
      // 0.5 (1 - cos 2 pi t / W) on [0, W]: smooth onset, band-limited enough for the grid
      // when W spans several samples.
      if (t < 0.0 || t > s.width_s) return 0.0;
      return s.amplitude * 0.5 * (1.0 - cos(2.0 * kPi * t / s.width_s));
    case SignalKind::Gaussian: {
      const double tc = t - 4.0 * s.width_s;  // centred 4 sigma after the delay: starts from ~0
      return s.amplitude * exp(-0.5 * tc * tc / (s.width_s * s.width_s));
    }
    case SignalKind::Sine:
      if (t < 0.0) return 0.0;
      return s.amplitude * sin(2.0 * kPi * s.frequency_hz * t);
    case SignalKind::Impulse:
      // A Kronecker delta at the first step at or after delay_s.
      return (t >= 0.0 && t < dt_s) ? s.amplitude : 0.0;
  }
  return 0.0;
}

inline const char* to_string(SignalKind k) {
  switch (k) {
    case SignalKind::RaisedCosine: return "raised_cosine";
    case SignalKind::Gaussian: return "gaussian";
    case SignalKind::Sine: return "sine";
    case SignalKind::Impulse: return "impulse";
  }
  return "?";
}

}  // namespace ws
