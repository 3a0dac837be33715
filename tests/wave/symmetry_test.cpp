// A source at the centre of a box keeps the field mirror-symmetric about the
// three mid-planes (and, in a cube, symmetric under axis swaps).
#include <gtest/gtest.h>

#include <cmath>

#include "cpu/cpu_solver.hpp"

namespace ws {
namespace {

TEST(Symmetry, CentredSourceKeepsMirrorSymmetry) {
  const int n = 31;  // odd: the centre is a node
  const Stencil st = make_stencil("7pt");
  auto solver = make_cpu_solver(Precision::Double, st, n, n, n, st.courant_max, 1.0 / 16000);
  solver->set_sources({{{n / 2, n / 2, n / 2}, {SignalKind::RaisedCosine, 1.0, 1.0e-3, 0.0, 0.0}}});
  solver->advance(60);
  std::vector<double> u, up;
  solver->read_state(u, up);
  const FieldLayout& L = solver->layout();
  double max_u = 0, max_asym = 0;
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        const double v = u[L.index(i, j, k)];
        max_u = std::max(max_u, std::fabs(v));
        max_asym = std::max(max_asym, std::fabs(v - u[L.index(n - 1 - i, j, k)]));
        max_asym = std::max(max_asym, std::fabs(v - u[L.index(i, n - 1 - j, k)]));
        max_asym = std::max(max_asym, std::fabs(v - u[L.index(i, j, n - 1 - k)]));
        max_asym = std::max(max_asym, std::fabs(v - u[L.index(j, i, k)]));
        max_asym = std::max(max_asym, std::fabs(v - u[L.index(k, j, i)]));
      }
  ASSERT_GT(max_u, 1e-6) << "the pulse never entered the grid";
  EXPECT_LE(max_asym, 1e-12 * max_u);
}

TEST(Symmetry, OffCentreSourceBreaksIt) {
  // The check above can fail: move the source by one node and the asymmetry is large.
  const int n = 31;
  const Stencil st = make_stencil("7pt");
  auto solver = make_cpu_solver(Precision::Double, st, n, n, n, st.courant_max, 1.0 / 16000);
  solver->set_sources({{{n / 2 + 1, n / 2, n / 2}, {SignalKind::RaisedCosine, 1.0, 1.0e-3, 0.0, 0.0}}});
  solver->advance(60);
  std::vector<double> u, up;
  solver->read_state(u, up);
  const FieldLayout& L = solver->layout();
  double max_asym = 0;
  for (int i = 0; i < n; ++i)
    max_asym = std::max(max_asym, std::fabs(u[L.index(i, n / 2, n / 2)] - u[L.index(n - 1 - i, n / 2, n / 2)]));
  EXPECT_GT(max_asym, 1e-6);
}

}  // namespace
}  // namespace ws
