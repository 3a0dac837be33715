#include "stencil/families.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

#include "stencil/named27.hpp"
#include "stencil/shell_weights.hpp"

namespace ws {

namespace {

// Strict non-negative decimal integer: digits only, at most 6 of them.
bool parse_count(const std::string& s, int& out) {
  if (s.empty() || s.size() > 6) return false;
  int v = 0;
  for (char ch : s) {
    if (ch < '0' || ch > '9') return false;
    v = v * 10 + (ch - '0');
  }
  out = v;
  return true;
}

std::string valid_compact_radii() {
  std::string s;
  for (int R = 1; stencil_point_count(compact_shells(R)) <= kMaxStencilPoints; ++R)
    if (compact_radius_adds_shell(R)) s += (s.empty() ? "" : ", ") + std::to_string(R);
  return s;
}

[[noreturn]] void refuse(const std::string& name, const std::string& why) {
  throw std::invalid_argument("stencil '" + name + "': " + why + "; allowed: " + stencil_name_forms());
}

int parse_leggy(const std::string& name) {
  int M = 0;
  if (!parse_count(name.substr(6), M)) refuse(name, "M must be a whole number");
  if (M < 1 || M > kMaxLeggyM) refuse(name, "M = " + std::to_string(M) + " is outside 1.." + std::to_string(kMaxLeggyM));
  return M;
}

int parse_compact(const std::string& name) {
  int R = 0;
  if (!parse_count(name.substr(8), R)) refuse(name, "R must be a whole number");
  if (R < 1) refuse(name, "R must be at least 1");
  if (!compact_radius_adds_shell(R))
    refuse(name, "R = " + std::to_string(R) + " adds no shell (no lattice point has |q|^2 = " + std::to_string(R) +
                     ", so it would repeat the previous compact stencil)");
  if (stencil_point_count(compact_shells(R)) > kMaxStencilPoints)
    refuse(name, "R = " + std::to_string(R) + " gives " + std::to_string(stencil_point_count(compact_shells(R))) +
                     " points, more than " + std::to_string(kMaxStencilPoints));
  return R;
}

Triplet parse_box(const std::string& name) {
  const std::string arg = name.substr(4);
  Triplet q{};
  size_t start = 0;
  for (int d = 0; d < 3; ++d) {
    const size_t comma = arg.find(',', start);
    const bool last = d == 2;
    if (last != (comma == std::string::npos))
      refuse(name, "needs exactly three whole numbers q1,q2,q3");
    const std::string part = arg.substr(start, last ? std::string::npos : comma - start);
    if (!parse_count(part, q[d])) refuse(name, "needs exactly three whole numbers q1,q2,q3");
    start = comma + 1;
  }
  if (!in_shell_set(q)) refuse(name, triplet_text(q) + " is not in Q: need q1 >= q2 >= q3 >= 0 and q1 >= 1");
  const int K = stencil_point_count(box_shells(q));
  if (K > kMaxStencilPoints)
    refuse(name, "gives " + std::to_string(K) + " points, more than " + std::to_string(kMaxStencilPoints));
  return q;
}

Stencil from_shells(const std::string& name, StencilFamily family, const std::vector<Triplet>& omega) {
  Stencil s;
  s.name = name;
  s.family = family;
  s.points = shell_stencil_points(isotropic_shell_weights(omega));
  return s;
}

std::string box_name(const Triplet& q) {
  return "box:" + std::to_string(q[0]) + "," + std::to_string(q[1]) + "," + std::to_string(q[2]);
}

}  // namespace

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

Stencil make_leggy(int M) {
  if (M < 1 || M > kMaxLeggyM)
    throw std::invalid_argument("leggy:" + std::to_string(M) + " is not supported; allowed: leggy:M with M = 1.." +
                                std::to_string(kMaxLeggyM));
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

Stencil make_compact(int R) {
  return from_shells("compact:" + std::to_string(R), StencilFamily::Compact, compact_shells(R));
}

Stencil make_box(const Triplet& q) { return from_shells(box_name(q), StencilFamily::Box, box_shells(q)); }

Stencil build_stencil_by_name(const std::string& name) {
  if (name == "7pt") return make_leggy(1);
  if (name.rfind("leggy:", 0) == 0) return make_leggy(parse_leggy(name));
  if (name.rfind("compact:", 0) == 0) return make_compact(parse_compact(name));
  if (name.rfind("box:", 0) == 0) return make_box(parse_box(name));
  if (find_named27(name)) return make_named27(name);
  throw std::invalid_argument("unknown stencil '" + name + "'; allowed: " + stencil_name_forms());
}

std::vector<Triplet> stencil_shells(const std::string& name) {
  if (name == "7pt") return {{1, 0, 0}};
  if (name.rfind("leggy:", 0) == 0) {
    std::vector<Triplet> out;
    for (int m = 1; m <= parse_leggy(name); ++m) out.push_back({m, 0, 0});
    return out;
  }
  if (name.rfind("compact:", 0) == 0) return compact_shells(parse_compact(name));
  if (name.rfind("box:", 0) == 0) return box_shells(parse_box(name));
  if (find_named27(name)) return {};
  throw std::invalid_argument("unknown stencil '" + name + "'; allowed: " + stencil_name_forms());
}

std::vector<std::string> family_member_names(StencilFamily family, int count) {
  std::vector<std::string> out;
  switch (family) {
    case StencilFamily::Leggy:
      for (int M = 1; M <= kMaxLeggyM && (int)out.size() < count; ++M) out.push_back("leggy:" + std::to_string(M));
      break;
    case StencilFamily::Compact:
      for (int R = 1; (int)out.size() < count; ++R) {
        if (stencil_point_count(compact_shells(R)) > kMaxStencilPoints) break;
        if (compact_radius_adds_shell(R)) out.push_back("compact:" + std::to_string(R));
      }
      break;
    case StencilFamily::Box:
      for (Triplet q = {1, 0, 0}; (int)out.size() < count; q = next_in_lex_order(q)) {
        if (stencil_point_count(box_shells(q)) > kMaxStencilPoints) break;
        out.push_back(box_name(q));
      }
      break;
    case StencilFamily::Named27:
      for (const auto& s : named27_schemes())
        if ((int)out.size() < count) out.push_back(s.name);
      break;
  }
  return out;
}

std::string family_name(StencilFamily family) {
  switch (family) {
    case StencilFamily::Leggy: return "leggy";
    case StencilFamily::Compact: return "compact";
    case StencilFamily::Box: return "box";
    case StencilFamily::Named27: return "named27";
  }
  return "?";
}

std::string stencil_name_forms() {
  std::string named;
  for (const auto& s : named27_schemes()) named += std::string(named.empty() ? "" : ", ") + s.name;
  return "7pt; leggy:M (M = 1.." + std::to_string(kMaxLeggyM) + "); compact:R (R = " + valid_compact_radii() +
         "); box:q1,q2,q3 (whole numbers, q1 >= q2 >= q3 >= 0, q1 >= 1, at most " +
         std::to_string(kMaxStencilPoints) + " points, e.g. box:2,2,2 = 125 points); " + named;
}

}  // namespace ws
