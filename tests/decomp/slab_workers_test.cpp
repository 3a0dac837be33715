// The threads that drive each GPU's slabs: every index runs once per job, jobs follow
// one another without loss (spinning or blocked), and a failure reaches the caller.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "decomp/slab_workers.hpp"

namespace ws::test {
namespace {

TEST(SlabWorkers, EveryIndexRunsOncePerJobOverManyJobs) {
  SlabWorkers w(4);
  std::vector<std::atomic<int>> hits(4);
  for (int job = 0; job < 2000; ++job) {
    w.run([&](int i) { hits[i].fetch_add(1); });
    // Some jobs after a pause longer than the spin, so the threads have gone to sleep.
    if (job % 500 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  for (int i = 0; i < 4; ++i) EXPECT_EQ(hits[i].load(), 2000) << "index " << i;
}

TEST(SlabWorkers, AFailureOnAnyIndexReachesTheCallerAndTheWorkersGoOn) {
  SlabWorkers w(3);
  for (int bad : {0, 1, 2}) {
    EXPECT_THROW(w.run([&](int i) {
      if (i == bad) throw std::runtime_error("slab failed");
    }),
                 std::runtime_error)
        << "index " << bad;
  }
  std::atomic<int> ran{0};
  w.run([&](int) { ran.fetch_add(1); });
  EXPECT_EQ(ran.load(), 3);
}

}  // namespace
}  // namespace ws::test
