#pragma once
// The display's view of a decomposed grid (WaveSolver::slice_field): the points of the
// three slices through (i, j, k) must equal the grid's u^n; returns how many differ.
#include <vector>

#include "wave/wave_solver.hpp"

namespace ws::test {

inline long long slice_mismatches(const WaveSolver& s, const std::vector<double>& u_cur, int i, int j, int k) {
  const FieldView v = s.slice_field(i, j, k);
  const FieldLayout& L = v.layout;
  auto at = [&](int64_t q) {
    return v.precision == Precision::Float ? (double)static_cast<const float*>(v.data)[q]
                                           : static_cast<const double*>(v.data)[q];
  };
  long long bad = 0;
  const int h = L.halo;
  for (int b = -h; b < L.ny + h; ++b)
    for (int a = -h; a < L.nx + h; ++a) bad += at(L.index(a, b, k)) != u_cur[L.index(a, b, k)];
  for (int c = 0; c < L.nz; ++c) {
    for (int a = -h; a < L.nx + h; ++a) bad += at(L.index(a, j, c)) != u_cur[L.index(a, j, c)];
    for (int b = -h; b < L.ny + h; ++b) bad += at(L.index(i, b, c)) != u_cur[L.index(i, b, c)];
  }
  return bad;
}

}  // namespace ws::test
