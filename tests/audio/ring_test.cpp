// The SPSC ring under two threads: every item arrives once, in order.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <thread>
#include <vector>

#include "playback/spsc_ring.hpp"

using ws::audio::SpscRing;

TEST(SpscRing, RejectsCapacityNotPowerOfTwo) {
  EXPECT_THROW(SpscRing<float>(1000), std::invalid_argument);
  EXPECT_THROW(SpscRing<float>(1), std::invalid_argument);
  EXPECT_NO_THROW(SpscRing<float>(1024));
}

TEST(SpscRing, WrapsAroundAndReportsFill) {
  SpscRing<int> r(8);
  int a[6] = {1, 2, 3, 4, 5, 6}, b[8] = {};
  EXPECT_EQ(r.write(a, 6), 6u);
  EXPECT_EQ(r.read(b, 4), 4u);
  EXPECT_EQ(r.write(a, 6), 6u);  // wraps
  EXPECT_EQ(r.read_available(), 8u);
  EXPECT_EQ(r.write(a, 1), 0u);  // full: nothing overwritten
  EXPECT_EQ(r.read(b, 8), 8u);
  const int want[8] = {5, 6, 1, 2, 3, 4, 5, 6};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(b[i], want[i]) << i;
  EXPECT_EQ(r.read(b, 1), 0u);
}

// Producer writes 0, 1, 2, ... in random chunk sizes; consumer reads random
// chunk sizes and checks each value is the next expected one. A small ring
// forces constant wrap-around and full/empty races.
TEST(SpscRing, TwoThreadStressLosesNothingDuplicatesNothingKeepsOrder) {
  constexpr uint64_t kItems = 20'000'000;
  SpscRing<uint64_t> ring(1024);
  std::thread producer([&] {
    std::mt19937 rng(1);
    std::vector<uint64_t> buf(700);
    uint64_t next = 0;
    while (next < kItems) {
      const size_t want = std::min<uint64_t>(1 + rng() % buf.size(), kItems - next);
      for (size_t i = 0; i < want; ++i) buf[i] = next + i;
      size_t done = 0;
      while (done < want) {
        const size_t w = ring.write(buf.data() + done, want - done);
        if (w == 0) std::this_thread::yield();
        done += w;
      }
      next += want;
    }
  });
  std::mt19937 rng(2);
  std::vector<uint64_t> buf(900);
  uint64_t expect = 0, errors = 0;
  while (expect < kItems) {
    const size_t got = ring.read(buf.data(), 1 + rng() % buf.size());
    if (got == 0) std::this_thread::yield();
    for (size_t i = 0; i < got; ++i) {
      if (buf[i] != expect) ++errors;
      expect = buf[i] + 1;  // resynchronise so one error is counted once
    }
  }
  producer.join();
  EXPECT_EQ(errors, 0u);
  EXPECT_EQ(expect, kItems);
  EXPECT_EQ(ring.read_available(), 0u);
}
