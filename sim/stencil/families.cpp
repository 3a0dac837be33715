#include "stencil/families.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

namespace ws {

namespace {

// Centred finite-difference weights of order 2M for d2/dx2 at offsets -M..M (Fornberg's
// closed form): c_m = 2 (-1)^{m+1} (M!)^2 / (m^2 (M-m)! (M+m)!), c_0 = -2 sum c_m.
std::vector<double> centred_second_derivative(int M) {
  std::vector<double> c(M + 1, 0.0);
  double sum = 0.0;
  for (int m = 1; m <= M; ++m) {
    // (M!)^2 / ((M-m)! (M+m)!) computed as a product to stay exact-ish for M <= 8.
    double r = 1.0;
    for (int j = 1; j <= m; ++j) r *= double(M - m + j) / double(M + j);
    c[m] = 2.0 * ((m % 2) ? 1.0 : -1.0) * r / double(m * m);
    sum += c[m];
  }
  c[0] = -2.0 * sum;
  return c;
}

}  // namespace

Stencil make_leggy(int M) {
  if (M < 1 || M > 8)
    throw std::invalid_argument("leggy:" + std::to_string(M) + " is not supported; allowed: leggy:M with M = 1..8");
  const auto c = centred_second_derivative(M);
  Stencil s;
  s.name = "leggy:" + std::to_string(M);
  s.family = StencilFamily::Leggy;
  s.points.push_back({0, 0, 0, 3.0 * c[0]});
  for (int m = 1; m <= M; ++m) {
    for (int sgn : {-1, 1}) {
      s.points.push_back({sgn * m, 0, 0, c[m]});
      s.points.push_back({0, sgn * m, 0, c[m]});
      s.points.push_back({0, 0, sgn * m, c[m]});
    }
  }
  return s;
}

Stencil build_stencil_by_name(const std::string& name) {
  if (name == "7pt" || name == "leggy:1") return make_leggy(1);
  if (name.rfind("leggy:", 0) == 0) {
    const std::string arg = name.substr(6);
    char* end = nullptr;
    const long M = std::strtol(arg.c_str(), &end, 10);
    if (arg.empty() || *end != '\0')
      throw std::invalid_argument("stencil '" + name + "': malformed; allowed: leggy:M with M = 1..8");
    return make_leggy((int)M);
  }
  throw std::invalid_argument("unknown stencil '" + name + "'; allowed: 7pt, leggy:M (M = 1..8)");
}

}  // namespace ws
