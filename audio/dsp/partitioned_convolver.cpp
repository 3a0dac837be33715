#include "dsp/partitioned_convolver.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace ws::audio {

PartitionedConvolver::PartitionedConvolver(const std::vector<float>& h, int block_frames) : block_(block_frames) {
  if (block_frames < 1)
    throw std::invalid_argument("convolution block of " + std::to_string(block_frames) + " frames; must be >= 1");
  if (h.empty()) throw std::invalid_argument("the impulse response is empty");
  const int n = 2 * block_;
  bins_ = block_ + 1;
  partitions_ = (int)((h.size() + block_ - 1) / block_);
  window_ = fftwf_alloc_real(n);
  time_out_ = fftwf_alloc_real(n);
  accum_ = fftwf_alloc_complex(bins_);
  // FFTW_ESTIMATE: planning must not take seconds, and must not overwrite the arrays.
  forward_ = fftwf_plan_dft_r2c_1d(n, window_, accum_, FFTW_ESTIMATE);
  inverse_ = fftwf_plan_dft_c2r_1d(n, accum_, time_out_, FFTW_ESTIMATE | FFTW_PRESERVE_INPUT);
  if (!forward_ || !inverse_) throw std::runtime_error("FFTW could not plan a transform of size " + std::to_string(n));
  for (int p = 0; p < partitions_; ++p) {
    // Partition p occupies the first B samples of the 2B window; the zero
    // second half makes the circular product linear over the kept half.
    std::fill(window_, window_ + n, 0.0f);
    const size_t begin = (size_t)p * block_;
    const size_t end = std::min(h.size(), begin + block_);
    std::copy(h.begin() + begin, h.begin() + end, window_);
    fftwf_complex* spec = fftwf_alloc_complex(bins_);
    fftwf_execute_dft_r2c(forward_, window_, spec);
    ir_spectra_.push_back(spec);
    fftwf_complex* x = fftwf_alloc_complex(bins_);
    std::memset(x, 0, sizeof(fftwf_complex) * bins_);
    delay_line_.push_back(x);
  }
  reset();
}

PartitionedConvolver::~PartitionedConvolver() {
  for (auto* s : ir_spectra_) fftwf_free(s);
  for (auto* s : delay_line_) fftwf_free(s);
  if (forward_) fftwf_destroy_plan(forward_);
  if (inverse_) fftwf_destroy_plan(inverse_);
  fftwf_free(window_);
  fftwf_free(time_out_);
  fftwf_free(accum_);
}

void PartitionedConvolver::reset() {
  std::fill(window_, window_ + 2 * block_, 0.0f);
  for (auto* x : delay_line_) std::memset(x, 0, sizeof(fftwf_complex) * bins_);
  head_ = 0;
}

void PartitionedConvolver::process_block(const float* in, float* out) {
  // Slide the window: old second half becomes the first half, new block the second.
  std::memmove(window_, window_ + block_, sizeof(float) * block_);
  std::memcpy(window_ + block_, in, sizeof(float) * block_);
  head_ = (head_ + partitions_ - 1) % partitions_;  // newest spectrum goes to head_
  fftwf_execute_dft_r2c(forward_, window_, delay_line_[head_]);
  std::memset(accum_, 0, sizeof(fftwf_complex) * bins_);
  for (int p = 0; p < partitions_; ++p) {
    const fftwf_complex* x = delay_line_[(head_ + p) % partitions_];
    const fftwf_complex* hs = ir_spectra_[p];
    for (int k = 0; k < bins_; ++k) {
      accum_[k][0] += x[k][0] * hs[k][0] - x[k][1] * hs[k][1];
      accum_[k][1] += x[k][0] * hs[k][1] + x[k][1] * hs[k][0];
    }
  }
  fftwf_execute_dft_c2r(inverse_, accum_, time_out_);
  // FFTW's inverse is unnormalised: divide by N.
  const float scale = 1.0f / (2.0f * block_);
  for (int i = 0; i < block_; ++i) out[i] = time_out_[block_ + i] * scale;
}

std::vector<double> direct_convolution(const std::vector<double>& x, const std::vector<double>& h) {
  if (x.empty() || h.empty()) return {};
  std::vector<double> y(x.size() + h.size() - 1, 0.0);
  for (size_t i = 0; i < x.size(); ++i)
    for (size_t j = 0; j < h.size(); ++j) y[i + j] += x[i] * h[j];
  return y;
}

}  // namespace ws::audio
