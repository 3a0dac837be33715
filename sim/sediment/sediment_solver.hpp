#pragma once
// The seam between the sediment model and its backends (CPU reference, CUDA).
// One step: ghosts of h^l and s^l; h-kernel; ghosts of h^{l+1}; s-kernel; swap.
#include <cuda_runtime.h>

#include <memory>
#include <string>
#include <vector>

#include "sediment/sediment_kernels.hpp"
#include "sediment/sediment_setup.hpp"
#include "sediment/sediment_view.hpp"

namespace ws {

// Everything a backend needs, in double; the backend converts to its precision.
struct SedimentProblem {
  SedimentInitialState state;
  double compaction_sand = 0, compaction_mud = 0, top_layer_m = 0, dx_m = 0, dy_m = 0, dt_s = 0;

  template <class T>
  SedimentCoeffs<T> coeffs() const {
    return make_sediment_coeffs<T>(compaction_sand, compaction_mud, top_layer_m, dx_m, dy_m, dt_s);
  }
};

class SedimentSolver {
 public:
  virtual ~SedimentSolver() = default;
  virtual std::string backend() const = 0;  // "cpu" or "cuda"
  virtual Precision precision() const = 0;
  virtual const SedimentLayout& layout() const = 0;
  virtual void advance(int steps) = 0;
  virtual long long step() const = 0;
  // h and s (ghosts included) in the double layout of SedimentInitialState.
  virtual void read_state(std::vector<double>& h, std::vector<double>& s) = 0;
  virtual void write_state(const std::vector<double>& h, const std::vector<double>& s, long long step) = 0;
  virtual SedimentFieldView view_h() const = 0;
  virtual SedimentFieldView view_s() const = 0;
  virtual SedimentMetrics metrics() const = 0;
  virtual size_t memory_bytes() const = 0;
};

class CudaSedimentSolver : public SedimentSolver {
 public:
  // Sets the h- or s-kernel (by the kernel's kind); std::invalid_argument for a bad id or block.
  virtual void set_kernel(const std::string& id, BlockShape block) = 0;
  virtual const SedimentKernel& h_kernel() const = 0;
  virtual const SedimentKernel& s_kernel() const = 0;
  virtual BlockShape h_block() const = 0;
  virtual BlockShape s_block() const = 0;
  virtual cudaStream_t stream() const = 0;
  virtual void synchronize() = 0;
};

std::unique_ptr<SedimentSolver> make_cpu_sediment_solver(const SedimentProblem& problem, Precision precision);
// Kernel ids empty: the paper's best pair, h-opt3 and s-opt1.
std::unique_ptr<CudaSedimentSolver> make_cuda_sediment_solver(const SedimentProblem& problem, Precision precision,
                                                              const std::string& h_kernel = "",
                                                              const std::string& s_kernel = "");

// Metrics from a timed run of `steps` steps over `cells` cells.
SedimentMetrics sediment_metrics(double seconds, long long steps, long long cells, Precision p);

}  // namespace ws
