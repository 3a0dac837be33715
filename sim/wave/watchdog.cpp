#include "wave/watchdog.hpp"

#include <cmath>
#include <sstream>

namespace ws {

void Watchdog::restart(long long quiet_step) { *this = Watchdog(quiet_step); }

std::optional<std::string> Watchdog::check(long long step, const FieldStats& f) {
  std::ostringstream os;
  os.precision(4);
  if (!f.finite) {
    os << "the field stopped being finite between step " << last_finite_.step << " (peak |p| " << last_finite_.peak
       << ", mean " << last_finite_.mean << ") and step " << step
       << ": the scheme is unstable. Likely cause: a Courant number above the stencil's limit, or a boundary "
          "condition the scheme cannot run stably";
    return os.str();
  }
  last_finite_ = {step, f.mean, f.peak};
  const bool quiet = quiet_step_ >= 0 && step >= quiet_step_;
  if (!quiet) {
    peak_max_ = std::fmax(peak_max_, f.peak);
    return std::nullopt;
  }
  if (!quiet_seen_) {
    peak_max_ = std::fmax(peak_max_, f.peak);
    quiet_ = {step, f.mean, f.peak};
    quiet_seen_ = true;
    return std::nullopt;
  }
  if (peak_max_ > 0.0 && f.peak > kPeakGrowth * peak_max_) {
    const bool mean_carries = std::fabs(f.mean) > 0.5 * f.peak;
    os << "the field's peak |p| grew from " << peak_max_ << " (the largest while the sources ran, up to step "
       << quiet_.step << ") to " << f.peak << " at step " << step << " after every source had ended; ";
    if (mean_carries)
      os << "the mean (" << f.mean << ") carries it: a growing zero mode (the whole field drifting together). Likely "
            "cause: an update whose Laplacian does not vanish on a constant field";
    else
      os << "an unstable mode. Likely cause: a Courant number above the stencil's limit or an unstable boundary";
    return os.str();
  }
  recent_.push_back({step, f.mean, f.peak});
  if ((int)recent_.size() > kDriftChecks + 1) recent_.erase(recent_.begin());
  const double drift = f.mean - quiet_.mean;
  if (peak_max_ > 0.0 && std::fabs(drift) > kDriftFraction * peak_max_ && (int)recent_.size() == kDriftChecks + 1) {
    bool steady = true;
    double first_step_change = 0.0, last_step_change = 0.0;
    for (int q = 1; q <= kDriftChecks; ++q) {
      const double d = (recent_[q].mean - recent_[q - 1].mean) / (double)(recent_[q].step - recent_[q - 1].step);
      if (!(d * drift > 0.0)) steady = false;
      if (q == 1) first_step_change = d;
      last_step_change = d;
    }
    if (steady) {
      const bool accelerating = std::fabs(last_step_change) > 1.5 * std::fabs(first_step_change);
      os << "the mean pressure drifted from " << quiet_.mean << " at step " << quiet_.step << " (when every source "
         << "had ended) to " << f.mean << " at step " << step << ", " << std::fabs(drift) / peak_max_
         << " times the largest peak; ";
      if (accelerating)
        os << "the drift accelerates: a growing zero mode. Likely cause: an update whose Laplacian does not vanish "
              "on a constant field";
      else
        os << "it grows linearly: a DC ramp, a net flow into the room that never stops. Likely cause: a \"scheme\" "
              "source whose signal has a non-zero sum; use \"quantity\": \"volume_velocity\", \"injection\": "
              "\"difference\", or a signal with zero integral (ricker, gaussian_derivative)";
      return os.str();
    }
  }
  return std::nullopt;
}

}  // namespace ws
