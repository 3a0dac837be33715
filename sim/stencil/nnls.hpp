#pragma once
// Non-negative least squares: min ||A x - b||_2 subject to x >= 0 (Lawson & Hanson,
// "Solving Least Squares Problems", 1974, ch. 23). Small dense problems only (the stencil
// weight construction has at most a few hundred rows and a few tens of columns).
#include <cstddef>
#include <vector>

namespace ws {

// A dense matrix, row-major: a[r * cols + c].
struct DenseMatrix {
  int rows = 0, cols = 0;
  std::vector<double> a;
  DenseMatrix(int r, int c) : rows(r), cols(c), a((std::size_t)r * c, 0.0) {}
  double& operator()(int r, int c) { return a[(std::size_t)r * cols + c]; }
  double operator()(int r, int c) const { return a[(std::size_t)r * cols + c]; }
};

// Least squares min ||A x - b|| by Householder QR (A has full column rank; throws otherwise).
std::vector<double> least_squares(const DenseMatrix& A, const std::vector<double>& b);

// Lawson-Hanson active-set NNLS.
std::vector<double> nnls(const DenseMatrix& A, const std::vector<double>& b);

}  // namespace ws
