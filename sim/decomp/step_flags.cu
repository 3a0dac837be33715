#include "decomp/step_flags.hpp"

#include "core/cuda_check.hpp"

namespace ws {

namespace {

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void flag_wait_kernel(const unsigned* flags, int a, int b, unsigned at_least, unsigned* timed_out,
                                 unsigned long long timeout_ns) {
  const volatile unsigned* f = flags;
  const unsigned long long t0 = global_ns();
  while (f[a] < at_least || (b >= 0 && f[b] < at_least)) {
    if (global_ns() - t0 > timeout_ns) {
      *(volatile unsigned*)timed_out = 1u;
      return;
    }
    __nanosleep(64);
  }
}

__global__ void flag_signal_kernel(unsigned* flag, unsigned value) {
  // The stream's earlier work (the copy into the neighbour's halo) has completed; the
  // fence orders this thread's view of it before the flag's store reaches the peer.
  __threadfence_system();
  *(volatile unsigned*)flag = value;
}

}  // namespace

void queue_flag_wait(const unsigned* flags, int a, int b, unsigned at_least, unsigned* timed_out,
                     cudaStream_t stream) {
  flag_wait_kernel<<<1, 1, 0, stream>>>(flags, a, b, at_least, timed_out,
                                        (unsigned long long)(kStepFlagTimeoutS * 1e9));
  CUDA_CHECK_LAUNCH();
}

void queue_flag_signal(unsigned* flag, unsigned value, cudaStream_t stream) {
  flag_signal_kernel<<<1, 1, 0, stream>>>(flag, value);
  CUDA_CHECK_LAUNCH();
}

}  // namespace ws
