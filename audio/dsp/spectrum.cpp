#include "dsp/spectrum.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

namespace ws::audio {

SpectrumAnalyzer::SpectrumAnalyzer(int fft_size) : n_(fft_size) {
  if (fft_size < 16) throw std::invalid_argument("spectrum size " + std::to_string(fft_size) + " is below 16");
  history_.assign(n_, 0.0f);
  hann_.resize(n_);
  for (int i = 0; i < n_; ++i) hann_[i] = 0.5 - 0.5 * std::cos(2.0 * M_PI * i / n_);
  in_ = fftw_alloc_real(n_);
  out_ = fftw_alloc_complex(n_ / 2 + 1);
  plan_ = fftw_plan_dft_r2c_1d(n_, in_, out_, FFTW_ESTIMATE);
  db_.assign(n_ / 2 + 1, -200.0f);
}

SpectrumAnalyzer::~SpectrumAnalyzer() {
  fftw_destroy_plan(plan_);
  fftw_free(in_);
  fftw_free(out_);
}

void SpectrumAnalyzer::push(const float* s, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    history_[pos_] = s[i];
    pos_ = (pos_ + 1) % n_;
  }
}

void SpectrumAnalyzer::clear() {
  std::fill(history_.begin(), history_.end(), 0.0f);
  pos_ = 0;
}

void SpectrumAnalyzer::compute() {
  for (int i = 0; i < n_; ++i) in_[i] = history_[(pos_ + i) % n_] * hann_[i];
  fftw_execute(plan_);
  // A sine of amplitude A gives |X_k| = A * sum(w) / 2 = A * N / 4 for the Hann window.
  const double scale = 4.0 / n_;
  for (int k = 0; k <= n_ / 2; ++k) {
    const double mag = std::hypot(out_[k][0], out_[k][1]) * scale;
    db_[k] = (float)(20.0 * std::log10(mag + 1e-12));
  }
}

}  // namespace ws::audio
