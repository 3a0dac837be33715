// The kernel registry is well formed: what the GUI dropdown, `wavescope
// kernels`, the benchmarks and the GPU tests rely on. No device needed.
#include <gtest/gtest.h>

#include <set>

#include "cuda/kernel_registry.hpp"
#include "stencil/stencil.hpp"

namespace ws {
namespace {

TEST(KernelRegistry, EntriesAreWellFormed) {
  const auto& all = KernelRegistry::instance().all();
  ASSERT_FALSE(all.empty());
  std::set<std::string> ids;
  for (const auto& v : all) {
    SCOPED_TRACE(v.id);
    EXPECT_FALSE(v.id.empty());
    EXPECT_EQ(v.id.find_first_of(" ,\t"), std::string::npos) << "ids are used in comma-separated CLI lists";
    EXPECT_TRUE(ids.insert(v.id).second) << "duplicate id";
    EXPECT_FALSE(v.name.empty());
    EXPECT_FALSE(v.family.empty());
    EXPECT_FALSE(v.stencils.empty());
    EXPECT_NE(v.supports, nullptr);
    EXPECT_TRUE(v.launch_float || v.launch_double) << "no precision";
    EXPECT_GE(v.default_block.x, 1);
    EXPECT_GE(v.default_block.y, 1);
    EXPECT_GE(v.default_block.z, 1);
    EXPECT_LE(v.default_block.threads(), 1024);
    if (!v.block_uses_z) EXPECT_EQ(v.default_block.z, 1) << "block.z is ignored, so the default should say 1";
    EXPECT_EQ(KernelRegistry::instance().find(v.id), &v);
    // A listing per group the step data can build: plane records hold 2 to 4 lanes.
    EXPECT_TRUE(v.multi_event_vector_bytes == 0 || v.multi_event_vector_bytes == 16);
    if (v.multi_plane_records) EXPECT_GT(v.multi_event_vector_bytes, 0) << "plane records are a listing per group";
    if (v.block_error && v.supports(make_stencil("7pt")) && !v.block_for) {
      EXPECT_EQ(v.block_error(make_stencil("7pt"), Precision::Float, v.default_block), "") << "its default block";
      for (const BlockShape& b : v.room_blocks)
        EXPECT_EQ(v.block_error(make_stencil("7pt"), Precision::Float, b), "") << "room block " << b.x << "x" << b.y;
    }
  }
}

// zstream_fused_vec keeps three blocks of up to 256 threads per SM (its registers): a larger
// block is refused with a message naming it, so `--block` and the autotune never launch it.
TEST(KernelRegistry, ZstreamFusedVecRefusesBlocksOfMoreThan256Threads) {
  const KernelVariant* v = KernelRegistry::instance().find("zstream_fused_vec");
  ASSERT_NE(v, nullptr);
  ASSERT_NE(v->block_error, nullptr);
  const Stencil st = make_stencil("7pt");
  for (Precision p : {Precision::Float, Precision::Double}) {
    EXPECT_EQ(v->block_error(st, p, {16, 16, 1}), "");
    EXPECT_EQ(v->block_error(st, p, {128, 2, 1}), "");
    const std::string why = v->block_error(st, p, {32, 16, 1});
    EXPECT_NE(why.find("32x16"), std::string::npos) << why;
    EXPECT_NE(why.find("256"), std::string::npos) << why;
    EXPECT_NE(v->block_error(st, p, {0, 8, 1}), "");
  }
}

TEST(KernelRegistry, UnknownIdErrorListsTheValidOnes) {
  try {
    (void)KernelRegistry::instance().at("no_such_kernel");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("no_such_kernel"), std::string::npos);
    EXPECT_NE(m.find("tiling3d"), std::string::npos);
  }
}

// Webb's six designs, FDTD3d's register queue (and its L1 and vector siblings), Su's
// halo threads: both precisions, the cache toggle, 7-point only, and the block
// sizes the papers found best.
TEST(KernelRegistry, WebbFamilyEntriesAndPaperDefaults) {
  struct Expect {
    const char* id;
    BlockShape block;
  };
  const Expect expected[] = {{"tiling3d", {32, 4, 2}},           {"tiling3d_shared", {32, 8, 1}},
                             {"tiling3d_ext_shared", {32, 8, 1}}, {"slicing2d", {64, 8, 1}},
                             {"slicing2d_shared", {64, 8, 1}},    {"slicing2d_ext_shared", {64, 8, 1}},
                             {"register_queue", {32, 16, 1}},     {"zstream_cached", {32, 8, 1}},
                             {"halo_threads", {34, 6, 1}},        {"zstream_vec", {64, 8, 1}}};
  const Stencil seven = make_stencil("7pt");
  const Stencil leggy2 = make_stencil("leggy:2");
  for (const auto& e : expected) {
    SCOPED_TRACE(e.id);
    const KernelVariant* v = KernelRegistry::instance().find(e.id);
    ASSERT_NE(v, nullptr) << "not registered";
    EXPECT_TRUE(v->has_precision(Precision::Float));
    EXPECT_TRUE(v->has_precision(Precision::Double));
    EXPECT_TRUE(v->has_readonly_toggle);
    EXPECT_TRUE(v->supports(seven));
    EXPECT_FALSE(v->supports(leggy2)) << "these kernels hard-code the 7-point update";
    EXPECT_EQ(v->default_block.x, e.block.x);
    EXPECT_EQ(v->default_block.y, e.block.y);
    EXPECT_EQ(v->default_block.z, e.block.z);
  }
}

TEST(KernelRegistry, SevenPointHasAVariantInEachPrecision) {
  const Stencil seven = make_stencil("7pt");
  EXPECT_GE(KernelRegistry::instance().supporting(seven, Precision::Float).size(), 10u);
  EXPECT_GE(KernelRegistry::instance().supporting(seven, Precision::Double).size(), 10u);
}

}  // namespace
}  // namespace ws
