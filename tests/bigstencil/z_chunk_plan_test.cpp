// The z-chunk rule of ztma_leggy (sim/cuda/kernels/z_chunk_plan.hpp): as many cuts
// as an even split, full chunks first, a last chunk short but with enough blocks
// to cover the long chunks' drain.
#include <gtest/gtest.h>

#include "cuda/kernels/z_chunk_plan.hpp"

namespace ws::testing {
namespace {

int chunks(int nz, int len) { return (nz + len - 1) / len; }

TEST(ZChunkPlan, BenchmarkGridGetsThreeFullChunksAndAShortOne) {
  // 1184 x 993 x 850 with 32 x 32 tiles: 37 x 32 = 1184 blocks per plane, 2 x 132 resident.
  const int len = big::tail_short_chunk_planes(850, 256, 1184, 264);
  EXPECT_EQ(len, 256);
  EXPECT_EQ(chunks(850, len), 4);           // the even split's count: 4 x 213
  EXPECT_EQ(850 - 3 * len, 82);             // the last chunk
  EXPECT_GE(82LL * 1184, 264LL * 256);      // ... covers the long blocks' drain
}

TEST(ZChunkPlan, ShortColumnsStayWhole) {
  EXPECT_EQ(big::tail_short_chunk_planes(200, 256, 1000, 264), 200);
  EXPECT_EQ(big::tail_short_chunk_planes(256, 256, 1000, 264), 256);
  EXPECT_EQ(big::tail_short_chunk_planes(1, 256, 1, 264), 1);
}

TEST(ZChunkPlan, ATinyRemainderIsGrownUntilItCoversTheDrain) {
  // 3 x 283 + 1: a last chunk of one plane would leave the long blocks draining alone.
  const int nz = 850, cap = 283;
  const int len = big::tail_short_chunk_planes(nz, cap, 1184, 264);
  EXPECT_EQ(chunks(nz, len), 4);
  const int last = nz - 3 * len;
  EXPECT_GE(last, (264 * cap + 1183) / 1184);  // 64 planes at least
  EXPECT_LE(len, cap);
}

TEST(ZChunkPlan, FewBlocksPerPlaneFallBackToTheEvenSplit) {
  // 48 blocks per plane cannot cover 264 slots with a short chunk: even chunks.
  const int len = big::tail_short_chunk_planes(160, 16, 48, 264);
  EXPECT_EQ(len, 16);
  EXPECT_EQ(big::tail_short_chunk_planes(1000, 256, 48, 264), 250);
}

TEST(ZChunkPlan, EveryPlaneIsInExactlyOneChunkAndNoChunkExceedsTheCap) {
  for (int nz : {1, 7, 255, 256, 257, 511, 513, 850, 1000, 2047})
    for (int cap : {16, 64, 256})
      for (long long xy : {1LL, 48LL, 1184LL, 100000LL}) {
        const int len = big::tail_short_chunk_planes(nz, cap, xy, 264);
        ASSERT_GE(len, 1);
        ASSERT_LE(len, std::max(cap, 1)) << nz << " " << cap << " " << xy;
        const int n = chunks(nz, len);
        ASSERT_EQ(n, (nz + cap - 1) / cap) << nz << " " << cap << " " << xy;  // no extra cuts
        ASSERT_GE(nz - (n - 1) * len, 1);                                     // last chunk not empty
      }
}

TEST(ZChunkPlan, WaveBalancedChunksFillTheLastWave) {
  // 512^3 with 64 x 32 tiles: 8 x 16 = 128 blocks per plane; 3 blocks per SM on 132 SMs.
  const int len = big::wave_balanced_chunk_planes(512, 128, 16, 396);
  EXPECT_EQ(chunks(512, len), 3);  // 384 blocks, 0.97 of one wave (4 chunks: 1.29 waves)
  // 2 blocks per SM: 2 chunks are 256 of 264 slots (4 would be 512 of 528, for more cuts).
  EXPECT_EQ(chunks(512, big::wave_balanced_chunk_planes(512, 128, 16, 264)), 2);
  // A plane that alone fills many waves is not cut.
  EXPECT_EQ(big::wave_balanced_chunk_planes(850, 100000, 16, 396), 850);
}

TEST(ZChunkPlan, WaveBalancedChunksKeepMinimumLengthAndCoverTheColumn) {
  for (int nz : {1, 7, 16, 100, 513, 850, 2000})
    for (long long xy : {1LL, 37LL, 128LL, 608LL, 5000LL})
      for (int minp : {1, 16, 32}) {
        const int len = big::wave_balanced_chunk_planes(nz, xy, minp, 396);
        ASSERT_GE(len, 1);
        ASSERT_LE(len, nz);
        EXPECT_GE(len, std::min(nz, minp)) << nz << " " << xy << " " << minp;
        EXPECT_GE((long long)chunks(nz, len) * len, nz);
      }
}

}  // namespace
}  // namespace ws::testing
