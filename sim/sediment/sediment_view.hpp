#pragma once
// What the viewer and the benchmark see of the sediment model: a 2-D field (h
// or s) where it lives (device or host), its precision and its padded layout,
// plus the model's throughput figures.
#include <cstdint>

#include "core/precision.hpp"

namespace ws {

struct SedimentFieldView {
  const void* data = nullptr;  // start of the padded array (device pointer when on_device)
  Precision precision = Precision::Double;
  int nx = 0, ny = 0;          // interior cells
  int64_t pitch = 0;           // elements per row
  int64_t origin = 0;          // element index of interior cell (0, 0); the ghost layer is at -1 and nx, ny
  bool on_device = false;
  double dx_m = 0.0, dy_m = 0.0;  // cell size; cell (i, j) is centred at ((i + 0.5) dx, (j + 0.5) dy)

  int64_t index(int i, int j) const { return origin + (int64_t)j * pitch + i; }
};

struct SedimentMetrics {
  double steps_per_s = 0.0;
  double gpoints_per_s = 0.0;     // cells updated (h and s) per second / 1e9
  double gflops_paper = 0.0;      // with the paper's 55 + 34 flops per cell and step
  double gflops_counted = 0.0;    // with the flops counted in our point formulas (49 + 53)
  double bytes_per_point = 0.0;   // compulsory traffic per cell and step: 2 kernels x (4 reads + 1 write)
  double achieved_gbs = 0.0;      // gpoints_per_s * bytes_per_point
  double last_advance_s = 0.0;    // wall (CPU) or CUDA-event (GPU) time of the last advance()
  long long last_steps = 0;
};

// Compulsory bytes per cell for one kernel (h or s): four arrays read, one written.
inline double sediment_kernel_bytes_per_point(Precision p) { return 5.0 * bytes_of(p); }

}  // namespace ws
