#include "decomp/slab_workers.hpp"

namespace ws {

SlabWorkers::SlabWorkers(int n) : n_(n < 1 ? 1 : n) {
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
  std::unique_lock<std::mutex> lock(m_);
  done_.wait(lock, [this] { return pending_ == 0; });
  job_ = nullptr;
  if (mine) std::rethrow_exception(mine);
  if (error_) std::rethrow_exception(error_);
}

void SlabWorkers::loop(int index) {
  long long seen = 0;
  for (;;) {
    const std::function<void(int)>* job;
    {
      std::unique_lock<std::mutex> lock(m_);
      start_.wait(lock, [&] { return quit_ || generation_ != seen; });
      if (quit_) return;
      seen = generation_;
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
      if (--pending_ == 0) done_.notify_one();
    }
  }
}

}  // namespace ws
