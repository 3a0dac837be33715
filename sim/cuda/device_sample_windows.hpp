#pragma once
// The device's window of the sampled source signals (WAV files, the built-in dry signals)
// a solver's steps read: every track's samples for one window of steps
// (SampleWindows::window_steps()), in device memory, moved on by the host between runs of
// steps. Each new window is written into one of two pinned host buffers and copied on the
// solver's stream, ordered after the launches that read the old one, so the host waits only
// for the copy out of the same pinned buffer two windows before.
#include <array>
#include <memory>
#include <vector>

#include "core/sample_stream.hpp"
#include "cuda/device_buffer.hpp"
#include "wave/wave_solver.hpp"

namespace ws {

class DeviceSampleWindows {
 public:
  // The tracks of the sources' sampled signals (one per stream and start step); the
  // device window is allocated for them and is not valid until cover() fills it.
  void set_tracks(const std::vector<SourceNode>& sources, double dt_s);

  bool empty() const { return windows_.empty(); }

  // The device window of source n's track (null for a source without samples), and the
  // device copy of the step the window starts at: what DeviceSource points at.
  const float* window_of(const SourceNode& n, double dt_s);
  const long long* first_step_device() const { return first_dev_.get(); }

  // Makes the device window hold steps n .. n + len - 1 of every track (len at most
  // SampleWindows::window_steps()), queued on `stream`.
  void cover(long long n, int len, cudaStream_t stream);

 private:
  SampleWindows windows_;
  DeviceBuffer<float> samples_dev_;       // every track's window of SampleWindows::stride() samples
  DeviceBuffer<long long> first_dev_{1};  // the step the device window starts at
  std::array<PinnedBuffer<float>, 2> samples_host_;
  PinnedBuffer<long long> first_host_{2};
  std::array<CudaEvent, 2> copied_;  // the copy from samples_host_[b] has landed
  std::array<bool, 2> copy_pending_{false, false};
  int next_host_ = 0;
  long long first_ = 0;
  bool valid_ = false;
};

}  // namespace ws
