#pragma once
// How a z-streaming kernel cuts its columns into z chunks when the columns are
// long (host-only arithmetic, tested on the CPU).
//
// A chunk of planes [c L, min((c + 1) L, nz)) is one block's column; every cut
// costs 2R planes read twice, so the number of chunks is the smallest that keeps
// each under `cap` planes. What remains free is where the planes go.
//
// Blocks are dispatched in chunk order (blockIdx.z is the slowest index), and a
// step ends with a drain: once the queue of blocks is empty, the resident blocks
// finish one by one over about one block lifetime. Full chunks of `cap` planes
// first and a short last chunk make the blocks running at the end short-lived
// (nz = 850: 256, 256, 256, 82 instead of 4 x 213, the same three cuts). The
// last chunk must still hold enough work to cover the long blocks' own drain:
// its xy_blocks blocks of Ls planes fill the resident slots for
// Ls * xy_blocks / resident block lifetimes of one plane, which must reach the
// long chunk's length, so Ls >= resident * L / xy_blocks.
//
// Measured with ztma_leggy on an H200 (docs/benchmarks.md, fourth round): +0.5
// points of the roofline on the 896 x 766 x 670 grid (256, 256, 158 against
// 3 x 224), no change on 1184 x 993 x 850: the drain is a small part of a step.
#include <algorithm>

namespace ws::big {

// Planes per chunk for a sweep whose blocks all live about as long (every chunk
// the same length), chosen so that the step's blocks fill whole waves of the
// `resident` blocks the device runs at once. With C chunks there are
// xy_blocks * C blocks in ceil(xy_blocks * C / resident) waves, and the busy
// fraction of the last wave decides the step's time: 512^3 with 128 blocks per
// plane and 396 resident (3 per SM on 132 SMs) runs 4 chunks in 1.3 waves (the
// second one 29% full) but 3 chunks in 0.97. C ranges over 1 .. nz / min_planes
// (each cut re-reads 2R planes, so a chunk keeps at least min_planes), and more
// chunks are taken only for a busy fraction at least 2 points higher; the search
// stops once 8 waves are reached, where the last one no longer matters.
inline int wave_balanced_chunk_planes(int nz, long long xy_blocks, int min_planes, long long resident) {
  nz = std::max(1, nz);
  xy_blocks = std::max(1LL, xy_blocks);
  resident = std::max(1LL, resident);
  const long long max_chunks = std::max(1LL, std::min<long long>(nz / std::max(1, min_planes), 65535));
  long long best = 1;
  double best_busy = -1.0;
  for (long long c = 1; c <= max_chunks; ++c) {
    const long long blocks = xy_blocks * c;
    const long long waves = (blocks + resident - 1) / resident;
    const double busy = double(blocks) / double(waves * resident);
    if (busy > best_busy + 0.02) {
      best = c;
      best_busy = busy;
    }
    if (waves >= 8) break;
  }
  return (int)((nz + best - 1) / best);
}

// Planes per chunk (every chunk but the last, which takes the remainder) for a
// column of nz planes cut into chunks of at most `cap` planes, with xy_blocks
// blocks per plane and `resident` blocks running at once on the device. The
// number of chunks is ceil(nz / cap), as with an even split.
inline int tail_short_chunk_planes(int nz, int cap, long long xy_blocks, long long resident) {
  cap = std::max(1, cap);
  const long long n = (nz + cap - 1) / cap;
  if (n <= 1) return std::max(1, nz);
  const long long even = (nz + n - 1) / n;
  const long long need = std::min(even, (resident * cap + xy_blocks - 1) / std::max(1LL, xy_blocks));
  const long long len = std::min<long long>(cap, (nz - need) / (n - 1));
  return (int)std::max(len, even);
}

}  // namespace ws::big
