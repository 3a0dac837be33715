// Switching kernels between steps keeps the simulation: a run that changes the
// update kernel, its cache mode and its block several times ends with the same
// field (both time levels) and the same receiver signal as a run that never
// switched, within float rounding. This is what the GUI's kernel dropdown relies on.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/gpu.hpp"
#include "common/random_field.hpp"
#include "cuda/cuda_solver.hpp"
#include "kernels/kernel_cases.hpp"

namespace ws {
namespace {

struct Setting {
  std::string id;
  LaunchOptions options;
};

// Every 7-point variant, alternating the read-only cache, with this family's
// variants also at one non-default block each.
std::vector<Setting> schedule(Precision p) {
  const Stencil st = make_stencil("7pt");
  std::vector<Setting> out;
  bool ro = false;
  for (const auto& v : KernelRegistry::instance().all()) {
    if (!v.supports(st) || !v.has_precision(p)) continue;
    ro = !ro;
    out.push_back({v.id, LaunchOptions{v.default_block, ro || !v.has_readonly_toggle}});
    const auto alt = testing::alternate_blocks(v);
    if (!alt.empty()) out.push_back({v.id, LaunchOptions{alt[1 % alt.size()], !ro || !v.has_readonly_toggle}});
  }
  return out;
}

void switching_matches(Precision p, double tol) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  const int nx = 45, ny = 38, nz = 29;
  auto make = [&](const std::string& id) {
    // lambda = 0.5 (exact in float) keeps float rounding growth small: at the Courant
    // limit random fields amplify rounding differences ~20x more over these steps.
    auto s = make_cuda_solver(p, st, nx, ny, nz, 0.5, 1.0 / 44100, id);
    SourceSignal sig;
    sig.kind = SignalKind::RaisedCosine;
    sig.width_s = 4e-4;
    s->set_sources({{{11, 9, 7}, sig}});
    s->set_receivers({{30, 25, 20}});
    const auto& L = s->layout();
    s->write_state(testing::random_field(L, 5), testing::random_field(L, 6), 0);
    return s;
  };
  auto steady = make("tiling3d");
  auto switching = make("tiling3d");
  const auto plan = schedule(p);
  ASSERT_GE(plan.size(), 10u);
  const int chunk = 23;  // odd, so the swap parity of the two grids differs at each switch
  for (const auto& s : plan) {
    switching->set_kernel(s.id, s.options);
    switching->advance(chunk);
  }
  steady->advance(chunk * (int)plan.size());
  ASSERT_EQ(steady->step(), switching->step());

  std::vector<double> a, ap, b, bp;
  steady->read_state(a, ap);
  switching->read_state(b, bp);
  const auto& L = steady->layout();
  const auto [d, m] = testing::max_diff(b, a, L);
  EXPECT_LE(d, tol * m) << "u^n after " << plan.size() << " switches: max |diff| " << d << " vs max |u| " << m;
  const auto [dp, mp] = testing::max_diff(bp, ap, L);
  EXPECT_LE(dp, tol * mp) << "u^{n-1}: max |diff| " << dp << " vs max |u| " << mp;
  const auto ra = steady->take_receiver_samples(), rb = switching->take_receiver_samples();
  ASSERT_EQ(ra.size(), 1u);
  ASSERT_EQ(rb.size(), 1u);
  ASSERT_EQ(ra[0].size(), rb[0].size());
  for (size_t q = 0; q < ra[0].size(); ++q) ASSERT_NEAR(ra[0][q], rb[0][q], tol * m) << "receiver sample " << q;
}

TEST(KernelSwitching, SameFieldAsANeverSwitchedRunDouble) { switching_matches(Precision::Double, 1e-12); }
TEST(KernelSwitching, SameFieldAsANeverSwitchedRunFloat) { switching_matches(Precision::Float, 1e-5); }

}  // namespace
}  // namespace ws
