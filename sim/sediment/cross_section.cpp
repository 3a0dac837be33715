#include "sediment/cross_section.hpp"

#include <stdexcept>

#include "core/cuda_check.hpp"

namespace ws {

namespace {

// Copies n elements starting at element `first`, `step` elements apart, into doubles.
std::vector<double> gather(const SedimentFieldView& v, int64_t first, int64_t step, int n, cudaStream_t stream) {
  const size_t eb = (size_t)bytes_of(v.precision);
  std::vector<unsigned char> raw((size_t)n * eb);
  const unsigned char* base = static_cast<const unsigned char*>(v.data) + (size_t)first * eb;
  if (v.on_device) {
    CUDA_CHECK(cudaMemcpy2DAsync(raw.data(), eb, base, (size_t)step * eb, eb, (size_t)n, cudaMemcpyDeviceToHost,
                                 stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
  } else {
    for (int q = 0; q < n; ++q)
      for (size_t b = 0; b < eb; ++b) raw[(size_t)q * eb + b] = base[(size_t)q * step * eb + b];
  }
  std::vector<double> out(n);
  for (int q = 0; q < n; ++q)
    out[q] = v.precision == Precision::Float ? (double)reinterpret_cast<const float*>(raw.data())[q]
                                             : reinterpret_cast<const double*>(raw.data())[q];
  return out;
}

}  // namespace

CrossSection extract_cross_section(const SedimentFieldView& h, const SedimentFieldView& s, SectionAxis axis, int index,
                                   cudaStream_t stream) {
  const bool row = axis == SectionAxis::Row;
  const int limit = row ? h.ny : h.nx;
  if (index < 0 || index >= limit)
    throw std::invalid_argument(std::string(row ? "row" : "column") + " " + std::to_string(index) +
                                " is outside the basin; allowed: 0 .. " + std::to_string(limit - 1));
  CrossSection c;
  c.axis = axis;
  c.index = index;
  const int n = row ? h.nx : h.ny;
  const int64_t step = row ? 1 : h.pitch;
  c.h_m = gather(h, row ? h.index(0, index) : h.index(index, 0), step, n, stream);
  c.s = gather(s, row ? s.index(0, index) : s.index(index, 0), row ? 1 : s.pitch, n, stream);
  c.position_m.resize(n);
  for (int q = 0; q < n; ++q) c.position_m[q] = (q + 0.5) * (row ? h.dx_m : h.dy_m);
  return c;
}

}  // namespace ws
