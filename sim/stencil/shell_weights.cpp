#include "stencil/shell_weights.hpp"

#include <cmath>
#include <stdexcept>

#include "stencil/nnls.hpp"

namespace ws {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Directions covering the fundamental wedge of the cube's symmetry group (x >= y >= z >= 0):
// every (a, b, c) with a >= b >= c >= 0 and a + b + c = 12, normalised. Any direction of the
// sphere is the image of one of these under a cubic symmetry, under which S is invariant.
std::vector<std::array<double, 3>> wedge_directions() {
  std::vector<std::array<double, 3>> d;
  const int n = 12;
  for (int a = 0; a <= n; ++a)
    for (int b = 0; b <= a; ++b) {
      const int c = n - a - b;
      if (c < 0 || c > b) continue;
      const double len = std::sqrt(double(a * a + b * b + c * c));
      d.push_back({a / len, b / len, c / len});
    }
  return d;
}

// The least-squares system in alpha. Rows:
//   anisotropy   (L(k_jm) - mean_m L(k_jm)) / |k|^2   for radius j, direction m (target 0)
//   accuracy     w_acc * mean_m L(k_jm) / |k|^2        (target -w_acc: the exact symbol is -|k|^2)
//   consistency  w_sum * sum_p alpha_p                 (target w_sum)
struct FitSystem {
  DenseMatrix A{0, 0};
  std::vector<double> b;
  int aniso_rows = 0;
};

constexpr double kAccuracyWeight = 0.1;  // spread over directions matters most; the mean breaks ties
constexpr double kSumWeight = 100.0;
constexpr double kRidge = 1e-3;  // keeps the signed fit's weights bounded when shells are nearly dependent

FitSystem build_fit(const std::vector<std::vector<Triplet>>& pts, const std::vector<double>& c) {
  const int P = (int)pts.size();
  const auto dirs = wedge_directions();
  const int D = (int)dirs.size();
  const int J = 8;  // radii j pi / 16, up to pi / 2 (4 points per wavelength)
  FitSystem f;
  f.aniso_rows = J * D;
  f.A = DenseMatrix(J * D + J + 1, P);
  f.b.assign(f.A.rows, 0.0);
  std::vector<double> val(D);
  for (int p = 0; p < P; ++p) {
    for (int j = 1; j <= J; ++j) {
      const double kX = j * kPi / 16.0;
      double mean = 0.0;
      for (int m = 0; m < D; ++m) {
        double s = 0.0;
        for (const auto& l : pts[p]) s += std::cos(kX * (dirs[m][0] * l[0] + dirs[m][1] * l[1] + dirs[m][2] * l[2])) - 1.0;
        val[m] = c[p] * s / (kX * kX);
        mean += val[m] / D;
      }
      for (int m = 0; m < D; ++m) f.A((j - 1) * D + m, p) = val[m] - mean;
      f.A(J * D + j - 1, p) = kAccuracyWeight * mean;
    }
    f.A(J * D + J, p) = kSumWeight;
  }
  for (int j = 1; j <= J; ++j) f.b[J * D + j - 1] = -kAccuracyWeight;
  f.b[J * D + J] = kSumWeight;
  return f;
}

double anisotropy(const FitSystem& f, const std::vector<double>& alpha) {
  double r2 = 0.0;
  for (int r = 0; r < f.aniso_rows; ++r) {
    double s = 0.0;
    for (int p = 0; p < f.A.cols; ++p) s += f.A(r, p) * alpha[p];
    r2 += s * s;
  }
  return std::sqrt(r2 / f.aniso_rows);
}

void normalise(std::vector<double>& alpha) {
  double sum = 0.0;
  for (double a : alpha) sum += a;
  if (!(std::fabs(sum) > 1e-12)) throw std::runtime_error("isotropic_shell_weights: degenerate combination");
  for (double& a : alpha) a /= sum;  // exact consistency: sum alpha = 1
}

// Convex candidate: alpha_p = floor + beta_p, beta >= 0 (NNLS).
std::vector<double> convex_fit(const FitSystem& f) {
  const int P = f.A.cols;
  const double share_floor = kShellWeightFloor / P;
  std::vector<double> b = f.b;
  for (int r = 0; r < f.A.rows; ++r)
    for (int p = 0; p < P; ++p) b[r] -= f.A(r, p) * share_floor;
  const auto beta = nnls(f.A, b);
  std::vector<double> alpha(P);
  for (int p = 0; p < P; ++p) alpha[p] = share_floor + beta[p];
  normalise(alpha);
  return alpha;
}

// Signed candidate: plain least squares with a small ridge on alpha.
std::vector<double> signed_fit(const FitSystem& f) {
  const int P = f.A.cols;
  DenseMatrix A(f.A.rows + P, P);
  std::vector<double> b(A.rows, 0.0);
  for (int r = 0; r < f.A.rows; ++r) {
    for (int p = 0; p < P; ++p) A(r, p) = f.A(r, p);
    b[r] = f.b[r];
  }
  for (int p = 0; p < P; ++p) A(f.A.rows + p, p) = kRidge;
  auto alpha = least_squares(A, b);
  normalise(alpha);
  return alpha;
}

void fill_gammas(ShellWeights& w, const std::vector<std::vector<Triplet>>& pts, const std::vector<double>& c) {
  const size_t P = w.shells.size();
  w.gamma.resize(P);
  w.centre = 0.0;
  for (size_t p = 0; p < P; ++p) {
    w.gamma[p] = w.alpha[p] * c[p];
    w.centre -= w.gamma[p] * double(pts[p].size());
  }
}

}  // namespace

ShellWeights isotropic_shell_weights(const std::vector<Triplet>& omega) {
  if (omega.empty()) throw std::invalid_argument("isotropic_shell_weights: no shells");
  const int P = (int)omega.size();
  std::vector<std::vector<Triplet>> pts(P);
  std::vector<double> c(P);
  for (int p = 0; p < P; ++p) {
    pts[p] = shell_points(omega[p]);
    c[p] = 6.0 / (double(pts[p].size()) * norm2(omega[p]));
  }
  ShellWeights out;
  out.shells = omega;
  if (P == 1) {
    out.alpha = {1.0};
    out.method = "single shell";
    fill_gammas(out, pts, c);
    return out;
  }
  const FitSystem fit = build_fit(pts, c);
  out.alpha = convex_fit(fit);
  out.method = "convex";
  out.anisotropy = anisotropy(fit, out.alpha);
  fill_gammas(out, pts, c);

  // The signed fit is taken when it is more isotropic and still a stable Laplacian
  // (S(k) <= 0 everywhere, which compute_courant_max reports as a positive limit).
  ShellWeights sgn = out;
  try {
    sgn.alpha = signed_fit(fit);
  } catch (const std::runtime_error&) {
    return out;
  }
  sgn.method = "signed";
  sgn.anisotropy = anisotropy(fit, sgn.alpha);
  fill_gammas(sgn, pts, c);
  bool nonzero = true;
  for (double g : sgn.gamma) nonzero = nonzero && std::fabs(g) > 1e-9;
  if (nonzero && sgn.anisotropy < out.anisotropy && compute_courant_max(shell_stencil_points(sgn)) > 0.0) return sgn;
  return out;
}

std::vector<StencilPoint> shell_stencil_points(const ShellWeights& w) {
  std::vector<StencilPoint> out;
  out.push_back({0, 0, 0, w.centre});
  for (size_t p = 0; p < w.shells.size(); ++p) {
    for (const auto& l : shell_points(w.shells[p])) out.push_back({l[0], l[1], l[2], w.gamma[p]});
  }
  return out;
}

}  // namespace ws
