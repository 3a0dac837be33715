// brick_onchip's cut of a grid into bricks, on the CPU with an H200's facts (132 SMs,
// 227 KiB of shared memory a block): the cuts the GPU runs measured (docs/benchmarks.md),
// every brick inside its reach and its shared memory, the large form only where the small
// one cannot hold the grid, and grids past both refused naming their size.
#include <gtest/gtest.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

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

// The inner pass's patches: every lane of a warp (every 16 for 8-byte words) on its own
// bank at the brick's row pitch, checked against a count of the banks; the patch that
// covers the inside in the fewest lanes; each inner column in exactly one lane.
TEST(BrickLayout, InnerPatchesMeetNoBankTwiceAndCoverTheInsideOnce) {
  for (int elem : {4, 8})
    for (int bx = 3; bx <= 40; ++bx)
      for (int by : {3, 5, 8, 17, 26, 33}) {
        const int pitch = bx + 2, iw = bx - 2, ih = by - 2;
        const int w = inner_patch(pitch, iw, ih, elem);
        SCOPED_TRACE(std::to_string(elem) + "-byte words, brick " + std::to_string(bx) + "x" + std::to_string(by) +
                     ", patch width " + std::to_string(w));
        ASSERT_TRUE(w == 1 || w == 2 || w == 4 || w == 8 || w == 16 || w == 32);
        if (w != 32) {  // rows of 32 columns are conflict-free by construction
          const int banks = elem == 8 ? 16 : 32;
          for (int half = 0; half < 32; half += banks) {
            std::vector<int> hits(banks, 0);
            for (int lane = half; lane < half + banks; ++lane) ++hits[(pitch * (lane / w) + lane % w) % banks];
            for (int b = 0; b < banks; ++b) EXPECT_LE(hits[b], 1) << "bank " << b;
          }
        }
        EXPECT_LE(patch_lanes(iw, ih, w), padded_row(bx) * ih);  // never more lanes than padded rows
        std::vector<int> seen(iw * ih, 0);
        for (int c = 0; c < patch_lanes(iw, ih, w); ++c) {
          int xi = -1, yi = -1;
          if (inner_column(c, iw, ih, w, xi, yi)) ++seen[yi * iw + xi];
        }
        for (int q = 0; q < iw * ih; ++q) EXPECT_EQ(seen[q], 1) << "column " << q;
      }
  // 26^3 bricks (130^3): rows of 24 at pitch 28 take 4 x 8 patches, every lane busy.
  EXPECT_EQ(inner_patch(28, 24, 24, 4), 4);
  EXPECT_EQ(patch_lanes(24, 24, 4), 24 * 24);
  // Rows of 30 at pitch 34 (128^3's bricks) keep whole padded rows.
  EXPECT_EQ(inner_patch(34, 30, 30, 4), 32);
}

// A room's slots (the nodes the events form finishes) gathered on one panel, as the side of a
// shelf gathers them: the cut spreads them over more bricks than the cheapest cut without
// them, within the same form and with no more planes a thread in the inner pass; no slots,
// the same cut as without.
TEST(BrickLayout, ARoomsSlotsChooseACutThatSpreadsThem) {
  const FieldLayout L = grid(168, 141, 91);  // the furnished room at 20 kHz
  const BrickGrid plain = brick_layout(L, Precision::Float, kSms, kSmem);
  BrickSlots slots;
  slots.slot_bytes = 12;
  const BrickGrid none = brick_layout(L, Precision::Float, kSms, kSmem, &slots);
  EXPECT_EQ(none.px * 10000 + none.py * 100 + none.pz, plain.px * 10000 + plain.py * 100 + plain.pz);
  for (int k = 0; k < 30; ++k)
    for (int j = 70; j < 100; ++j) slots.node.push_back({100, j, k});
  const BrickGrid spread = brick_layout(L, Precision::Float, kSms, kSmem, &slots);
  const int before = most_slots_in_a_brick(plain, slots), after = most_slots_in_a_brick(spread, slots);
  std::printf("[ brick cut ] 168x141x91: %dx%dx%d, fullest brick %d slots; with the slots %dx%dx%d, %d\n", plain.px,
              plain.py, plain.pz, before, spread.px, spread.py, spread.pz, after);
  EXPECT_LT(after, before);
  EXPECT_EQ(spread.large, plain.large);
  EXPECT_TRUE(brick_fits(spread.sx, spread.sy, spread.sz, 4, kSmem, spread.large ? kBrickLarge : kBrickSmall,
                         spread.threads));
  EXPECT_LE(spread.blocks(), kSms);
  auto inner_planes = [](const BrickGrid& g) {
    return (patch_lanes(g.sx - 2, g.sy - 2, g.patch) + g.threads - 1) / g.threads * (g.sz - 2);
  };
  EXPECT_LE(inner_planes(spread), inner_planes(plain));
  EXPECT_GE((size_t)after * spread.blocks(), slots.node.size());  // the fullest brick holds at least the mean
}

// An inner column's mask of planes takes one word of 32 bits for bricks of up to 34 planes,
// two past that (a tall grid's bricks of 47).
TEST(BrickLayout, MaskWordsCoverEveryInnerPlane) {
  BrickGrid g;
  for (int sz : {3, 20, 34, 35, 47, 66, 67}) {
    g.sz = sz;
    EXPECT_GE(brick_mask_words(g) * 32, sz - 2) << sz;
    EXPECT_LT((brick_mask_words(g) - 1) * 32, std::max(1, sz - 2)) << sz;
  }
  EXPECT_EQ(brick_layout(grid(20, 200, 600), Precision::Float, kSms, kSmem).sz, 47);
}

TEST(BrickLayout, InnerRowsArePaddedToWholeWarps) {
  EXPECT_EQ(padded_row(3), 32);
  EXPECT_EQ(padded_row(34), 32);
  EXPECT_EQ(padded_row(35), 64);
  EXPECT_EQ(padded_row(66), 64);
}

}  // namespace
}  // namespace ws
