#include "decomp/slab_workers.hpp"

#include <cstdlib>

namespace ws {

namespace {

// Spins on `ready` for at most `limit` (yielding the core between looks); true when it became true.
template <class Ready>
bool spin_until(Ready ready, std::chrono::microseconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  for (int i = 0;; ++i) {
    if (ready()) return true;
    if ((i & 63) == 63) {
      if (std::chrono::steady_clock::now() > end) return false;
      std::this_thread::yield();
    }
  }
}

}  // namespace

SlabWorkers::SlabWorkers(int n) : n_(n < 1 ? 1 : n) {
  if (const char* e = std::getenv("WS_SLAB_SPIN_US"); e && *e) spin_ = std::chrono::microseconds(std::atol(e));
  for (int i = 1; i < n_; ++i) threads_.emplace_back([this, i] { loop(i); });
}

SlabWorkers::~SlabWorkers() {
  {
    std::lock_guard<std::mutex> lock(m_);
    quit_ = true;
  }
  start_.notify_all();
  for (auto& t : threads_) t.join();
}

void SlabWorkers::run(const std::function<void(int)>& f) {
  if (n_ == 1) {
    f(0);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(m_);
    job_ = &f;
    pending_ = n_ - 1;
    error_ = nullptr;
    ++generation_;
  }
  start_.notify_all();
  std::exception_ptr mine;
  try {
    f(0);
  } catch (...) {
    mine = std::current_exception();
  }
  spin_until([this] { return pending_.load(std::memory_order_acquire) == 0; }, spin_);
  std::unique_lock<std::mutex> lock(m_);
  done_.wait(lock, [this] { return pending_.load(std::memory_order_acquire) == 0; });
  job_ = nullptr;
  if (mine) std::rethrow_exception(mine);
  if (error_) std::rethrow_exception(error_);
}

void SlabWorkers::loop(int index) {
  long long seen = 0;
  for (;;) {
    const std::function<void(int)>* job;
    spin_until([&] { return generation_.load(std::memory_order_acquire) != seen; }, spin_);
    {
      std::unique_lock<std::mutex> lock(m_);
      start_.wait(lock, [&] { return quit_ || generation_.load() != seen; });
      if (quit_) return;
      seen = generation_.load();
      job = job_;
    }
    std::exception_ptr err;
    try {
      (*job)(index);
    } catch (...) {
      err = std::current_exception();
    }
    {
      std::lock_guard<std::mutex> lock(m_);
      if (err && !error_) error_ = err;
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) done_.notify_one();
    }
  }
}

}  // namespace ws
