// A raised-cosine pulse from a soft source reaches a receiver at distance r
// after r / c: the peak of the received signal sits at r/c + W/2 (the free-space
// response to a point forcing is the forcing delayed by r/c and scaled by 1/r).
#include <gtest/gtest.h>

#include <cmath>

#include "scene_builders.hpp"
#include "wave/wave_model.hpp"

namespace ws {
namespace {

struct Arrival {
  double expected_samples;
  double measured_samples;
};

Arrival run_arrival(const std::array<double, 3>& offset_m) {
  WaveScene s = testing::cube_scene(3.0, 16000.0, Precision::Double);
  const double width_s = 1.0e-3;
  s.sources.push_back({{1.5, 1.5, 1.5}, {SignalKind::RaisedCosine, 1.0, width_s, 0.0, 0.0}, SourceQuantity::Scheme, Injection::Value});
  s.receivers.push_back({"r", {1.5 + offset_m[0], 1.5 + offset_m[1], 1.5 + offset_m[2]}});
  WaveModel m(s, BackendChoice::Cpu);
  const auto& g = m.grid();
  // Distance between the nodes actually used (positions snap to the grid).
  const GridIndex a = g.source_nodes[0], b = g.receiver_nodes[0];
  const double r = g.spacing_m * std::sqrt(double((a.i - b.i) * (a.i - b.i) + (a.j - b.j) * (a.j - b.j) +
                                                  (a.k - b.k) * (a.k - b.k)));
  // Stop before the first wall reflection can arrive (nearest wall 1.5 m from the source).
  const int steps = (int)((r + 1.0) / 343.0 / g.dt_s);
  m.advance(steps);
  const auto& h = m.receiver_history()[0];
  size_t best = 0;
  for (size_t q = 0; q < h.size(); ++q)
    if (std::fabs(h[q]) > std::fabs(h[best])) best = q;
  // Sample q holds u at step q + 1; the source value of step n enters u^{n+1}.
  return {(r / 343.0 + width_s / 2) / g.dt_s, double(best)};
}

TEST(Arrival, AxialPulseArrivesAfterRoverC) {
  const Arrival a = run_arrival({1.0, 0.0, 0.0});
  EXPECT_NEAR(a.measured_samples, a.expected_samples, 2.0);
}

TEST(Arrival, DiagonalPulseArrivesAfterRoverC) {
  const Arrival a = run_arrival({0.6, 0.6, 0.6});
  EXPECT_NEAR(a.measured_samples, a.expected_samples, 2.0);
}

TEST(Arrival, AmplitudeFallsLikeOneOverR) {
  // Peak amplitude ratio at r and 2r (same direction) is about 2 for a spherical wave.
  WaveScene s = testing::cube_scene(3.0, 16000.0, Precision::Double);
  s.sources.push_back({{0.9, 1.5, 1.5}, {SignalKind::RaisedCosine, 1.0, 1.0e-3, 0.0, 0.0}, SourceQuantity::Scheme, Injection::Value});
  s.receivers.push_back({"near", {1.4, 1.5, 1.5}});
  s.receivers.push_back({"far", {1.9, 1.5, 1.5}});
  WaveModel m(s, BackendChoice::Cpu);
  m.advance((int)(1.6 / 343.0 / m.grid().dt_s));
  double pn = 0, pf = 0;
  for (double v : m.receiver_history()[0]) pn = std::max(pn, std::fabs(v));
  for (double v : m.receiver_history()[1]) pf = std::max(pf, std::fabs(v));
  const auto& g = m.grid();
  const double rn = std::abs(g.receiver_nodes[0].i - g.source_nodes[0].i);
  const double rf = std::abs(g.receiver_nodes[1].i - g.source_nodes[0].i);
  EXPECT_NEAR(pn / pf, rf / rn, 0.15 * rf / rn);
}

}  // namespace
}  // namespace ws
