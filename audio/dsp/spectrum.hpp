#pragma once
// Magnitude spectrum of the most recent receiver samples, for the panel's plot.
// Runs on the producer side (GUI thread) with FFTW; a Hann window keeps the
// leakage of a strong low mode from hiding the weaker high ones.
#include <fftw3.h>

#include <vector>

namespace ws::audio {

class SpectrumAnalyzer {
 public:
  explicit SpectrumAnalyzer(int fft_size = 4096);
  ~SpectrumAnalyzer();
  SpectrumAnalyzer(const SpectrumAnalyzer&) = delete;
  SpectrumAnalyzer& operator=(const SpectrumAnalyzer&) = delete;

  int fft_size() const { return n_; }
  // Appends samples to the analysis history (keeps the last fft_size).
  void push(const float* samples, size_t count);
  void clear();
  // Recomputes magnitudes in dB re full scale (a full-scale sine reads 0 dB);
  // bin k is at k * sample_rate / fft_size.
  void compute();
  const std::vector<float>& magnitude_db() const { return db_; }

 private:
  int n_;
  std::vector<float> history_;  // circular, newest at pos_ - 1
  size_t pos_ = 0;
  std::vector<double> hann_;
  double* in_ = nullptr;
  fftw_complex* out_ = nullptr;
  fftw_plan plan_ = nullptr;
  std::vector<float> db_;
};

}  // namespace ws::audio
