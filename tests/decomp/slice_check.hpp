#pragma once
// The display's view of a decomposed grid (WaveSolver::slice_field): the points of the
// three slices through (i, j, k) must equal the grid's u^n; returns how many differ.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "decomp/decomp_cases.hpp"
#include "wave/wave_solver.hpp"

namespace ws::test {

inline long long slice_mismatches(const WaveSolver& s, const std::vector<double>& u_cur, int i, int j, int k) {
  const FieldView v = s.slice_field(i, j, k);
  const FieldLayout& L = v.layout;
  // A view on a device (slabs all on GPUs) is read through a copy of the whole array.
  const size_t bytes = (size_t)L.total * (v.precision == Precision::Float ? sizeof(float) : sizeof(double));
  std::vector<unsigned char> copy;
  const void* data = v.data;
  if (v.on_device) {
    copy.resize(bytes);
    if (cudaMemcpy(copy.data(), v.data, bytes, cudaMemcpyDeviceToHost) != cudaSuccess) return -1;
    data = copy.data();
  }
  auto at = [&](int64_t q) {
    return v.precision == Precision::Float ? (double)static_cast<const float*>(data)[q]
                                           : static_cast<const double*>(data)[q];
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

// Writes `ref`'s state into `many` (an nx x ny x nz grid) and checks the slices through
// points on the faces and inside; then (the check can fail) that a state written
// afterwards shows in the next slices, not in stale ones.
inline void expect_slices_follow_the_state(WaveSolver& many, const CaseResult& ref, int nx, int ny, int nz) {
  many.write_state(ref.u_cur, ref.u_prev, ref.step);
  for (const auto& p : {std::array<int, 3>{0, 0, 0}, {nx / 2, ny / 3, nz / 4}, {nx - 1, ny - 1, nz - 1},
                        {1, ny / 2, nz / 2}})
    EXPECT_EQ(slice_mismatches(many, ref.u_cur, p[0], p[1], p[2]), 0) << p[0] << "," << p[1] << "," << p[2];
  std::vector<double> moved = ref.u_cur;
  for (double& v : moved) v = 2 * v;  // exact in float too; the fixed halo stays 0
  many.write_state(moved, ref.u_prev, ref.step);
  EXPECT_GT(slice_mismatches(many, ref.u_cur, 1, 2, 3), 0);
  EXPECT_EQ(slice_mismatches(many, moved, 1, 2, 3), 0);
}

}  // namespace ws::test
