#pragma once
// Conditions on the six walls of the box.
//
// fixed:     Dirichlet, u = 0 on the wall (Webb's fixed boundary; the halo).
// rigid:     Neumann, no normal velocity (specific admittance beta = 0).
// absorbing: locally reacting, frequency independent, specific admittance beta > 0
//            (from an absorption coefficient a at normal incidence:
//             R = sqrt(1 - a), beta = (1 - R) / (1 + R)).
// open:      beta = 1, the first-order absorbing (Engquist-Majda-like) boundary:
//            perfect at normal incidence, reflecting (1 - cos)/(1 + cos) at angle theta.
#include <array>
#include <cmath>
#include <string>

namespace ws {

enum class WallKind { Fixed, Rigid, Absorbing, Open };

struct WallCondition {
  WallKind kind = WallKind::Fixed;
  double admittance = 0.0;  // specific admittance beta (rigid 0, open 1)

  static WallCondition fixed() { return {WallKind::Fixed, 0.0}; }
  static WallCondition rigid() { return {WallKind::Rigid, 0.0}; }
  static WallCondition open() { return {WallKind::Open, 1.0}; }
  static WallCondition with_admittance(double beta) { return {WallKind::Absorbing, beta}; }
  static WallCondition with_absorption(double a) { return {WallKind::Absorbing, admittance_from_absorption(a)}; }

  // Normal-incidence pressure reflection R = (1 - beta) / (1 + beta).
  static double admittance_from_absorption(double a) {
    const double R = std::sqrt(1.0 - a);
    return (1.0 - R) / (1.0 + R);
  }
};

// Walls in the order x_min, x_max, y_min, y_max, z_min, z_max.
using BoxWalls = std::array<WallCondition, 6>;
inline const char* wall_name(int w) {
  static const char* names[6] = {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"};
  return names[w];
}
inline bool all_fixed(const BoxWalls& w) {
  for (const auto& c : w)
    if (c.kind != WallKind::Fixed) return false;
  return true;
}
std::string describe(const WallCondition& c);

}  // namespace ws
