// The flags that order slabs on different GPUs inside the step graph (step_flags.hpp):
// a wait returns once the flags reach the step, a signal stores its value behind the
// stream's earlier work, and a wait whose flag never comes gives up after the timeout
// and says so, instead of hanging the device.
#include <gtest/gtest.h>

#include <chrono>

#include "common/gpu.hpp"
#include "core/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "decomp/step_flags.hpp"

namespace ws::test {
namespace {

unsigned read(const unsigned* d) {
  unsigned v = 0;
  CUDA_CHECK(cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost));
  return v;
}

TEST(StepFlags, WaitReturnsOnceBothFlagsReachTheStep) {
  WS_REQUIRE_GPU();
  CUDA_CHECK(cudaSetDevice(0));
  DeviceBuffer<unsigned> flags(kStepFlags);
  CUDA_CHECK(cudaMemset(flags.get(), 0, flags.bytes()));
  CudaStream s;
  queue_flag_signal(flags.get() + kHaloBelowReady, 3, s.get());
  queue_flag_signal(flags.get() + kHaloAboveReady, 3, s.get());
  queue_flag_wait(flags.get(), kHaloBelowReady, kHaloAboveReady, 3, flags.get() + kWaitTimedOut, s.get());
  CUDA_CHECK(cudaStreamSynchronize(s.get()));
  EXPECT_EQ(read(flags.get() + kHaloBelowReady), 3u);
  EXPECT_EQ(read(flags.get() + kWaitTimedOut), 0u);
}

TEST(StepFlags, WaitOnAnotherStreamSeesTheSignal) {
  WS_REQUIRE_GPU();
  CUDA_CHECK(cudaSetDevice(0));
  DeviceBuffer<unsigned> flags(kStepFlags);
  CUDA_CHECK(cudaMemset(flags.get(), 0, flags.bytes()));
  CudaStream waiter, signaller;
  // The wait is queued first and spins until the other stream's signal lands.
  queue_flag_wait(flags.get(), kBelowDone, -1, 1, flags.get() + kWaitTimedOut, waiter.get());
  queue_flag_signal(flags.get() + kBelowDone, 1, signaller.get());
  CUDA_CHECK(cudaStreamSynchronize(waiter.get()));
  EXPECT_EQ(read(flags.get() + kWaitTimedOut), 0u);
}

TEST(StepFlags, AWaitThatNeverSeesItsFlagGivesUpAndSaysSo) {
  WS_REQUIRE_GPU();
  CUDA_CHECK(cudaSetDevice(0));
  DeviceBuffer<unsigned> flags(kStepFlags);
  CUDA_CHECK(cudaMemset(flags.get(), 0, flags.bytes()));
  CudaStream s;
  queue_flag_signal(flags.get() + kHaloAboveReady, 1, s.get());  // only one of the two comes
  const auto t0 = std::chrono::steady_clock::now();
  queue_flag_wait(flags.get(), kHaloBelowReady, kHaloAboveReady, 1, flags.get() + kWaitTimedOut, s.get());
  CUDA_CHECK(cudaStreamSynchronize(s.get()));
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(read(flags.get() + kWaitTimedOut), 1u);
  EXPECT_GE(waited, 0.9 * kStepFlagTimeoutS);
}

}  // namespace
}  // namespace ws::test
