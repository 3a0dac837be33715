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

// How a step reaches the device: the kernels it runs and the host launches it costs.
struct StepLaunches {
  int interior = 1;  // calls of the registry kernel's launch function
  int boundary = 0;  // boundary-node kernels (compute before, scatter after the interior kernel)
  int io = 0;        // the source/receiver kernel (when there are sources or receivers)
  int kernels() const { return interior + boundary + io; }
  // Kernel nodes per step in the captured graph (-1: no graph captured); equals
  // kernels() unless a launch function issues more than one kernel.
  double graph_kernels_per_step = -1.0;
  // Host-side launches per step over the last advance() (or the advance_async() calls
  // since the last finish): kernels() without the graph; with it, (graph launches + counter
  // updates) / steps.
  double host_launches_per_step = 0.0;
  bool graph = false;      // the last advance() replayed step graphs
  std::string graph_note;  // why the graph is not used ("" when it is or was not asked for)
};

// The step graph (sim/cuda/step_graph.hpp) is on by default: it replays runs of
// up to 128 steps with one launch each, bit-identical to stream launches.
constexpr bool kStepGraphDefault = true;

class CudaWaveSolver : public WaveSolver {
 public:
  // Replay captured step graphs in advance() (when the kernel allows capture), or
  // launch every kernel of every step on the stream.
  virtual void set_step_graph(bool on) = 0;
  virtual bool step_graph() const = 0;
  virtual StepLaunches step_launches() const = 0;
  // Throws std::invalid_argument when the variant does not run this stencil or precision.
  virtual void set_kernel(const std::string& id, const LaunchOptions& options) = 0;
  virtual const KernelVariant& kernel() const = 0;
  virtual const LaunchOptions& launch_options() const = 0;
  virtual cudaStream_t stream() const = 0;
  // Moves the solver onto a stream of the device's greatest priority (after the work
  // queued so far), so its blocks go ahead of other streams' as SMs free up: the
  // decomposed solver's edge slabs, whose planes the neighbours wait for. Graphs are
  // captured again; results are unchanged.
  virtual void use_highest_priority_stream() = 0;
  // Waits for the solver's stream (the renderer reads the field after this).
  virtual void synchronize() = 0;
  // advance() without waiting for the device: the steps are queued on stream(), the
  // receivers' samples stay on the device until take_receiver_samples() (or a full sample
  // buffer) fetches them, and metrics() are not updated. For callers that order the
  // stream by events themselves (the decomposed solver's slabs).
  virtual void advance_queued(int steps) = 0;

  // Steps of this solver inside a graph that a caller captures over several solvers and
  // replays (the decomposed solver's step graph across its slabs' devices). The replay
  // issues the kernels stream launches would, so the steps stay bit-identical.
  // replayable_steps(): the longest run, at most `wanted`, that one replay may hold (the
  // receiver buffer and the sampled signals' window bound it); 0 when the kernel cannot
  // be captured or no step of the current set-up has run yet (launch set-up that must
  // happen outside a capture). prepare_replay(): before each replay of `steps`, makes room
  // in the receiver buffer, loads the signals' window and sets the device step counter on
  // stream(). capture_step(k): inside the caller's capture, step k of the run on stream(),
  // its step index and receiver slot read from that counter; it moves the grid parity as
  // a step does (current_field() is then the level the step writes), so a capture of an
  // even run leaves it where it was. replayed(): after the replay's launch, the host's
  // step, slot and grid parity moved on by `steps`.
  virtual int replayable_steps(int wanted) const = 0;
  virtual void prepare_replay(int steps) = 0;
  virtual void capture_step(int k) = 0;
  virtual void replayed(int steps) = 0;
  // 0 when u^n lies in the first of the two grids, 1 in the second (captured runs are
  // kept per parity).
  virtual int grid_parity() const = 0;

  // advance() in two halves, for a frame loop that draws while the device steps
  // (app/gui/frame_step.cpp, bench realtime): advance_async() queues the steps and
  // returns (timed by events on the stream, as advance()); finish_async() waits once,
  // fetches the receivers' samples and sets metrics() for every step queued since the
  // last finish. advance() is the two in a row. Nothing else may change the solver
  // while steps are queued (WaveModel finishes first).
  virtual void advance_async(int steps) = 0;
  virtual void finish_async() = 0;
  // The field's statistics at this point of the stream (after the steps queued so far),
  // readable through queued_field_stats(slot) after finish_async().
  static constexpr int kQueuedStats = 64;
  virtual void queue_field_stats(int slot) = 0;
  virtual FieldStats queued_field_stats(int slot) const = 0;
};

// Storage of both levels of a solver's field that its owner lends it: each of `a` and
// `b` holds the solver's layout().total elements (halo planes included) and outlives the
// solver. Slabs of one GPU share one grid this way (sim/decomp/decomposed_solver.cpp):
// a slab's halo planes are then its neighbour's outer planes, with no copy between them.
struct LentFields {
  void* a = nullptr;
  void* b = nullptr;
};

// kernel_id empty: the first registered variant that supports the stencil. `fields`:
// storage lent by the caller instead of the solver's own (null: its own).
std::unique_ptr<CudaWaveSolver> make_cuda_solver(Precision precision, const Stencil& stencil, int nx, int ny, int nz,
                                                 double courant, double dt_s, const std::string& kernel_id = "",
                                                 const LentFields* fields = nullptr);

// The registry's default variant for a stencil and precision ("" when none).
std::string default_kernel_for(const Stencil& stencil, Precision precision);

}  // namespace ws
