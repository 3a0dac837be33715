#pragma once
// A fixed set of threads that run one function per index and wait for all: the
// decomposed solver drives each GPU's slabs from a thread of its own, so the GPUs
// step concurrently although a solver's advance() waits for its stream.
// A step of a small room on several GPUs queues its work in tens of microseconds, about
// what waking a thread blocked on a condition variable takes; so the threads and the
// caller first spin for a short while on the job's counters (200 us; the environment's
// WS_SLAB_SPIN_US sets it, 0: block at once, for comparison), and only then block.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace ws {

class SlabWorkers {
 public:
  explicit SlabWorkers(int n);  // n - 1 threads; index 0 runs on the caller
  ~SlabWorkers();
  SlabWorkers(const SlabWorkers&) = delete;
  SlabWorkers& operator=(const SlabWorkers&) = delete;

  int size() const { return n_; }
  // f(0) .. f(n-1) concurrently; returns when all are done and rethrows the first exception.
  void run(const std::function<void(int)>& f);

 private:
  void loop(int index);
  std::chrono::microseconds spin_{200};

  int n_;
  std::vector<std::thread> threads_;
  std::mutex m_;
  std::condition_variable start_, done_;
  const std::function<void(int)>* job_ = nullptr;
  std::atomic<long long> generation_{0};
  std::atomic<int> pending_{0};
  bool quit_ = false;
  std::exception_ptr error_;
};

}  // namespace ws
