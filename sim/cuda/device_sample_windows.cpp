#include "cuda/device_sample_windows.hpp"

#include <stdexcept>
#include <string>

#include "core/cuda_check.hpp"

namespace ws {

void DeviceSampleWindows::set_tracks(const std::vector<SourceNode>& sources, double dt_s) {
  windows_.clear();
  for (const auto& n : sources)
    if (n.samples) windows_.track(n.samples, sampled_start_step(n.signal, dt_s));
  const size_t floats = (size_t)windows_.tracks() * SampleWindows::stride();
  samples_dev_ = DeviceBuffer<float>(floats);
  for (auto& h : samples_host_) h = PinnedBuffer<float>(floats);
  valid_ = false;
  copy_pending_ = {false, false};
}

const float* DeviceSampleWindows::window_of(const SourceNode& n, double dt_s) {
  if (!n.samples) return nullptr;
  return samples_dev_.get() +
         (size_t)windows_.track(n.samples, sampled_start_step(n.signal, dt_s)) * SampleWindows::stride();
}

void DeviceSampleWindows::cover(long long n, int len, cudaStream_t stream) {
  if (windows_.empty()) return;
  if (len > SampleWindows::window_steps())
    throw std::logic_error("CUDA solver: a run of " + std::to_string(len) + " steps cannot read one window of " +
                           std::to_string(SampleWindows::window_steps()) + " samples");
  if (valid_ && SampleWindows::covers(first_, n) && SampleWindows::covers(first_, n + len - 1)) return;
  const int b = next_host_;
  next_host_ ^= 1;
  if (copy_pending_[b]) CUDA_CHECK(cudaEventSynchronize(copied_[b].get()));
  windows_.fill(n, samples_host_[b].get());
  first_host_.get()[b] = n;
  CUDA_CHECK(cudaMemcpyAsync(samples_dev_.get(), samples_host_[b].get(), samples_dev_.bytes(),
                             cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(cudaMemcpyAsync(first_dev_.get(), first_host_.get() + b, sizeof(long long), cudaMemcpyHostToDevice,
                             stream));
  copied_[b].record(stream);
  copy_pending_[b] = true;
  first_ = n;
  valid_ = true;
}

}  // namespace ws
