#pragma once
// The CUDA wave solver: two device grids, a stream of its own, the update kernel
// chosen from the registry (switchable between steps), source injection and
// receiver recording on the device. Receiver samples collect in a device buffer
// and reach the host once per chunk, so there is no host synchronisation per step.
#include <memory>
#include <string>

#include "cuda/kernel_registry.hpp"
#include "wave/wave_solver.hpp"

namespace ws {

class CudaWaveSolver : public WaveSolver {
 public:
  // Throws std::invalid_argument when the variant does not run this stencil or precision.
  virtual void set_kernel(const std::string& id, const LaunchOptions& options) = 0;
  virtual const KernelVariant& kernel() const = 0;
  virtual const LaunchOptions& launch_options() const = 0;
  virtual cudaStream_t stream() const = 0;
  // Waits for the solver's stream (the renderer reads the field after this).
  virtual void synchronize() = 0;
};

// kernel_id empty: the first registered variant that supports the stencil.
std::unique_ptr<CudaWaveSolver> make_cuda_solver(Precision precision, const Stencil& stencil, int nx, int ny, int nz,
                                                 double courant, double dt_s, const std::string& kernel_id = "");

// The registry's default variant for a stencil and precision ("" when none).
std::string default_kernel_for(const Stencil& stencil, Precision precision);

}  // namespace ws
