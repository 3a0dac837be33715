// How the z-streaming launchers cut columns into chunks (pure host arithmetic).
#include <gtest/gtest.h>

#include "cuda/kernels/launch_geometry.hpp"

namespace ws {
namespace {

TEST(ZChunks, FillTheDeviceWithoutShortChunks) {
  // Webb's 254 x 294 slice in 32 x 16 blocks is 8 x 19 = 152 blocks; an H100
  // holds ~264 such blocks: cut the 210 planes into chunks of >= 16 planes.
  const int c = z_chunks_for(152, 264, 210, 6, 16);
  EXPECT_GT(c, 1);
  EXPECT_LE(c, 210 / 16);
  EXPECT_GE(210 / c, 16);
}

TEST(ZChunks, LargeSlicesKeepLongColumns) {
  // 512^2 in 32 x 16 blocks: 512 blocks; a few chunks are enough for ~6 waves.
  const int c = z_chunks_for(512, 264, 512, 6, 16);
  EXPECT_GE(c, 1);
  EXPECT_LE(c, 4);
  EXPECT_EQ(z_chunks_for(100000, 264, 512, 6, 16), 1) << "enough blocks in the slice alone";
}

TEST(ZChunks, ThinGridsAndDegenerateInputs) {
  EXPECT_EQ(z_chunks_for(1, 264, 1, 6, 16), 1);
  EXPECT_EQ(z_chunks_for(1, 264, 15, 6, 16), 1);
  EXPECT_EQ(z_chunks_for(1, 264, 32, 6, 16), 2);
  EXPECT_EQ(z_chunks_for(0, 264, 32, 6, 16), 1);
  EXPECT_EQ(z_chunks_for(4, 0, 64, 6, 16), 2) << "resident blocks below 1 count as 1";
}

TEST(LaunchChecks, ClearErrors) {
  EXPECT_THROW(checked_grid(1, 70000, 1, "k"), std::invalid_argument);
  EXPECT_THROW(checked_grid(1, 1, 70000, "k"), std::invalid_argument);
  EXPECT_NO_THROW(checked_grid(100000, 65535, 65535, "k"));
  LaunchOptions o;
  o.block = {2, 8, 1};
  try {
    require_block_at_least(o, 3, 3, "halo_threads");
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("halo_threads"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("2x8"), std::string::npos);
  }
}

// Kernels that step through z by an int plane: a plane of 2^31 elements or more is refused
// with its size; the largest that fits passes. (Layouts only: nothing is allocated.)
TEST(LaunchChecks, APlaneBeyondAnIntIsRefused) {
  const FieldLayout fits = make_layout(65472, 32765, 1, 1, 4);
  ASSERT_LE(fits.plane, 2147483647LL);
  EXPECT_NO_THROW(check_int_plane(fits, "zstream_fused_vec"));
  const FieldLayout wide = make_layout(65536, 32768, 1, 1, 4);
  ASSERT_GT(wide.plane, 2147483647LL);
  try {
    check_int_plane(wide, "zstream_fused_vec");
    FAIL() << "a plane of " << wide.plane << " elements was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("zstream_fused_vec"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(std::to_string(wide.plane)), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ws
