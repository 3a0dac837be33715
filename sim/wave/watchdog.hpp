#pragma once
// The watchdog: every few hundred steps the model reads the field's mean and
// peak and hands them here. A stable run with bounded sources keeps both
// bounded once its sources have ended (the scheme's energy is conserved by rigid
// walls and decays through absorbing ones, and the mean is constant). So after
// the sources end, three things mean the run is no longer physics:
//   - the field is not finite;
//   - the peak grows past kPeakGrowth times the largest peak seen until then
//     (an unstable mode; a growing zero mode when the mean carries it);
//   - the mean drifts steadily away from its value when the sources ended, by more
//     than kDriftFraction of that peak and further at each of the last checks
//     (a DC ramp: a net flow into a closed room that never stops, as from a
//     "scheme" source whose signal has a non-zero sum).
// Before the sources end only a non-finite field trips it.
#include <optional>
#include <string>
#include <vector>

#include "wave/wave_solver.hpp"

namespace ws {

class Watchdog {
 public:
  static constexpr long long kInterval = 256;  // steps between checks
  // Steps between checks for kernels whose launch holds the grid on chip for its run
  // (KernelVariant::multi_long_runs): the model advances them in chunks this long.
  static constexpr long long kLongRunInterval = 1024;
  static constexpr double kPeakGrowth = 10.0;
  static constexpr double kDriftFraction = 0.25;
  static constexpr int kDriftChecks = 3;

  // quiet_step: the first step after which every source is zero (< 0: a source never ends).
  explicit Watchdog(long long quiet_step = -1) : quiet_step_(quiet_step) {}
  void restart(long long quiet_step);

  // A message naming what grew, from which step, and the likely cause; nullopt when all is well.
  std::optional<std::string> check(long long step, const FieldStats& f);

 private:
  struct Sample {
    long long step;
    double mean, peak;
  };
  long long quiet_step_;
  double peak_max_ = 0.0;      // largest peak seen until the sources ended
  bool quiet_seen_ = false;    // the reference below is set
  Sample quiet_{0, 0.0, 0.0};  // the first check at or after the quiet step
  std::vector<Sample> recent_; // checks since then, newest last (at most kDriftChecks + 1)
  Sample last_finite_{0, 0.0, 0.0};
};

}  // namespace ws
