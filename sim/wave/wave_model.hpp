#pragma once
// The wave model: a scene, the solver that runs it (CUDA when usable, else the
// CPU reference, with the reason), the receivers' history, and the live
// changes the GUI makes (kernel, precision, positions) without losing the field.
#include <memory>
#include <string>
#include <vector>

#include "cuda/backend_choice.hpp"
#include "cuda/cuda_solver.hpp"
#include "cuda/room_autotune.hpp"
#include "decomp/decomposed_solver.hpp"
#include "scene/scene.hpp"
#include "wave/solver_fault.hpp"
#include "wave/watchdog.hpp"
#include "wave/wave_solver.hpp"

namespace ws {

class QueuedSlabs;


// Raised when the field stops being finite or grows past any physical bound, or
// when the watchdog sees a growing zero mode or a DC ramp (sim/wave/watchdog.hpp):
// the caller pauses (the GUI) or stops with exit status 3 (`run`) and shows the
// message; the receivers recorded until then are in receiver_history().
class BlowUpError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The solver failed (a CUDA error) mid-run: stopped like a blow-up, the receivers kept;
// WaveModel::continue_on_cpu() goes on (sim/wave/solver_fault.hpp). `run` exits 4.
class SolverFaultError : public BlowUpError {
 public:
  using BlowUpError::BlowUpError;
};

class WaveModel {
 public:
  WaveModel(const WaveScene& scene, BackendChoice backend, const std::string& kernel_id = "");
  // Decomposed into z-slabs (sim/decomp/) when `decomp` asks for more than one slab,
  // devices or MPI ranks; its devices (or none: the CPU) then decide the backend.
  WaveModel(const WaveScene& scene, BackendChoice backend, const std::string& kernel_id, const DecompOptions& decomp);
  ~WaveModel();
  WaveModel(const WaveModel&) = delete;
  WaveModel& operator=(const WaveModel&) = delete;

  const WaveScene& scene() const { return scene_; }
  const DerivedGrid& grid() const { return grid_; }
  WaveSolver& solver() { return *solver_; }
  const WaveSolver& solver() const { return *solver_; }
  CudaWaveSolver* cuda() { return cuda_; }  // null on the CPU backend
  const std::string& backend_note() const { return backend_note_; }
  const BoundaryPlan& boundary() const { return boundary_; }
  const SolidNodes& solids() const { return solids_; }

  // Advances and appends the receivers' new samples; BlowUpError on a non-finite sample
  // or when the watchdog trips (it checks every Watchdog::kInterval steps).
  void advance(int steps);
  // The frame loop's advance (app/gui/frame_step.cpp, bench realtime): on one GPU the
  // steps are queued and this returns at once; finish_advance() waits for them, appends
  // the receivers' samples and runs the watchdog's checks (BlowUpError as advance()).
  // Elsewhere (CPU, slabs, a fault hook set) it is advance(). Every other call that uses
  // or changes the model finishes a queued advance first; step() counts queued steps.
  void advance_async(int steps);
  void finish_advance();
  bool advance_in_flight() const { return in_flight_; }
  // The first step after which every source is zero (-1: a source never ends).
  long long quiet_step() const { return quiet_step_; }
  // What the scheme adds per unit of source signal (rho c^2 T / X^3 for a volume velocity, 1 for "scheme").
  double source_gain(size_t index) const;
  long long step() const { return solver_->step(); }
  double time_s() const { return solver_->step() * grid_.dt_s; }
  void reset();

  // After a SolverFaultError: advance() refuses until continue_on_cpu() rebuilds the model on
  // the CPU solver, from the field at the fault when it could be read back (fault_field_kept()),
  // else from a silent room at the same step; the receivers' history stays.
  bool faulted() const { return fault_.active; }
  bool fault_field_kept() const { return fault_.field_kept; }
  void continue_on_cpu();
  // Test hook: fail once at a step (also WS_TEST_SOLVER_FAULT, read at construction).
  void set_fault_hook(std::optional<SolverFaultHook> hook) { fault_hook_ = hook; }

  // Receiver r's samples since the start (index s is u at step s + 1).
  const std::vector<std::vector<double>>& receiver_history() const { return history_; }

  // Live changes; each keeps the current field (and step) where it makes sense.
  void set_precision(Precision p);
  void set_kernel(const std::string& id, const LaunchOptions& options);
  // "auto → zstream_vec 64x8" while the kernel is the one `--kernel auto` chose
  // (sim/cuda/autotune.hpp), else "".
  const std::string& kernel_choice_note() const { return kernel_choice_note_; }
  // The decomposition the slabs run with (the kernel and the edge split `auto` chose on
  // slabs, sim/decomp/slab_autotune.hpp); the options given when not decomposed.
  const DecompOptions& decomposition() const { return decomp_in_use_; }
  // Times the candidates again (the cache ignored, then rewritten) and switches to the winner.
  void retune_kernel();
  // Switches the stencil while running: the Courant number (and so X, T and the grid)
  // stays, which the new stencil must allow (SceneError with its limit otherwise);
  // halos are re-padded and the field copied.
  // Keeps the current kernel when it runs the new stencil, else the registry's default.
  void set_stencil(const std::string& name);
  void set_source_position(size_t index, const std::array<double, 3>& position_m);
  // A new signal for a source (the GUI's signal picker), from the current step on; a sampled
  // signal needs its stream loaded (audio::make_sample_stream).
  void set_source_signal(size_t index, const SourceSignal& signal, const SampledSignalSpec& sampled = {});
  void set_receiver_position(size_t index, const std::array<double, 3>& position_m);

 private:
  void build_boundary();
  void build_solver(Precision p, const std::string& kernel_id, const LaunchOptions* options);
  // The autotuned kernel id and block (in `options`) for this grid; "" when tuning failed.
  std::string resolve_auto_kernel(Precision p, LaunchOptions& options, bool force);
  // `d` with the kernel and the edge split timed fastest on this room's slabs (in one
  // process; under MPI ranks, or when tuning fails, `d` as given).
  DecompOptions tune_slabs(Precision p, DecompOptions d);
  // The whole grid's boundary plan in precision p, and the room's step over it, as the
  // autotuners time it (the plan must outlive the step).
  BoundaryPlan grid_plan(Precision p) const;
  RoomStep room_step(const BoundaryPlan& plan) const;
  void wire_io();
  std::vector<ReceiverTaps> receiver_taps() const;
  std::vector<SourceNode> source_nodes() const;
  void take_samples();
  void restart_watchdog();
  void advance_chunks(int steps);
  // Steps of one solver advance within a longer one, and between the watchdog's checks:
  // Watchdog::kInterval, or kLongRunInterval for a CUDA kernel whose launch holds the grid
  // on chip for its run (KernelVariant::multi_long_runs).
  long long chunk_steps() const;
  [[noreturn]] void stop_on_fault(const std::exception& error);
  bool async_capable() const;

  WaveScene scene_;
  DerivedGrid grid_;
  BackendChoice choice_;
  DecompOptions decomp_;
  DecompOptions decomp_in_use_;
  std::unique_ptr<WaveSolver> solver_;
  CudaWaveSolver* cuda_ = nullptr;
  QueuedSlabs* slabs_ = nullptr;  // slabs whose steps can be queued (decomposed_solver.hpp), else null
  std::string backend_note_;
  std::string kernel_choice_note_;
  std::vector<std::vector<double>> history_;
  SolidNodes solids_;
  BoundaryPlan boundary_;
  Watchdog watchdog_;
  long long quiet_step_ = -1;
  long long next_check_ = 0;
  bool in_flight_ = false;                 // advance_async() steps not yet finished
  std::vector<long long> queued_checks_;   // the steps of their watchdog statistics, by slot
  std::optional<SolverFaultHook> fault_hook_ = solver_fault_hook_from_env();
  struct Fault {
    bool active = false, field_kept = false;
    std::string message;
    std::vector<double> u_cur, u_prev;  // the field at the fault, in `layout`
    FieldLayout layout;
    long long step = 0;
  } fault_;
};

}  // namespace ws
