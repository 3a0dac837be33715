#pragma once
// The receivers of a CUDA solver: their taps on the device, and the device buffer the
// steps record into (slot s of a run holds every receiver's sample of one step), copied
// to the host when it is full, when the samples are taken, and at each finished advance.
// Between copies the steps run without the host.
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/cuda_check.hpp"
#include "core/field_layout.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/step_io.hpp"
#include "wave/wave_solver.hpp"

namespace ws {

template <class T>
class DeviceReceivers {
 public:
  static constexpr int kChunk = 4096;  // samples buffered on the device between host copies

  // New receivers; the samples of the old ones are dropped (take() them first).
  void set(const std::vector<ReceiverTaps>& receivers, const FieldLayout& L) {
    std::vector<DeviceTap> host;
    std::vector<int> start{0};
    tap_planes_ = 0;
    for (const auto& taps : receivers) {
      int lo = std::numeric_limits<int>::max(), hi = std::numeric_limits<int>::min();
      for (const auto& t : taps) {
        host.push_back({L.index(t.node.i, t.node.j, t.node.k), t.weight});
        lo = std::min(lo, t.node.k);
        hi = std::max(hi, t.node.k);
      }
      if (!taps.empty()) tap_planes_ = std::max(tap_planes_, hi - lo + 1);
      start.push_back((int)host.size());
    }
    count_ = (int)receivers.size();
    taps_ = DeviceBuffer<DeviceTap>(host.size());
    if (!host.empty()) copy_to_device(taps_.get(), host.data(), taps_.bytes());
    tap_start_ = DeviceBuffer<int>(start.size());
    copy_to_device(tap_start_.get(), start.data(), tap_start_.bytes());
    buf_ = DeviceBuffer<T>((size_t)kChunk * receivers.size());
    host_ = PinnedBuffer<T>((size_t)kChunk * receivers.size());
    pending_.assign(receivers.size(), {});
    slot_ = 0;
  }

  int count() const { return count_; }
  // The most z planes one receiver's taps span.
  int tap_planes() const { return tap_planes_; }
  const DeviceTap* taps() const { return taps_.get(); }
  int tap_count() const { return (int)taps_.size(); }
  const int* tap_start() const { return tap_start_.get(); }
  T* buffer() const { return buf_.get(); }
  size_t bytes() const { return buf_.bytes(); }

  // The slot the next step records into, and how many steps fit before the buffer is full
  // (a whole chunk without receivers: the runs of steps keep the same length).
  long long slot() const { return slot_; }
  long long room() const { return count_ > 0 ? kChunk - slot_ : kChunk; }
  // `steps` steps recorded (queued); the caller drains a full buffer before the next.
  void recorded(long long steps) {
    if (count_ == 0) return;
    slot_ += steps;
    if (slot_ > kChunk) throw std::logic_error("receiver buffer overrun: slot " + std::to_string(slot_));
  }
  bool full() const { return count_ > 0 && slot_ == kChunk; }

  // Copies the recorded slots to the host and appends them to the pending samples; the
  // stream is synchronised in any case (the end of an advance waits here).
  void drain(cudaStream_t stream) {
    if (count_ == 0 || slot_ == 0) {
      CUDA_CHECK(cudaStreamSynchronize(stream));
      return;
    }
    CUDA_CHECK(cudaMemcpyAsync(host_.get(), buf_.get(), sizeof(T) * slot_ * count_, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    for (long long s = 0; s < slot_; ++s)
      for (int r = 0; r < count_; ++r) pending_[r].push_back((double)host_.get()[s * count_ + r]);
    slot_ = 0;
  }

  // Every sample since the last take, per receiver.
  std::vector<std::vector<double>> take(cudaStream_t stream) {
    if (slot_ > 0) drain(stream);
    auto out = std::move(pending_);
    pending_.assign(count_, {});
    return out;
  }

  // Back to step 0: no slot used, nothing pending.
  void clear() {
    slot_ = 0;
    for (auto& r : pending_) r.clear();
  }

 private:
  int count_ = 0;
  DeviceBuffer<DeviceTap> taps_;
  int tap_planes_ = 0;
  DeviceBuffer<int> tap_start_;
  DeviceBuffer<T> buf_;
  PinnedBuffer<T> host_;
  long long slot_ = 0;
  std::vector<std::vector<double>> pending_;
};

}  // namespace ws
