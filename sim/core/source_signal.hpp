#pragma once
// Source signals and how a source puts them into the scheme. Evaluated from the
// step index on host and device alike, so no per-step upload is needed.
//
// A signal s(t) is a function of time in seconds. What it means depends on the
// source's quantity (sim/scene/scene.hpp): a volume velocity q(t) in m^3/s, or a
// raw number added to the scheme ("scheme" sources). docs/physics.md derives the
// injection: the update that produces u^{n+1} adds, at the source node,
//   value:      gain * s(t_n)
//   difference: gain * (s(t_n + T/2) - s(t_n - T/2))   (a centred first difference)
// with t_n = n T. A monopole of volume velocity q uses the difference with
// gain = rho c^2 T / X^3, which is T^2 rho c^2 q'(t_n) / X^3 to second order.
#include <cmath>
#include <string>

#include "core/hd.hpp"

namespace ws {

enum class SignalKind : int {
  RaisedCosine = 0,
  Gaussian = 1,
  Sine = 2,
  Impulse = 3,
  Ricker = 4,              // zero integral: no net volume, no DC
  GaussianDerivative = 5,  // zero integral: no net volume, no DC
  Sampled = 6,             // samples at the simulation rate (a WAV file, a dry signal): core/sample_stream.hpp
};

struct SourceSignal {
  SignalKind kind = SignalKind::RaisedCosine;
  double amplitude = 1.0;
  double width_s = 1e-3;      // raised cosine: total duration; gaussian, gaussian_derivative: standard deviation
  double frequency_hz = 0.0;  // sine; ricker: peak frequency
  double delay_s = 0.0;       // start time: every signal is exactly 0 before it
};

// Every pulse is exactly zero outside [delay, delay + duration]: a volume velocity
// injected as its centred difference then adds exactly nothing after it ends (the
// differences telescope to q(end) - q(start) = 0), so it cannot leave a DC ramp. The
// Gaussians are centred 6 sigma into a window of 12 sigma, where they are 1.5e-8 of
// their peak: the cut is far below anything audible or visible.

enum class Injection : int { Value = 0, Difference = 1 };

// Value of the signal at time t_s (seconds since the start of the run); dt_s is
// the time step, which only the impulse uses (it lasts one step).
WS_HD double signal_at(const SourceSignal& s, double t_s, double dt_s) {
  const double kPi = 3.14159265358979323846;
  const double t = t_s - s.delay_s;
  switch (s.kind) {
    case SignalKind::RaisedCosine:
      // 0.5 (1 - cos 2 pi t / W) on [0, W]: smooth onset, band-limited enough for the grid
      // when W spans several samples.
      if (t < 0.0 || t > s.width_s) return 0.0;
      return s.amplitude * 0.5 * (1.0 - cos(2.0 * kPi * t / s.width_s));
    case SignalKind::Gaussian: {
      if (t < 0.0 || t > 12.0 * s.width_s) return 0.0;
      const double tc = t - 6.0 * s.width_s;
      return s.amplitude * exp(-0.5 * tc * tc / (s.width_s * s.width_s));
    }
    case SignalKind::GaussianDerivative: {
      // -(t/sigma) exp(1/2 - t^2 / 2 sigma^2): the Gaussian's derivative scaled to a peak of 1,
      // centred 6 sigma after the delay; its integral is zero.
      if (t < 0.0 || t > 12.0 * s.width_s) return 0.0;
      const double tc = (t - 6.0 * s.width_s) / s.width_s;
      return -s.amplitude * tc * exp(0.5 - 0.5 * tc * tc);
    }
    case SignalKind::Ricker: {
      // (1 - 2 a) exp(-a), a = (pi f (t - 1.5 / f))^2 on [0, 3 / f]: peak 1 at 1.5 / f after
      // the delay (2e-10 of the peak at the window's edges); its integral is zero.
      if (!(s.frequency_hz > 0.0) || t < 0.0 || t > 3.0 / s.frequency_hz) return 0.0;
      const double x = kPi * s.frequency_hz * (t - 1.5 / s.frequency_hz);
      const double a = x * x;
      return s.amplitude * (1.0 - 2.0 * a) * exp(-a);
    }
    case SignalKind::Sine:
      if (t < 0.0) return 0.0;
      return s.amplitude * sin(2.0 * kPi * s.frequency_hz * t);
    case SignalKind::Impulse:
      // One step long: a Kronecker delta at the first step at or after delay_s.
      return (t >= 0.0 && t < dt_s) ? s.amplitude : 0.0;
    case SignalKind::Sampled:
      return 0.0;  // not a function of time: the solvers read its samples (sampled_injection)
  }
  return 0.0;
}

// Value of the signal at step n of a run with time step dt_s.
WS_HD double signal_value(const SourceSignal& s, long long n, double dt_s) { return signal_at(s, (double)n * dt_s, dt_s); }

// What the update producing u^{n+1} adds at the source node, before the gain.
WS_HD double injection_value(const SourceSignal& s, Injection how, long long n, double dt_s) {
  const double t = (double)n * dt_s;
  if (how == Injection::Value) return signal_at(s, t, dt_s);
  return signal_at(s, t + 0.5 * dt_s, dt_s) - signal_at(s, t - 0.5 * dt_s, dt_s);
}

// A sampled signal holds one value per step: y_k on [t0 + k T, t0 + (k+1) T), where t0 is
// its first step at or after delay_s. Read at the midpoints t_n +- T/2 the centred
// difference is y_n - y_{n-1} (and the value y_n), the same form as every analytic signal:
// a one-sample y = (1, 0, 0, ...) injects exactly what the impulse signal does. `y` points
// at the sample of step n, and y[-1] at the one before it (0 before the start).
WS_HD double sampled_injection(const float* y, Injection how) {
  if (how == Injection::Value) return (double)y[0];
  return (double)y[0] - (double)y[-1];
}

// The time after which the signal stays (numerically) zero, or a negative
// number for a signal that never ends (sine; a sampled signal's end is its
// stream's: sampled_end_s in core/sample_stream.hpp).
inline double signal_end_s(const SourceSignal& s, double dt_s) {
  switch (s.kind) {
    case SignalKind::RaisedCosine: return s.delay_s + s.width_s;
    case SignalKind::Gaussian:
    case SignalKind::GaussianDerivative: return s.delay_s + 12.0 * s.width_s + dt_s;
    case SignalKind::Ricker: return s.frequency_hz > 0.0 ? s.delay_s + 3.0 / s.frequency_hz + dt_s : 0.0;
    case SignalKind::Impulse: return s.delay_s + 2.0 * dt_s;
    case SignalKind::Sine:
    case SignalKind::Sampled: return -1.0;
  }
  return -1.0;
}

inline const char* to_string(SignalKind k) {
  switch (k) {
    case SignalKind::RaisedCosine: return "raised_cosine";
    case SignalKind::Gaussian: return "gaussian";
    case SignalKind::Sine: return "sine";
    case SignalKind::Impulse: return "impulse";
    case SignalKind::Ricker: return "ricker";
    case SignalKind::GaussianDerivative: return "gaussian_derivative";
    case SignalKind::Sampled: return "sampled";
  }
  return "?";
}

}  // namespace ws
