#pragma once
// Uniformly partitioned FFT convolution (overlap-save with a frequency-domain
// delay line), the standard way to convolve a stream with a long impulse
// response at a fixed latency of one block.
//
// The impulse response h (length L) is cut into P = ceil(L / B) partitions of
// B samples; each is zero-padded to N = 2B and transformed once: H_p. Every
// input block of B samples is appended to the previous block, the 2B window
// is transformed (X_0) and pushed onto a delay line holding the last P input
// spectra. The output spectrum is Y = sum_p X_p . H_p, where X_p is the
// spectrum from p blocks ago; its inverse transform's second half is the
// exact linear convolution for the current block (overlap-save: the first
// half is circularly aliased and dropped). Cost per sample is O(P + log B)
// instead of O(L) for direct convolution.
#include <fftw3.h>

#include <vector>

namespace ws::audio {

class PartitionedConvolver {
 public:
  // block_frames: B (a power of two is fastest but any B >= 1 works).
  PartitionedConvolver(const std::vector<float>& impulse_response, int block_frames);
  ~PartitionedConvolver();
  PartitionedConvolver(const PartitionedConvolver&) = delete;
  PartitionedConvolver& operator=(const PartitionedConvolver&) = delete;

  int block_frames() const { return block_; }
  int partitions() const { return partitions_; }
  // Convolves exactly block_frames() input samples into as many output samples.
  void process_block(const float* in, float* out);
  void reset();  // clears the input history (the impulse response stays)

 private:
  int block_;
  int partitions_;
  int bins_;  // N/2 + 1 complex bins of the real transform
  std::vector<fftwf_complex*> ir_spectra_;  // H_p
  std::vector<fftwf_complex*> delay_line_;  // X_p, a ring indexed from head_
  int head_ = 0;
  float* window_ = nullptr;       // 2B time-domain input window
  fftwf_complex* accum_ = nullptr;  // Y
  float* time_out_ = nullptr;     // IFFT of Y
  fftwf_plan forward_ = nullptr;
  fftwf_plan inverse_ = nullptr;
};

// Reference O(L * M) linear convolution, full length M + L - 1 (for tests and short signals).
std::vector<double> direct_convolution(const std::vector<double>& x, const std::vector<double>& h);

}  // namespace ws::audio
