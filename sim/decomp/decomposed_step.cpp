// One step of the decomposed solver: the slabs' updates and the halo copies between
// them, queued or host-staged (decomposed_solver_impl.hpp's one_step says the order).
#include "decomp/decomposed_solver_impl.hpp"

namespace ws {
namespace decomp_impl {

void DecomposedSolver::copy_across(int from, int to) {
  const SlabField a = field_of(locals_[from]), b = field_of(locals_[to]);
  const bool up = locals_[to].s > locals_[from].s;
  const void* src = up ? a.top_planes() : a.bottom_planes();
  void* dst = up ? b.halo_below() : b.halo_above();
  const size_t bytes = halo_bytes(layout_, precision_);
  if (a.device < 0 && b.device < 0) {
    copy_planes(dst, -1, src, -1, bytes);
    return;
  }
  CUDA_CHECK(cudaSetDevice(a.device));
  const cudaStream_t cs = copy_streams_[from][up ? 1 : 0]->get();
  if (queued_) {
    // The planes are those `from` wrote this step; the halo is that of the level
    // `to` wrote this step, whose halo `to`'s update of the step before read (as
    // its u^n): those two updates, nothing else (this step's update of `to` reads
    // that level's interior only).
    CUDA_CHECK(cudaStreamWaitEvent(cs, slab_done_[from][parity_]->get(), 0));
    // In a capture's first step that update lies before the graph (its launch waits for it).
    if (capture_k_ > 0 && by_flags(from, up))
      queue_flag_wait(flags_[from].get(), up ? kAboveDone : kBelowDone, -1, (unsigned)capture_k_,
                      flags_[from].get() + kWaitTimedOut, cs);
    else if (capture_k_ != 0)
      CUDA_CHECK(cudaStreamWaitEvent(cs, slab_done_[to][1 - parity_]->get(), 0));
  }
  if (kernel_copy_pairs_.count({a.device, b.device}))
    copy_planes_by_kernel(dst, src, bytes, cs);
  else if (capture_k_ >= 0)  // a peer copy as a graph's memcpy node (unified addressing, peer access on)
    CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, cs));
  else
    CUDA_CHECK(cudaMemcpyPeerAsync(dst, b.device, src, a.device, bytes, cs));
  if (capture_k_ >= 0 && by_flags(from, up))
    queue_flag_signal(flags_[to].get() + (up ? kHaloBelowReady : kHaloAboveReady), (unsigned)capture_k_ + 1, cs);
  if (queued_) halo_copied_[to][up ? 0 : 1]->record(cs);
}

void DecomposedSolver::wait_copies(int part) {
  if (copy_streams_.empty()) return;
  for (int q = 0; q < (int)locals_.size(); ++q)
    if (locals_[q].part == part) {
      CUDA_CHECK(cudaSetDevice(locals_[q].device));
      for (const auto& cs : copy_streams_[q]) CUDA_CHECK(cudaStreamSynchronize(cs->get()));
    }
}

void DecomposedSolver::one_step() {
  if (staged_ && exchange_) step_staged();
  else step_in_order();
  ++steps_since_take_;
  parity_ = 1 - parity_;
}

void DecomposedSolver::step_staged() {
  for_parts([&](int p) {
    for (auto& l : locals_)
      if (l.part == p && l.edge) on(l).cuda->advance_queued(1);
    for (auto& l : locals_)
      if (l.part == p && !l.edge) on(l).cuda->advance_queued(1);
    for (auto& l : locals_)
      if (l.part == p && l.edge) on(l).cuda->synchronize();
  });
  post_remote();
  for_parts([&](int p) { copy_out_of_part(p); });
  progress_remote_until_interiors_done();
  for_parts([&](int p) {
    copy_within_part(p);
    wait_copies(p);
  });
  finish_remote();
}

void DecomposedSolver::step_in_order() {
  for_parts([&](int p) {
    for (auto& l : locals_)
      if (l.part == p && l.edge) step_slab(l);
  });
  if (exchange_) post_remote();
  const bool progress = remote_.pending() && !queued_;
  for_parts([&](int p) {
    if (exchange_) copy_out_of_part(p);
    for (auto& l : locals_)
      if (l.part == p && !l.edge) step_slab(l);
    if (progress) return;
    if (exchange_) copy_within_part(p);
    if (!queued_) wait_copies(p);
  });
  if (progress) {
    progress_remote_until_interiors_done();
    for_parts([&](int p) {
      if (exchange_) copy_within_part(p);
      wait_copies(p);
    });
  }
  if (exchange_) finish_remote();
}

void DecomposedSolver::step_slab(LocalSlab& l) {
  on(l);
  if (!queued_) {
    l.solver->advance(1);
    return;
  }
  const int q = index_of(l);
  const bool capturing = capture_k_ >= 0;
  if (capture_k_ != 0)  // (a capture's first step: those copies and updates lie before the graph)
    for (int side = 0; side < 2; ++side) {
      if (halo_copied_[q][side] && !(capturing && flag_side_[q][side]))
        CUDA_CHECK(cudaStreamWaitEvent(l.cuda->stream(), halo_copied_[q][side]->get(), 0));
      if (shared_nb_[q][side] >= 0)
        CUDA_CHECK(cudaStreamWaitEvent(l.cuda->stream(), slab_done_[shared_nb_[q][side]][1 - parity_]->get(), 0));
    }
  // (Without the exchange, the benchmark's measure, no copy comes to raise the flags.)
  if (exchange_ && capture_k_ > 0 && (flag_side_[q][0] || flag_side_[q][1]))
    queue_flag_wait(flags_[q].get(), flag_side_[q][0] ? kHaloBelowReady : kHaloAboveReady,
                    flag_side_[q][0] && flag_side_[q][1] ? kHaloAboveReady : -1, (unsigned)capture_k_,
                    flags_[q].get() + kWaitTimedOut, l.cuda->stream());
  if (capturing) l.cuda->capture_step(capture_k_);
  else l.cuda->advance_queued(1);
  slab_done_[q][parity_]->record(l.cuda->stream());
  if (capturing)  // the neighbours on other devices may now overwrite this step's halo
    for (int side = 0; side < 2; ++side)
      if (flag_side_[q][side])
        queue_flag_signal(flags_[neighbour_[q][side]].get() + (side == 0 ? kAboveDone : kBelowDone),
                          (unsigned)capture_k_ + 1, l.cuda->stream());
}

void DecomposedSolver::progress_remote_until_interiors_done() {
  for (bool running = true; running;) {
    remote_.progress();
    running = false;
    for (auto& l : locals_) {
      if (l.edge || !l.cuda) continue;
      const cudaError_t q = cudaStreamQuery(on(l).cuda->stream());
      if (q == cudaErrorNotReady) {
        running = true;
        break;
      }
      CUDA_CHECK(q);
    }
  }
}

void DecomposedSolver::wait_all_streams() {
  for (auto& l : locals_) on(l).cuda->synchronize();
  for (int p = 0; p < parts_; ++p) wait_copies(p);
}

void DecomposedSolver::exchange() {
  post_remote();
  for_parts([&](int p) {
    copy_out_of_part(p);
    copy_within_part(p);
    wait_copies(p);
  });
  finish_remote();
  if (staged_) wait_all_streams();  // the received planes' copies onto the devices
}

void DecomposedSolver::copy_out_of_part(int p) {
  for (const auto& c : cuts_) {
    if (c.same_part) continue;
    if (locals_[c.below].part == p) copy_across(c.below, c.above);
    if (locals_[c.above].part == p) copy_across(c.above, c.below);
  }
}

void DecomposedSolver::copy_within_part(int p) {
  for (const auto& c : cuts_)
    if (c.same_part && !c.shared && locals_[c.below].part == p) {
      copy_across(c.below, c.above);
      copy_across(c.above, c.below);
    }
}

}  // namespace decomp_impl
}  // namespace ws
