#include "stencil/shells.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

namespace ws {

bool in_shell_set(const Triplet& q) { return q[0] >= q[1] && q[1] >= q[2] && q[2] >= 0 && q[0] >= 1; }

std::vector<Triplet> shell_points(const Triplet& q) {
  if (!in_shell_set(q)) throw std::invalid_argument("shell " + triplet_text(q) + " is not in Q");
  // Every permutation of every sign choice; the set removes the repeats that zeros and
  // equal components produce (which is why |P(q)| is 6, 8, 12, 24 or 48 and not always 48).
  std::set<Triplet> pts;
  Triplet perm = {q[2], q[1], q[0]};  // ascending, as std::next_permutation wants
  do {
    for (int s = 0; s < 8; ++s)
      pts.insert({(s & 1) ? -perm[0] : perm[0], (s & 2) ? -perm[1] : perm[1], (s & 4) ? -perm[2] : perm[2]});
  } while (std::next_permutation(perm.begin(), perm.end()));
  return {pts.begin(), pts.end()};
}

std::string triplet_text(const Triplet& q) {
  return "(" + std::to_string(q[0]) + "," + std::to_string(q[1]) + "," + std::to_string(q[2]) + ")";
}

std::vector<Triplet> compact_shells(int R) {
  std::vector<Triplet> out;
  for (int a = 1; a * a <= R; ++a)
    for (int b = 0; b <= a; ++b)
      for (int c = 0; c <= b; ++c)
        if (a * a + b * b + c * c <= R) out.push_back({a, b, c});
  std::sort(out.begin(), out.end(), [](const Triplet& x, const Triplet& y) {
    return norm2(x) != norm2(y) ? norm2(x) < norm2(y) : x < y;
  });
  return out;
}

bool compact_radius_adds_shell(int R) {
  if (R < 1) return false;
  for (int a = 1; a * a <= R; ++a)
    for (int b = 0; b <= a; ++b)
      for (int c = 0; c <= b; ++c)
        if (a * a + b * b + c * c == R) return true;
  return false;
}

Triplet next_in_lex_order(const Triplet& q) {
  if (q[2] < q[1]) return {q[0], q[1], q[2] + 1};
  if (q[1] < q[0]) return {q[0], q[1] + 1, 0};
  return {q[0] + 1, 0, 0};
}

std::vector<Triplet> box_shells(const Triplet& q) {
  if (!in_shell_set(q)) throw std::invalid_argument("box triplet " + triplet_text(q) + " is not in Q");
  std::vector<Triplet> out;
  for (Triplet t = {1, 0, 0}; t <= q; t = next_in_lex_order(t)) out.push_back(t);
  return out;
}

int stencil_point_count(const std::vector<Triplet>& omega) {
  int n = 1;
  for (const auto& q : omega) n += (int)shell_points(q).size();
  return n;
}

}  // namespace ws
