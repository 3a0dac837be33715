// CPU-only checks of the large-stencil registry entries: they exist with both
// precisions, each supports exactly the stencils it claims, and a launcher given
// a stencil it does not run throws a clear std::invalid_argument before touching
// the device (so these run without a GPU).
#include <gtest/gtest.h>

#include <string>

#include "bigstencil/cases.hpp"
#include "bigstencil/test_stencils.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/leggy_common.hpp"
#include "stencil/families.hpp"

namespace ws::testing {
namespace {

const KernelVariant& kernel(const std::string& id) { return KernelRegistry::instance().at(id); }

// A leggy stencil of radius M built by hand (make_stencil refuses M > 8).
Stencil hand_leggy(int M) {
  Stencil s;
  s.name = "hand:leggy" + std::to_string(M);
  s.points.push_back({0, 0, 0, -6.0 * M});
  for (int m = 1; m <= M; ++m)
    for (int sg : {-1, 1}) {
      s.points.push_back({sg * m, 0, 0, 1.0});
      s.points.push_back({0, sg * m, 0, 1.0});
      s.points.push_back({0, 0, sg * m, 1.0});
    }
  s.radius = M;
  return s;
}

TEST(BigStencilRegistry, EntriesExistWithBothPrecisions) {
  for (const auto& id : bigstencil_kernel_ids()) {
    const KernelVariant& v = kernel(id);
    EXPECT_TRUE(v.has_precision(Precision::Float)) << id;
    EXPECT_TRUE(v.has_precision(Precision::Double)) << id;
    EXPECT_FALSE(v.name.empty()) << id;
    EXPECT_FALSE(v.stencils.empty()) << id;
    EXPECT_GE(v.default_block.threads(), 32) << id;
    EXPECT_LE(v.default_block.threads(), 512) << id;
    ASSERT_NE(v.supports, nullptr) << id;
  }
}

TEST(BigStencilRegistry, LeggyKernelsRunLeggy1To8Only) {
  for (const char* id : {"ztma_leggy", "ztile_leggy", "zvec_leggy", "kernelB", "regqueue_leggy", "pencils_leggy"}) {
    const KernelVariant& v = kernel(id);
    for (int m = 1; m <= 8; ++m) EXPECT_TRUE(v.supports(make_stencil("leggy:" + std::to_string(m)))) << id << " M=" << m;
    EXPECT_TRUE(v.supports(make_stencil("7pt"))) << id;
    for (const char* n : {"hand:box27", "hand:box125", "hand:ball5", "hand:ball22"})
      EXPECT_FALSE(v.supports(test_stencil(n))) << id << " must not claim " << n;
    EXPECT_FALSE(v.supports(hand_leggy(9))) << id << " must refuse M = 9";
    // Axis weights that differ between axes are not the S_M the kernels compute.
    Stencil skew = make_stencil("leggy:2");
    for (auto& p : skew.points)
      if (p.dy != 0) p.w *= 1.5;
    EXPECT_FALSE(v.supports(skew)) << id << " must refuse unequal axis weights";
  }
}

// The solver takes the first supporting variant: for every leggy stencil that must
// be the fastest leggy kernel measured on the H200 in float (docs/benchmarks.md).
TEST(BigStencilRegistry, DefaultLeggyKernelIsZtma) {
  for (int m = 2; m <= 8; ++m)
    for (Precision p : {Precision::Float, Precision::Double}) {
      const auto v = KernelRegistry::instance().supporting(make_stencil("leggy:" + std::to_string(m)), p);
      ASSERT_FALSE(v.empty());
      EXPECT_EQ(v.front()->id, "ztma_leggy") << "leggy:" << m << " " << to_string(p);
    }
}

// ztma_leggy compiles its block width in: the preferred block follows the radius
// (the H200 sweep's best), and any other width is refused with the allowed form
// before the device is touched.
TEST(BigStencilRegistry, ZtmaBlockFollowsTheRadiusAndOtherWidthsAreRefused) {
  const KernelVariant& v = kernel("ztma_leggy");
  ASSERT_NE(v.block_for, nullptr);
  const BlockShape b1 = preferred_block(v, make_stencil("leggy:1"), Precision::Float);
  const BlockShape b8 = preferred_block(v, make_stencil("leggy:8"), Precision::Float);
  EXPECT_EQ(b1.x, 16);
  EXPECT_EQ(b1.y, 16);
  EXPECT_EQ(b8.x, 8);
  EXPECT_EQ(b8.y, 32);
  for (int m = 1; m <= 8; ++m)
    for (Precision p : {Precision::Float, Precision::Double}) {
      const BlockShape b = preferred_block(v, make_stencil("leggy:" + std::to_string(m)), p);
      EXPECT_LE(b.threads(), 256) << m;
      EXPECT_EQ(b.z, 1);
    }
  const Stencil l8 = make_stencil("leggy:8");
  const FieldLayout L = make_layout(40, 40, 40, 8, 4);
  StepArgs<float> a{nullptr, nullptr, L, &l8, 0.1};
  try {
    v.launch_float(a, LaunchOptions{{16, 16, 1}, true}, nullptr);
    ADD_FAILURE() << "ztma_leggy accepted a 16-wide block for leggy:8 in float";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("allowed: 8xBY with BY = 1..32"), std::string::npos) << e.what();
  }
  EXPECT_THROW(v.launch_float(a, LaunchOptions{{8, 33, 1}, true}, nullptr), std::invalid_argument);
  EXPECT_THROW(v.launch_float(a, LaunchOptions{{8, 0, 1}, true}, nullptr), std::invalid_argument);
}

// A switch of stencil or precision under ztma_leggy keeps a block it still accepts and
// otherwise takes its preferred block for the new pair; other kernels keep any block.
TEST(BigStencilRegistry, BlockAfterSwitchFollowsZtmaWidths) {
  const KernelVariant& v = kernel("ztma_leggy");
  ASSERT_NE(v.block_error, nullptr);
  const Stencil l2 = make_stencil("leggy:2"), l6 = make_stencil("leggy:6"), l8 = make_stencil("leggy:8");
  EXPECT_EQ(v.block_error(l8, Precision::Float, {8, 32, 1}), "");
  EXPECT_NE(v.block_error(l8, Precision::Float, {16, 16, 1}).find("allowed: 8xBY"), std::string::npos);
  EXPECT_NE(v.block_error(l8, Precision::Double, {8, 32, 1}).find("allowed: 16xBY"), std::string::npos);
  const BlockShape to8 = block_after_switch(v, l8, Precision::Float, {16, 16, 1});
  EXPECT_EQ(to8.x, 8);
  EXPECT_EQ(to8.y, 32);
  const BlockShape kept = block_after_switch(v, l6, Precision::Float, {8, 20, 1});
  EXPECT_EQ(kept.x, 8);
  EXPECT_EQ(kept.y, 20);
  const BlockShape to2 = block_after_switch(v, l2, Precision::Float, {8, 20, 1});
  EXPECT_EQ(to2.x, 16);
  const BlockShape other = block_after_switch(kernel("ztile_leggy"), l8, Precision::Float, {24, 5, 1});
  EXPECT_EQ(other.x, 24);
  EXPECT_EQ(other.y, 5);
}

// Kernels without a per-stencil block keep their default block everywhere.
TEST(BigStencilRegistry, PreferredBlockIsTheDefaultWithoutBlockFor) {
  const KernelVariant& v = kernel("kernelA");
  EXPECT_EQ(v.block_for, nullptr);
  const BlockShape b = preferred_block(v, make_stencil("leggy:8"), Precision::Float);
  EXPECT_EQ(b.x, v.default_block.x);
  EXPECT_EQ(b.y, v.default_block.y);
}

TEST(BigStencilRegistry, CompactTiledRunsRadius1To4) {
  const KernelVariant& v = kernel("compact_tiled");
  for (const char* n : {"hand:box27", "hand:box125", "hand:ball5", "hand:ball9", "hand:ball22", "leggy:1", "leggy:4"})
    EXPECT_TRUE(v.supports(test_stencil(n))) << n;
  for (const char* n : {"leggy:5", "leggy:8"}) EXPECT_FALSE(v.supports(test_stencil(n))) << n;
}

TEST(BigStencilRegistry, KernelARunsUpTo461Points) {
  const KernelVariant& v = kernel("kernelA");
  for (const auto& n : test_stencil_names()) EXPECT_TRUE(v.supports(test_stencil(n))) << n;
  Stencil big = test_stencil("hand:ball22");
  ASSERT_EQ(big.size(), 461);
  big.points.push_back({5, 0, 0, 0.0});
  EXPECT_FALSE(v.supports(big)) << "462 points do not fit the constant tables";
}

TEST(BigStencilRegistry, LaunchersRefuseUnsupportedStencilsBeforeTouchingTheDevice) {
  const Stencil box = test_stencil("hand:box27");
  const Stencil leggy9 = hand_leggy(9);
  const FieldLayout L = make_layout(8, 8, 8, 9, 4);
  for (const char* id : {"ztma_leggy", "ztile_leggy", "zvec_leggy", "kernelB", "regqueue_leggy", "pencils_leggy"}) {
    StepArgs<float> a{nullptr, nullptr, L, &box, 0.1};
    try {
      kernel(id).launch_float(a, LaunchOptions{kernel(id).default_block, true}, nullptr);
      ADD_FAILURE() << id << " accepted a box stencil";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("leggy:M with M = 1..8"), std::string::npos) << e.what();
    }
    StepArgs<double> b{nullptr, nullptr, L, &leggy9, 0.1};
    EXPECT_THROW(kernel(id).launch_double(b, LaunchOptions{kernel(id).default_block, true}, nullptr),
                 std::invalid_argument)
        << id;
  }
  StepArgs<float> a{nullptr, nullptr, L, &leggy9, 0.1};
  EXPECT_THROW(kernel("compact_tiled").launch_float(a, LaunchOptions{{32, 8, 1}, true}, nullptr), std::invalid_argument);
}

TEST(BigStencilRegistry, RadiusDispatchNamesTheAllowedRange) {
  int seen = 0;
  for (int m = 1; m <= 8; ++m) dispatch_leggy_radius(m, "test", [&](auto mc) { seen += decltype(mc)::value; });
  EXPECT_EQ(seen, 36);
  try {
    dispatch_leggy_radius(9, "test", [](auto) {});
    ADD_FAILURE() << "M = 9 dispatched";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("M = 1..8"), std::string::npos) << e.what();
  }
}

// What the benchmark sweeps: every member of the first twenty of each family has a
// large-stencil kernel, and the kernels' claims hold on the real family members.
TEST(BigStencilRegistry, FamilyMembersAreCoveredAsClaimed) {
  for (const auto& n : family_member_names(StencilFamily::Leggy, 20)) {
    const Stencil s = make_stencil(n);
    for (const char* id : {"ztma_leggy", "ztile_leggy", "zvec_leggy", "kernelB", "regqueue_leggy", "pencils_leggy", "kernelA"})
      EXPECT_TRUE(kernel(id).supports(s)) << id << " " << n;
    EXPECT_EQ(kernel("compact_tiled").supports(s), s.radius <= 4) << n;
  }
  for (StencilFamily f : {StencilFamily::Compact, StencilFamily::Box, StencilFamily::Named27}) {
    for (const auto& n : family_member_names(f, 20)) {
      const Stencil s = make_stencil(n);
      EXPECT_TRUE(kernel("kernelA").supports(s)) << n;
      EXPECT_TRUE(kernel("compact_tiled").supports(s)) << n << " (radius " << s.radius << ")";
      // Only the members that are 7-point stencils in disguise (srl, compact:1, box:1,0,0) are leggy.
      const bool leggy_shape = s.is_leggy() && s.size() == 6 * s.radius + 1;
      for (const char* id : {"ztma_leggy", "ztile_leggy", "zvec_leggy", "kernelB", "regqueue_leggy", "pencils_leggy"})
        EXPECT_EQ(kernel(id).supports(s), leggy_shape) << id << " on " << n;
    }
  }
}

TEST(BigStencilRegistry, HandBuiltStencilsAreConsistentLaplacians) {
  for (const auto& n : test_stencil_names()) {
    const Stencil s = test_stencil(n);
    double sum = 0, mxx = 0, myy = 0, mxy = 0;
    for (const auto& p : s.points) {
      sum += p.w;
      mxx += p.w * p.dx * p.dx;
      myy += p.w * p.dy * p.dy;
      mxy += p.w * p.dx * p.dy;
    }
    EXPECT_NEAR(sum, 0.0, 1e-12) << n;
    EXPECT_NEAR(mxx, 2.0, 1e-12) << n;
    EXPECT_NEAR(myy, 2.0, 1e-12) << n;
    EXPECT_NEAR(mxy, 0.0, 1e-12) << n;
    EXPECT_GT(s.courant_max, 0.0) << n;
  }
  EXPECT_EQ(test_stencil("hand:box125").size(), 125);
  EXPECT_EQ(test_stencil("hand:ball22").size(), 461);
  EXPECT_EQ(test_stencil("hand:ball9").radius, 3);
}

}  // namespace
}  // namespace ws::testing
