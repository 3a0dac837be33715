#pragma once
// What a step adds and records on the device, shared by the solver's I/O kernel and
// the kernels that run whole steps themselves (kernels/persistent_l2.cu): the sources
// (gain * injection added to u^{n+1}) and the receivers' taps (a weighted sum of u^{n+1}).
#include <cstdint>

#include "core/hd.hpp"
#include "core/source_signal.hpp"
#ifdef __CUDACC__
#include "cuda/kernels/dependent_launch.cuh"
#endif

namespace ws {

struct DeviceSource {
  int64_t index;
  SourceSignal signal;
  double gain;
  Injection injection;
  // A sampled signal: its track's window on the device (samples of steps *window_first - 1 ..,
  // core/sample_stream.hpp), refilled between launches; null for the analytic signals.
  const float* window;
  const long long* window_first;
};

struct DeviceTap {
  int64_t index;
  double weight;
};

#ifdef __CUDACC__
// What source s adds at the step that produces u^{n+1}, before its gain.
__device__ __forceinline__ double source_injection(const DeviceSource& s, long long step, double dt) {
  if (!s.window) return injection_value(s.signal, s.injection, step, dt);
  return s.signal.amplitude * sampled_injection(s.window + 1 + (step - *s.window_first), s.injection);
}

// Receiver q's sample: the weighted sum of u over its taps (tap_start[q] .. tap_start[q+1]),
// summed in double in tap order.
template <class T>
__device__ __forceinline__ T receiver_sample(const T* u, const DeviceTap* taps, const int* tap_start, int q) {
  double v = 0.0;
  for (int t = tap_start[q]; t < tap_start[q + 1]; ++t) v += taps[t].weight * (double)u[taps[t].index];
  return T(v);
}

// What source s adds to u^{n+1} at `step` (gain times injection, rounded to T): the one
// expression every kernel that adds sources uses, so all give the same bits.
template <class T>
__device__ __forceinline__ T source_addition(const DeviceSource& s, long long step, double dt) {
  return T(s.gain * source_injection(s, step, dt));
}

// What each source adds at steps b + step0 .. b + step0 + steps - 1, where b is *step_base
// (a replayed graph's device counter) or 0 when step_base is null: value[s * n + e] is
// source e's addition at step b + step0 + s. For kernels that read the values instead of
// computing them: the signals' double arithmetic stays out of a kernel whose registers
// bound its occupancy.
// Launched as a programmatic dependent (dependent_launch.cuh) it waits for the kernels
// before it, which may still read the values it overwrites.
template <class T>
__global__ void source_values_kernel(const DeviceSource* src, int n, const long long* step_base, long long step0,
                                     int steps, double dt, T* value) {
  pdl_launch_dependents();
  pdl_wait();
  const long long first = (step_base ? *step_base : 0) + step0;
  for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < n * steps; x += blockDim.x * gridDim.x)
    value[x] = source_addition<T>(src[x % n], first + x / n, dt);
}

// One step's I/O by one block: the sources add gain * injection to u^{n+1} (atomics keep
// two sources, or two taps of a spread source, on one node correct), then the receivers
// record the weighted sum of u^{n+1} over their taps into rec_buf[slot * nrec + q].
template <class T>
__device__ void io_body(T* un, const DeviceSource* src, int nsrc, const DeviceTap* taps, const int* tap_start,
                        int nrec, T* rec_buf, long long slot, long long step, double dt) {
  for (int q = threadIdx.x; q < nsrc; q += blockDim.x)
    atomicAdd(un + src[q].index, source_addition<T>(src[q], step, dt));
  __syncthreads();
  for (int q = threadIdx.x; q < nrec; q += blockDim.x) rec_buf[slot * nrec + q] = receiver_sample(un, taps, tap_start, q);
}

template <class T>
__global__ void io_kernel(T* un, const DeviceSource* src, int nsrc, const DeviceTap* taps, const int* tap_start,
                          int nrec, T* rec_buf, long long slot, long long step, double dt) {
  io_body(un, src, nsrc, taps, tap_start, nrec, rec_buf, slot, step, dt);
}
#endif

}  // namespace ws
