// brick_onchip's cut of a grid into bricks, on the CPU with an H200's facts (132 SMs,
// 227 KiB of shared memory a block): the cuts the GPU runs measured (docs/benchmarks.md),
// every brick inside its reach and its shared memory, the large form only where the small
// one cannot hold the grid, and grids past both refused naming their size.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "cuda/kernels/brick_layout.hpp"

namespace ws {
namespace {

constexpr int kSms = 132;
constexpr size_t kSmem = 232448;

FieldLayout grid(int nx, int ny, int nz) {
  FieldLayout L;
  L.nx = nx, L.ny = ny, L.nz = nz;
  return L;
}

TEST(BrickLayout, CutsTheMeasuredGridsAsTheGpuRanThem) {
  const BrickGrid g = brick_layout(grid(128, 128, 128), Precision::Float, kSms, kSmem);
  EXPECT_EQ(g.px * 100 + g.py * 10 + g.pz, 448);
  EXPECT_EQ(g.sx, 32);
  EXPECT_EQ(g.sy, 32);
  EXPECT_EQ(g.sz, 16);
  EXPECT_FALSE(g.large);
  EXPECT_EQ(g.PX, 34);
  EXPECT_EQ(g.PS, 34 * 34);
  EXPECT_EQ(g.cells, 34 * 34 * 18);
  EXPECT_EQ(g.face_max, 32 * 32);
  // The multi-step tests' room: 120 bricks of 10 x 6 x 4.
  const BrickGrid t = brick_layout(grid(37, 29, 23), Precision::Float, kSms, kSmem);
  EXPECT_EQ(t.blocks(), 120);
  EXPECT_EQ(t.sx * 100 + t.sy * 10 + t.sz, 1064);
  // Blocks of 512 threads for the bricks of 64^3 (32 x 8 x 8) and the room's, 1024 for
  // 96^3's (32 x 16 x 14: 2,128 shell points, past 512 threads' four each) and 128^3's.
  EXPECT_EQ(t.threads, kBrickFewThreads);
  EXPECT_EQ(g.threads, kBrickThreads);
  const BrickGrid s = brick_layout(grid(64, 64, 64), Precision::Float, kSms, kSmem);
  EXPECT_EQ(s.sx * 100 + s.sy * 10 + s.sz, 3288);
  EXPECT_EQ(s.threads, kBrickFewThreads);
  const BrickGrid m = brick_layout(grid(96, 96, 96), Precision::Float, kSms, kSmem);
  EXPECT_EQ(m.px * 100 + m.py * 10 + m.pz, 367);
  EXPECT_EQ(m.threads, kBrickThreads);
}

TEST(BrickLayout, EveryBrickFitsItsFormAndTheLargeFormOnlyWhereNeeded) {
  for (Precision p : {Precision::Float, Precision::Double})
    for (const FieldLayout& L : {grid(19, 13, 11), grid(61, 47, 53), grid(64, 64, 64), grid(96, 96, 96),
                                 grid(100, 100, 100), grid(128, 128, 128), grid(137, 162, 113), grid(150, 150, 128)}) {
      SCOPED_TRACE(std::to_string(L.nx) + "x" + std::to_string(L.ny) + "x" + std::to_string(L.nz) + " " +
                   to_string(p));
      BrickGrid g;
      try {
        g = brick_layout(L, p, kSms, kSmem);
      } catch (const std::invalid_argument&) {
        EXPECT_EQ(p, Precision::Double) << "only double grids past 1.3 M points are refused here";
        continue;
      }
      EXPECT_LE(g.blocks(), kSms);
      // The bricks cover the grid, each at least 3 points a side.
      EXPECT_GE(g.sx * g.px, L.nx);
      EXPECT_LT(g.sx * (g.px - 1), L.nx - 2);
      EXPECT_LT(g.sy * (g.py - 1), L.ny - 2);
      EXPECT_LT(g.sz * (g.pz - 1), L.nz - 2);
      EXPECT_TRUE(brick_fits(g.sx, g.sy, g.sz, bytes_of(p), kSmem, g.large ? kBrickLarge : kBrickSmall, g.threads));
      // Blocks of kBrickFewThreads wherever the small form holds the brick at that many.
      EXPECT_EQ(g.threads == kBrickFewThreads,
                !g.large && brick_fits(g.sx, g.sy, g.sz, bytes_of(p), kSmem, kBrickSmall, kBrickFewThreads));
      EXPECT_TRUE(g.threads == kBrickThreads || g.threads == kBrickFewThreads);
      EXPECT_LE(brick_smem_bytes(g, bytes_of(p)), kSmem);
      if (g.large) {
        // No cut of the grid fits the small form.
        for (int px = 1; px <= kSms && px <= L.nx; ++px)
          for (int py = 1; px * py <= kSms && py <= L.ny; ++py)
            for (int pz = 1; px * py * pz <= kSms && pz <= L.nz; ++pz)
              EXPECT_FALSE(brick_fits((L.nx + px - 1) / px, (L.ny + py - 1) / py, (L.nz + pz - 1) / pz, bytes_of(p),
                                      kSmem, kBrickSmall) &&
                           L.nx - (L.nx + px - 1) / px * (px - 1) >= 3 && L.ny - (L.ny + py - 1) / py * (py - 1) >= 3 &&
                           L.nz - (L.nz + pz - 1) / pz * (pz - 1) >= 3)
                  << px << "x" << py << "x" << pz;
      }
    }
  EXPECT_TRUE(brick_layout(grid(150, 150, 128), Precision::Float, kSms, kSmem).large);
  EXPECT_FALSE(brick_layout(grid(128, 128, 128), Precision::Float, kSms, kSmem).large);
}

TEST(BrickLayout, GridsPastItsReachAreRefusedNamingTheirSize) {
  for (const auto& [L, p] : {std::make_pair(grid(300, 300, 300), Precision::Float),
                             std::make_pair(grid(128, 128, 128), Precision::Double),
                             std::make_pair(grid(2, 50, 50), Precision::Float)}) {
    try {
      (void)brick_layout(L, p, kSms, kSmem);
      ADD_FAILURE() << L.nx << "x" << L.ny << "x" << L.nz << " was cut";
    } catch (const std::invalid_argument& e) {
      const std::string m = e.what();
      const std::string size = std::to_string(L.nx) + "x" + std::to_string(L.ny) + "x" + std::to_string(L.nz);
      EXPECT_NE(m.find(size + " points in " + to_string(p)), std::string::npos) << m;
      EXPECT_NE(m.find("132 SMs"), std::string::npos) << m;
    }
  }
}

TEST(BrickLayout, InnerRowsArePaddedToWholeWarps) {
  EXPECT_EQ(padded_row(3), 32);
  EXPECT_EQ(padded_row(34), 32);
  EXPECT_EQ(padded_row(35), 64);
  EXPECT_EQ(padded_row(66), 64);
}

}  // namespace
}  // namespace ws
