// WaveModel's frame-loop advance: the steps queued on the CUDA solver's stream (or on
// the slabs' GPUs, decomp/decomposed_solver.hpp's QueuedSlabs) and waited for at the next
// frame, so the GUI draws (and the host builds its panels) while the devices step. The
// watchdog's statistics are reduced on the devices at the same steps as in advance() and
// judged when the steps are waited for.
#include "core/cuda_check.hpp"
#include "decomp/decomposed_solver.hpp"
#include "wave/wave_model.hpp"

namespace ws {

WaveModel::~WaveModel() {
  // The solver's buffers must not go while its queued steps still use them.
  if (!in_flight_) return;
  try {
    if (cuda_) cuda_->synchronize();
    else if (slabs_) slabs_->finish_queued();
  } catch (...) {
  }
}

bool WaveModel::async_capable() const {
  // The fault hook's step must land exactly, which the synchronous path does chunk by chunk.
  return (cuda_ != nullptr || slabs_ != nullptr) && !fault_hook_;
}

void WaveModel::advance_async(int steps) {
  if (fault_.active) throw SolverFaultError(fault_.message);
  finish_advance();
  if (steps <= 0) return;
  // A frame longer than the statistics slots allow goes the synchronous way.
  const long long interval = chunk_steps();
  const long long max_steps = (long long)CudaWaveSolver::kQueuedStats * interval;
  if (!async_capable() || steps > max_steps) {
    advance(steps);
    return;
  }
  try {
    queued_checks_.clear();
    in_flight_ = true;
    while (steps > 0) {
      // The chunks and check points of advance_chunks(), without waiting at any of them.
      const int chunk = (int)std::min<long long>(steps, interval);
      if (cuda_) cuda_->advance_async(chunk);
      else slabs_->advance_queued(chunk);
      steps -= chunk;
      if (solver_->step() >= next_check_) {
        next_check_ = solver_->step() + interval;
        if (cuda_) cuda_->queue_field_stats((int)queued_checks_.size());
        else slabs_->queue_field_stats((int)queued_checks_.size());
        queued_checks_.push_back(solver_->step());
      }
    }
  } catch (const CudaError& e) {
    in_flight_ = false;
    stop_on_fault(e);  // wave_model_fault.cpp
  }
}

void WaveModel::finish_advance() {
  if (!in_flight_) return;
  in_flight_ = false;
  const std::vector<long long> checks = std::move(queued_checks_);
  queued_checks_.clear();
  try {
    if (cuda_) cuda_->finish_async();
    else slabs_->finish_queued();
  } catch (const CudaError& e) {
    stop_on_fault(e);
  }
  take_samples();  // BlowUpError on a non-finite sample
  for (size_t c = 0; c < checks.size(); ++c) {
    const FieldStats f = cuda_ ? cuda_->queued_field_stats((int)c) : slabs_->queued_field_stats((int)c);
    if (auto why = watchdog_.check(checks[c], f)) throw BlowUpError("watchdog: " + *why + "; the simulation is paused");
  }
}

}  // namespace ws
