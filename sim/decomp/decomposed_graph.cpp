// The decomposed solver's step graph: runs of steps of every slab and copy captured
// once and replayed (decomposed_solver_impl.hpp, "The step graph").
#include "decomp/decomposed_solver_impl.hpp"

namespace ws {
namespace decomp_impl {

void DecomposedSolver::check_flag_waits() {
  for (size_t q = 0; q < locals_.size(); ++q) {
    if (!flags_[q].get()) continue;
    on(locals_[q]);
    unsigned timed_out = 0;
    CUDA_CHECK(cudaMemcpy(&timed_out, flags_[q].get() + kWaitTimedOut, sizeof timed_out, cudaMemcpyDeviceToHost));
    if (!timed_out) continue;
    CUDA_CHECK(cudaMemset(flags_[q].get() + kWaitTimedOut, 0, sizeof timed_out));
    drop_graphs();
    graph_note_ = "the slabs' step graph is off: a GPU waited over " + std::to_string((int)kStepFlagTimeoutS) +
                  " s for a neighbouring GPU's halo";
    throw CudaError(cudaErrorLaunchTimeout, graph_note_ + " (the steps of that advance may be wrong)");
  }
}

int DecomposedSolver::replay_run(int left) const {
  if (!graph_stream_ || !graph_on_ || !graph_note_.empty()) return 0;
  int n = std::min(left, 1 << (kGraphLevels - 1));
  for (const auto& l : locals_) n = std::min(n, l.cuda->replayable_steps(n));
  if (n < 2) return 0;
  int run = 2;
  while (run * 2 <= n) run *= 2;
  return run;
}

bool DecomposedSolver::replay(int run) {
  int level = 0;
  while ((1 << level) < run) ++level;
  const int parity = locals_.front().cuda->grid_parity();
  StepGraph& g = graphs_[exchange_ ? 1 : 0][parity][level];
  if (g.empty()) {
    capture_run(g, run);
    if (g.empty()) return false;
  }
  for (size_t q = 0; q < locals_.size(); ++q) {
    on(locals_[q]).cuda->prepare_replay(run);
    if (flags_[q].get())  // the steps' counts restart (the timed-out flag stays until checked)
      CUDA_CHECK(cudaMemsetAsync(flags_[q].get(), 0, kWaitTimedOut * sizeof(unsigned), locals_[q].cuda->stream()));
  }
  const cudaStream_t gs = graph_stream_->get();
  for (size_t q = 0; q < locals_.size(); ++q) join_into(q, gs);
  g.launch(gs);  // join_into left the graph stream's device current
  after_replay_->record(gs);
  for (size_t q = 0; q < locals_.size(); ++q) {
    on(locals_[q]);
    CUDA_CHECK(cudaStreamWaitEvent(locals_[q].cuda->stream(), after_replay_->get(), 0));
    for (const auto& cs : copy_streams_[q]) CUDA_CHECK(cudaStreamWaitEvent(cs->get(), after_replay_->get(), 0));
  }
  for (auto& l : locals_) l.cuda->replayed(run);
  parity_ ^= run & 1;
  steps_since_take_ += run;
  replayed_ = true;
  return true;
}

void DecomposedSolver::join_into(size_t q, cudaStream_t gs) {
  on(locals_[q]);
  joins_[q][0]->record(locals_[q].cuda->stream());
  for (int side = 0; side < 2; ++side) joins_[q][1 + side]->record(copy_streams_[q][side]->get());
  CUDA_CHECK(cudaSetDevice(locals_.front().device));
  for (const auto& e : joins_[q]) CUDA_CHECK(cudaStreamWaitEvent(gs, e->get(), 0));
}

void DecomposedSolver::capture_run(StepGraph& g, int run) {
  const int parity_before = parity_;
  const std::string why = g.capture(
      graph_stream_->get(),
      [&](cudaStream_t gs) {
        fork_->record(gs);
        for (size_t q = 0; q < locals_.size(); ++q) {
          on(locals_[q]);
          CUDA_CHECK(cudaStreamWaitEvent(locals_[q].cuda->stream(), fork_->get(), 0));
          for (const auto& cs : copy_streams_[q]) CUDA_CHECK(cudaStreamWaitEvent(cs->get(), fork_->get(), 0));
        }
        for (capture_k_ = 0; capture_k_ < run; ++capture_k_) {
          step_in_order();
          parity_ = 1 - parity_;
        }
        for (size_t q = 0; q < locals_.size(); ++q) join_into(q, gs);
      },
      /*use_node_priority=*/true);
  capture_k_ = -1;
  parity_ = parity_before;
  if (!why.empty()) graph_note_ = "the slabs' step graph could not be captured: " + why;
  rerecord_step_events();
}

void DecomposedSolver::rerecord_step_events() {
  for (size_t q = 0; q < locals_.size(); ++q) {
    on(locals_[q]);
    for (auto& e : slab_done_[q]) e->record(locals_[q].cuda->stream());
  }
  for (const Cut& c : cuts_) {
    if (c.shared) continue;
    CUDA_CHECK(cudaSetDevice(locals_[c.below].device));
    halo_copied_[c.above][0]->record(copy_streams_[c.below][1]->get());
    CUDA_CHECK(cudaSetDevice(locals_[c.above].device));
    halo_copied_[c.below][1]->record(copy_streams_[c.above][0]->get());
  }
}

void DecomposedSolver::drop_graphs() {
  for (auto& by_exchange : graphs_)
    for (auto& by_parity : by_exchange)
      for (auto& g : by_parity) g = StepGraph();
  graph_note_.clear();
}

}  // namespace decomp_impl
}  // namespace ws
