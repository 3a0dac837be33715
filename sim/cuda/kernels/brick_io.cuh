#pragma once
// What the brick kernels (brick_onchip.cu, brick_pairs_onchip.cu) read and write besides
// their fields: the sources and taps of a run, and the receivers' samples summed from the
// taps' values after it.
#include "cuda/step_io.hpp"
#include "cuda/tiled_step.hpp"

namespace ws {

// What a run reads besides the fields: the sources' node indices and this run's values
// (value[s * nsrc + e]), the receivers' taps, and where the taps' values go
// (tap_value[s * ntaps + t]).
template <class T>
struct BrickIo {
  const DeviceSource* src = nullptr;
  const T* src_value = nullptr;
  int nsrc = 0;
  const DeviceTap* taps = nullptr;
  int ntaps = 0;
  T* tap_value = nullptr;
};

// Receiver q's sample of step s of the run into slot slot0 + s: its taps' values summed in
// tap order in double, as receiver_sample (step_io.hpp) sums them from the field.
template <class T>
__global__ void brick_tap_sums_kernel(const T* tap_value, int run, int ntaps, const DeviceTap* taps,
                                      const int* tap_start, int nrec, T* rec_buf, long long slot0,
                                      const StepCounter* counter) {
  const long long slot = (counter ? counter->slot : 0) + slot0;
  for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < run * nrec; x += blockDim.x * gridDim.x) {
    const int s = x / nrec, q = x % nrec;
    const T* u = tap_value + (size_t)s * ntaps;
    double v = 0.0;
    for (int e = tap_start[q]; e < tap_start[q + 1]; ++e) v += taps[e].weight * (double)u[e];
    rec_buf[(slot + s) * nrec + q] = T(v);
  }
}

}  // namespace ws
