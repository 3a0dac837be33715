// Shells P(q) and the three families of Hamilton et al. section 2.2, checked against brute-force
// counts of lattice points and against the point counts the paper quotes.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "stencil/families.hpp"
#include "stencil/shells.hpp"

namespace ws {
namespace {

// The shell triplet of a lattice point: |components| sorted descending.
Triplet pattern(int x, int y, int z) {
  Triplet t = {std::abs(x), std::abs(y), std::abs(z)};
  std::sort(t.begin(), t.end(), std::greater<int>());
  return t;
}

std::set<Triplet> point_set(const Stencil& s) {
  std::set<Triplet> out;
  for (const auto& p : s.points) out.insert({p.dx, p.dy, p.dz});
  return out;
}

TEST(Shells, CardinalitiesAreThoseOfThePaper) {
  EXPECT_EQ(shell_points({1, 0, 0}).size(), 6u);
  EXPECT_EQ(shell_points({1, 1, 1}).size(), 8u);
  EXPECT_EQ(shell_points({1, 1, 0}).size(), 12u);
  EXPECT_EQ(shell_points({2, 1, 0}).size(), 24u);
  EXPECT_EQ(shell_points({2, 2, 1}).size(), 24u);
  EXPECT_EQ(shell_points({3, 2, 1}).size(), 48u);
}

TEST(Shells, ShellIsEveryLatticePointWithThatPattern) {
  for (Triplet q : {Triplet{1, 0, 0}, Triplet{2, 1, 1}, Triplet{3, 2, 1}, Triplet{2, 2, 2}, Triplet{4, 1, 0}}) {
    std::set<Triplet> brute;
    for (int x = -5; x <= 5; ++x)
      for (int y = -5; y <= 5; ++y)
        for (int z = -5; z <= 5; ++z)
          if (pattern(x, y, z) == q) brute.insert({x, y, z});
    const auto pts = shell_points(q);
    EXPECT_EQ(std::set<Triplet>(pts.begin(), pts.end()), brute) << triplet_text(q);
    EXPECT_EQ(pts.size(), brute.size()) << "repeated points in " << triplet_text(q);
  }
}

TEST(Shells, OutsideQIsRefused) {
  EXPECT_FALSE(in_shell_set({0, 0, 0}));
  EXPECT_FALSE(in_shell_set({1, 2, 0}));
  EXPECT_FALSE(in_shell_set({2, 1, -1}));
  EXPECT_THROW(shell_points({1, 2, 0}), std::invalid_argument);
}

TEST(Families, LeggyHasSixMPlusOnePoints) {
  for (int M = 1; M <= 8; ++M) EXPECT_EQ(make_stencil("leggy:" + std::to_string(M)).size(), 6 * M + 1);
}

TEST(Families, CompactCountsMatchBruteForceAndThePaper) {
  // Brute force: S_R^(c) is every lattice point with |p|^2 <= R (eq. 9 with the union of eq. 7).
  const auto names = family_member_names(StencilFamily::Compact, 20);
  ASSERT_EQ(names.size(), 20u);
  EXPECT_EQ(names.back(), "compact:22");  // the paper's largest, K = 461
  for (const auto& n : names) {
    const int R = std::stoi(n.substr(8));
    int brute = 0;
    for (int x = -5; x <= 5; ++x)
      for (int y = -5; y <= 5; ++y)
        for (int z = -5; z <= 5; ++z) brute += (x * x + y * y + z * z <= R);
    EXPECT_EQ(make_stencil(n).size(), brute) << n;
  }
  EXPECT_EQ(make_stencil("compact:1").size(), 7);
  EXPECT_EQ(make_stencil("compact:2").size(), 19);
  EXPECT_EQ(make_stencil("compact:3").size(), 27);
  EXPECT_EQ(make_stencil("compact:22").size(), 461);
}

TEST(Families, CompactRadiiAreTheSumsOfThreeSquares) {
  // Legendre: R is a sum of three squares unless R = 4^a (8b + 7).
  for (int R = 1; R <= 40; ++R) {
    int r = R;
    while (r % 4 == 0) r /= 4;
    EXPECT_EQ(compact_radius_adds_shell(R), r % 8 != 7) << R;
  }
}

TEST(Families, BoxCountsMatchBruteForceAndThePaper) {
  const auto names = family_member_names(StencilFamily::Box, 20);
  ASSERT_EQ(names.size(), 20u);
  EXPECT_EQ(names.front(), "box:1,0,0");
  EXPECT_EQ(names.back(), "box:4,0,0");
  for (const auto& n : names) {
    const auto omega = stencil_shells(n);
    const Triplet q = omega.back();
    int brute = 1;  // the centre
    for (int x = -5; x <= 5; ++x)
      for (int y = -5; y <= 5; ++y)
        for (int z = -5; z <= 5; ++z)
          if (x || y || z) brute += (pattern(x, y, z) <= q);  // lexicographic, eq. (10)
    EXPECT_EQ(make_stencil(n).size(), brute) << n;
  }
  EXPECT_EQ(make_stencil("box:2,2,2").size(), 125);  // the 5x5x5 cube
  EXPECT_EQ(make_stencil("box:1,1,1").size(), 27);
}

TEST(Families, CompactAndBoxCoincideExactlyWhereThePaperSays) {
  // "S_R^(c) with R in {1,2,3,4,5,6,8,12,13,14} have equivalent counterparts S_q^(b)".
  std::vector<std::set<Triplet>> boxes;
  for (const auto& n : family_member_names(StencilFamily::Box, 40)) boxes.push_back(point_set(make_stencil(n)));
  std::set<int> equivalent;
  for (const auto& n : family_member_names(StencilFamily::Compact, 20)) {
    const auto pts = point_set(make_stencil(n));
    if (std::find(boxes.begin(), boxes.end(), pts) != boxes.end()) equivalent.insert(std::stoi(n.substr(8)));
  }
  EXPECT_EQ(equivalent, (std::set<int>{1, 2, 3, 4, 5, 6, 8, 12, 13, 14}));
}

TEST(Families, NamedSchemesPointCounts) {
  EXPECT_EQ(make_stencil("srl").size(), 7);
  EXPECT_EQ(make_stencil("ccp").size(), 13);
  EXPECT_EQ(make_stencil("octa").size(), 9);
  EXPECT_EQ(make_stencil("iiso").size(), 19);
  EXPECT_EQ(make_stencil("iiso2").size(), 27);
  EXPECT_EQ(make_stencil("idwm").size(), 27);
  EXPECT_EQ(make_stencil("iwb").size(), 27);
  EXPECT_EQ(family_member_names(StencilFamily::Named27, 20).size(), 7u);
  EXPECT_EQ(family_member_names(StencilFamily::Leggy, 20).size(), 8u);
}

}  // namespace
}  // namespace ws
