#pragma once
// The sediment model: a scene, the backend that runs it (CUDA when usable,
// else the CPU reference, with the reason), and the live changes the GUI makes
// (kernel and block of either kernel, precision) without losing the state.
// The counterpart of ws::WaveModel for "model": "sediment2d".
#include <memory>
#include <string>

#include "sediment/sediment_scene.hpp"
#include "sediment/sediment_setup.hpp"
#include "sediment/sediment_solver.hpp"
#include "cuda/backend_choice.hpp"

namespace ws {

struct SedimentStats {
  double h_min_m = 0, h_max_m = 0, s_min = 0, s_max = 0;
  double volume_m3 = 0;  // sum of h over the interior times dx dy (sediment volume above h = 0)
};

class SedimentModel {
 public:
  // h_kernel/s_kernel empty: the paper's best pair (h-opt3, s-opt1). Throws
  // std::runtime_error when Cuda is demanded and no device is usable.
  SedimentModel(const SedimentScene& scene, BackendChoice backend, const std::string& h_kernel = "",
                const std::string& s_kernel = "");

  const SedimentScene& scene() const { return scene_; }
  const SedimentGrid& grid() const { return grid_; }
  const std::string& backend_note() const { return backend_note_; }
  SedimentSolver& solver() { return *solver_; }
  CudaSedimentSolver* cuda() { return cuda_; }  // null on the CPU backend
  Precision precision() const { return solver_->precision(); }

  void advance(int steps) { solver_->advance(steps); }
  long long step() const { return solver_->step(); }
  double time_s() const { return solver_->step() * grid_.dt_s; }
  void reset();  // back to the scene's initial state, step 0 (kernels and precision kept)

  // Live changes, between steps. set_kernel picks h or s by the kernel's kind;
  // block absent: the kernel's default. Both need the CUDA backend.
  void set_kernel(const std::string& id);
  void set_kernel(const std::string& id, BlockShape block);
  void set_precision(Precision p);

  SedimentMetrics metrics() const { return solver_->metrics(); }
  SedimentFieldView view_h() const { return solver_->view_h(); }
  SedimentFieldView view_s() const { return solver_->view_s(); }
  // Waits for the CUDA stream (no-op on the CPU); call before reading a view from another stream.
  void synchronize();
  cudaStream_t stream() const;  // the CUDA stream, or 0 on the CPU backend

  // Reads the state back (host copy): for tests, the CLI and occasional panel figures, not per frame.
  SedimentStats stats();

 private:
  void build(Precision p, const std::string& h_id, const std::string& s_id, const BlockShape* hb,
             const BlockShape* sb);

  SedimentScene scene_;
  SedimentProblem problem_;
  SedimentGrid grid_;
  BackendChoice choice_;
  std::unique_ptr<SedimentSolver> solver_;
  CudaSedimentSolver* cuda_ = nullptr;
  std::string backend_note_;
};

}  // namespace ws
