#pragma once
// A single-producer single-consumer lock-free ring, after PortAudio's
// pa_ringbuffer: the GUI thread writes, the audio callback reads, and neither
// ever waits, locks or allocates.
//
// The capacity is a power of two so that an index maps to a slot with a mask.
// The two indices count items since the start and only grow (size_t wraps
// after 2^64 items, which is harmless because fill = write - read is computed
// modulo 2^64 too). Each side owns one index: the producer publishes its
// write index with a release store after copying the data, so a consumer that
// reads it with an acquire load sees the data; symmetrically the consumer
// releases its read index after copying out, so the producer never overwrites
// a slot still being read.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace ws::audio {

template <typename T>
class SpscRing {
  static_assert(std::is_trivially_copyable_v<T>, "the ring copies items with plain assignment");

 public:
  // capacity_items must be a power of two (>= 2).
  explicit SpscRing(size_t capacity_items) : capacity_(capacity_items), mask_(capacity_items - 1) {
    if (capacity_items < 2 || (capacity_items & (capacity_items - 1)) != 0)
      throw std::invalid_argument("ring capacity " + std::to_string(capacity_items) +
                                  " is not a power of two >= 2");
    data_ = std::make_unique<T[]>(capacity_items);
  }

  size_t capacity() const { return capacity_; }

  // Items the consumer can read now (exact for the consumer, a lower bound for others).
  size_t read_available() const {
    return write_.load(std::memory_order_acquire) - read_.load(std::memory_order_acquire);
  }
  // Free slots the producer can fill now (exact for the producer).
  size_t write_available() const { return capacity_ - read_available(); }

  // Producer: copies up to n items, returns how many were written.
  size_t write(const T* src, size_t n) {
    const size_t w = write_.load(std::memory_order_relaxed);  // only we change it
    const size_t r = read_.load(std::memory_order_acquire);
    n = std::min(n, capacity_ - (w - r));
    const size_t first = std::min(n, capacity_ - (w & mask_));
    std::copy(src, src + first, data_.get() + (w & mask_));
    std::copy(src + first, src + n, data_.get());
    write_.store(w + n, std::memory_order_release);
    return n;
  }

  // Consumer: copies up to n items out, returns how many were read.
  size_t read(T* dst, size_t n) {
    const size_t r = read_.load(std::memory_order_relaxed);  // only we change it
    const size_t w = write_.load(std::memory_order_acquire);
    n = std::min(n, w - r);
    const size_t first = std::min(n, capacity_ - (r & mask_));
    std::copy(data_.get() + (r & mask_), data_.get() + (r & mask_) + first, dst);
    std::copy(data_.get(), data_.get() + (n - first), dst + first);
    read_.store(r + n, std::memory_order_release);
    return n;
  }

  // Consumer: drops up to n items without copying them.
  size_t skip(size_t n) {
    const size_t r = read_.load(std::memory_order_relaxed);
    n = std::min(n, write_.load(std::memory_order_acquire) - r);
    read_.store(r + n, std::memory_order_release);
    return n;
  }

 private:
  size_t capacity_;
  size_t mask_;
  std::unique_ptr<T[]> data_;
  // Each index on its own cache line so the two threads do not false-share.
  alignas(64) std::atomic<size_t> write_{0};
  alignas(64) std::atomic<size_t> read_{0};
};

inline size_t next_power_of_two(size_t n) {
  size_t p = 2;
  while (p < n) p <<= 1;
  return p;
}

}  // namespace ws::audio
