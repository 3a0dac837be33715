#pragma once
// How brick_onchip.cu cuts a grid into 3-D bricks, one per SM, and lays a brick's two
// fields out in shared memory; host code (and a few inline functions the kernel shares),
// tested on the CPU.
//
// A block of kBrickThreads threads (or kBrickFewThreads, below) keeps its per-step indices
// in registers: its shell points, inner columns and face elements, so a brick has at most
// that many times as many of each as a thread holds (BrickReach). The small form (4, 1, 4 a thread) needs no
// spilling; the large one (6, 2, 6) holds bricks of up to about 2.9 M points in float in
// all and spills a few of its indices, so it runs only where no cut fits the small one.
#include <array>
#include <cstddef>
#include <vector>

#include "core/field_layout.hpp"
#include "core/hd.hpp"
#include "core/precision.hpp"

namespace ws {

constexpr int kBrickThreads = 1024;
// Bricks the small form holds at half as many threads run blocks of kBrickFewThreads, each
// thread with twice the points: on such bricks (up to about 4,500 points) a step is bound
// by the instructions every thread issues besides its updates (the polls, the barriers,
// the loop), not by the updates; on the H200 they ran 7-17% faster from 864 to 4,096
// points a brick, 15% at 64^3 (docs/benchmarks.md). 256 threads (the large form's reach)
// ran slower.
constexpr int kBrickFewThreads = 512;

struct BrickReach {
  int shell, cols, faces;
};
constexpr BrickReach kBrickSmall{4, 1, 4}, kBrickLarge{6, 2, 6};

// The sources and receiver taps a block keeps listed in shared memory; past these it reads
// the step data's lists every step (correct, slower).
constexpr int kBrickListedSources = 32, kBrickListedTaps = 256;

// The bricks: px x py x pz of sx x sy x sz points (the last of an axis fewer), and the
// on-chip layout of a brick's fields: rows of pitch PX (x = 0 at offset 1), planes of PS,
// halo included.
struct BrickGrid {
  int px = 0, py = 0, pz = 0;
  int sx = 0, sy = 0, sz = 0;
  int PX = 0, PS = 0, cells = 0;
  int face_max = 0;    // elements of a mailbox's face slot
  bool large = false;  // the bricks need the kernel's large form (BrickReach)
  int threads = kBrickThreads;  // a block's threads: kBrickThreads or kBrickFewThreads
  int patch = 32;               // the inner pass's patch width (inner_patch)
  WS_HD int blocks() const { return px * py * pz; }
};

// Words of 32 bits in an inner column's mask of planes (the events form, brick_events.cuh):
// one bit for each of planes 1 .. sz - 2, at least one word.
WS_HD int brick_mask_words(const BrickGrid& g) { return g.sz > 2 ? (g.sz - 2 + 31) / 32 : 1; }
// Bytes of a block's inner columns' masks (its threads' columns, each brick_mask_words words).
inline size_t brick_mask_bytes(const BrickGrid& g) {
  return (size_t)g.threads * (g.large ? kBrickLarge.cols : kBrickSmall.cols) * brick_mask_words(g) * sizeof(unsigned);
}

// A brick's inner row (bx - 2 points) padded to whole warps: no warp of the inner pass then
// spans two rows, whose words would share shared-memory banks.
WS_HD int padded_row(int bx) { return (bx - 2 + 31) / 32 * 32; }

// The inner pass's warps cover patches of w x (32 / w) columns (x by y) of the brick's
// inside. Rows of 32 (w = 32) leave a row of 24 points a quarter of its lanes idle; a patch
// of 4 x 8 columns at a row pitch of 28 (28 y + x distinct modulo 32) meets no bank twice
// and fills every lane. inner_patch picks, for the fields' row pitch, the w whose
// conflict-free patches cover the inside (iw x ih columns) in the fewest lanes; 32 when the
// rows are whole warps already. A word of 8 bytes spans two banks: 16 lanes of a warp meet
// the banks at once.
WS_HD bool patch_conflict_free(int pitch, int w, int elem_bytes) {
  const int banks = elem_bytes == 8 ? 16 : 32;
  for (int half = 0; half < 32; half += banks) {
    unsigned used = 0;
    for (int lane = half; lane < half + banks; ++lane) {
      const int b = (pitch * (lane / w) + lane % w) % banks;
      if ((used >> b) & 1u) return false;
      used |= 1u << b;
    }
  }
  return true;
}
WS_HD int patch_lanes(int iw, int ih, int w) {
  const int h = 32 / w;
  return (iw + w - 1) / w * ((ih + h - 1) / h) * 32;
}
WS_HD int inner_patch(int pitch, int iw, int ih, int elem_bytes) {
  int best = 32;
  for (int w = 16; w >= 1; w /= 2)
    if (patch_conflict_free(pitch, w, elem_bytes) && patch_lanes(iw, ih, w) < patch_lanes(iw, ih, best)) best = w;
  return best;
}
// Lane slot c of the inner pass (thread t + i * threads) as inner column (xi, yi); false
// past the inside.
WS_HD bool inner_column(int c, int iw, int ih, int w, int& xi, int& yi) {
  const int h = 32 / w, per_band = (iw + w - 1) / w;
  const int warp = c >> 5, lane = c & 31;
  xi = (warp % per_band) * w + lane % w;
  yi = (warp / per_band) * h + lane / w;
  return xi < iw && yi < ih;
}

// A block's dynamic shared memory: both fields of its brick with their halo, its listed
// sources (three ints each) and taps (two), and kBrickControlInts ints: 4 counts, 6 + 6
// per-face steps, the events form's listing (2, and 2 unused) and 32 for a prefix sum over
// the block's warps.
constexpr int kBrickControlInts = 52;
size_t brick_smem_bytes(const BrickGrid& g, int elem_bytes);

// Whether a brick of bx x by x bz points fits a block's registers (`reach`) and shared
// memory.
bool brick_fits(int bx, int by, int bz, int elem_bytes, size_t smem_optin, const BrickReach& reach,
                int threads = kBrickThreads);

// The nodes of a room that the events form finishes from slots (brick_events.cuh), for a cut
// that spreads them: a step waits for its slowest brick, and a brick's slots are work its
// threads do besides its points.
struct BrickSlots {
  std::vector<std::array<int, 3>> node;  // (i, j, k) of every node that takes a slot
  size_t slot_bytes = 0;                 // shared memory a slot takes
};
// A slot's finishing in points of the cut's cost (brick_layout): it reads twice the shared
// memory words of an inner point's update.
constexpr double kBrickSlotCost = 3.0;
// The cuts a room's slots choose among: those within this fraction of the cheapest cut's
// cost without them.
constexpr double kBrickSlotCutSlack = 0.10;

// The slots of the fullest brick of cut g.
int most_slots_in_a_brick(const BrickGrid& g, const BrickSlots& slots);

// The cut of the grid into at most `sms` bricks that costs least: the brick's update (its
// inner rows padded to warps) plus its faces' traffic, weighted as the H200 measured them;
// within the small form's reach if any cut fits it, else the large form's
// (BrickGrid::large); a brick in the small form's reach at kBrickFewThreads threads runs
// blocks of that many (BrickGrid::threads); throws std::invalid_argument naming the sizes when no cut fits.
// With a room's `slots`: among the cuts within kBrickSlotCutSlack of that cost whose
// threads take no more planes in the inner pass than the cheapest cut's (a brick of few
// inner columns leaves most threads idle there, which the cost of points does not see), the
// one whose cost plus kBrickSlotCost for each slot of its fullest brick is least, the slots
// counted twice where they pass the shared memory the brick leaves (they then live in
// global memory); the cheapest cut unless another costs less so.
BrickGrid brick_layout(const FieldLayout& L, Precision p, int sms, size_t smem_optin,
                       const BrickSlots* slots = nullptr);

}  // namespace ws
