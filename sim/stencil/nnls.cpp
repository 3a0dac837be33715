#include "stencil/nnls.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ws {

std::vector<double> least_squares(const DenseMatrix& A0, const std::vector<double>& b0) {
  DenseMatrix A = A0;
  std::vector<double> b = b0;
  const int m = A.rows, n = A.cols;
  if (m < n) throw std::invalid_argument("least_squares: fewer rows than columns");
  double scale = 0.0;
  for (double v : A.a) scale = std::max(scale, std::fabs(v));
  for (int j = 0; j < n; ++j) {
    // Householder reflection that zeroes column j below the diagonal.
    double norm = 0.0;
    for (int i = j; i < m; ++i) norm += A(i, j) * A(i, j);
    norm = std::sqrt(norm);
    if (norm <= 1e-13 * scale) throw std::runtime_error("least_squares: rank-deficient columns");
    const double alpha = A(j, j) > 0 ? -norm : norm;
    std::vector<double> v(m - j);
    for (int i = j; i < m; ++i) v[i - j] = A(i, j);
    v[0] -= alpha;
    double vv = 0.0;
    for (double x : v) vv += x * x;
    if (vv == 0.0) continue;
    for (int c = j; c < n; ++c) {
      double d = 0.0;
      for (int i = j; i < m; ++i) d += v[i - j] * A(i, c);
      d *= 2.0 / vv;
      for (int i = j; i < m; ++i) A(i, c) -= d * v[i - j];
    }
    double d = 0.0;
    for (int i = j; i < m; ++i) d += v[i - j] * b[i];
    d *= 2.0 / vv;
    for (int i = j; i < m; ++i) b[i] -= d * v[i - j];
  }
  std::vector<double> x(n, 0.0);
  for (int j = n - 1; j >= 0; --j) {
    double s = b[j];
    for (int c = j + 1; c < n; ++c) s -= A(j, c) * x[c];
    x[j] = s / A(j, j);
  }
  return x;
}

namespace {

// Solve the least-squares problem restricted to the columns in `passive`; others stay 0.
std::vector<double> solve_on(const DenseMatrix& A, const std::vector<double>& b, const std::vector<int>& passive) {
  DenseMatrix sub(A.rows, (int)passive.size());
  for (int r = 0; r < A.rows; ++r)
    for (int c = 0; c < (int)passive.size(); ++c) sub(r, c) = A(r, passive[c]);
  const auto xs = least_squares(sub, b);
  std::vector<double> z(A.cols, 0.0);
  for (size_t c = 0; c < passive.size(); ++c) z[passive[c]] = xs[c];
  return z;
}

}  // namespace

std::vector<double> nnls(const DenseMatrix& A, const std::vector<double>& b) {
  const int m = A.rows, n = A.cols;
  std::vector<double> x(n, 0.0);
  std::vector<bool> in_p(n, false), excluded(n, false);
  auto gradient = [&] {
    std::vector<double> r(b);
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) r[i] -= A(i, j) * x[j];
    std::vector<double> w(n, 0.0);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) w[j] += A(i, j) * r[i];
    return w;
  };
  double wscale = 0.0;
  for (double v : A.a) wscale = std::max(wscale, std::fabs(v));
  for (double v : b) wscale = std::max(wscale, std::fabs(v));
  const double tol = 1e-12 * wscale * wscale * m;
  for (int outer = 0; outer < 3 * n + 10; ++outer) {
    const auto w = gradient();
    int jmax = -1;
    for (int j = 0; j < n; ++j)
      if (!in_p[j] && !excluded[j] && w[j] > tol && (jmax < 0 || w[j] > w[jmax])) jmax = j;
    if (jmax < 0) break;
    in_p[jmax] = true;
    for (int inner = 0; inner < 3 * n + 10; ++inner) {
      std::vector<int> passive;
      for (int j = 0; j < n; ++j)
        if (in_p[j]) passive.push_back(j);
      std::vector<double> z;
      try {
        z = solve_on(A, b, passive);
      } catch (const std::runtime_error&) {
        // The new column depends on the passive ones: it adds nothing, keep it at zero.
        in_p[jmax] = false;
        excluded[jmax] = true;
        break;
      }
      bool feasible = true;
      for (int j : passive) feasible = feasible && z[j] > 0.0;
      if (feasible) {
        x = z;
        break;
      }
      // Step from x towards z until the first passive variable reaches zero, then drop it.
      double alpha = 1.0;
      for (int j : passive)
        if (z[j] <= 0.0) alpha = std::min(alpha, x[j] / (x[j] - z[j]));
      for (int j = 0; j < n; ++j) x[j] += alpha * (z[j] - x[j]);
      for (int j : passive)
        if (x[j] <= 1e-15) {
          in_p[j] = false;
          x[j] = 0.0;
        }
    }
  }
  return x;
}

}  // namespace ws
