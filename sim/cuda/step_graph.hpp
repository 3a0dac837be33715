#pragma once
// A run of solver steps captured once as a CUDA graph and replayed with one
// launch. What changes between replays must not be a kernel parameter: the
// field pointers alternate with the step's parity (so a graph is captured per
// starting parity) and the step index and receiver slot come from a device
// counter that the graph itself increments (StepCounter, read by the
// source/receiver kernel). The replay issues exactly the kernels of the
// stream-launched steps with the same arguments, so the two are bit-identical.
#include <cuda_runtime.h>

#include <functional>
#include <string>

namespace ws {

// The step index and receiver slot of the next step, kept on the device.
struct StepCounter {
  long long step;
  long long slot;
};

// Sets the device counter on `stream` (a one-thread kernel: its arguments are
// copied at launch, so no host buffer has to outlive it).
void set_step_counter(StepCounter* counter, long long step, long long slot, cudaStream_t stream);

// An executable graph (move-only). capture() records what `enqueue` issues on
// `stream` (thread-local capture mode) and instantiates it; it returns "" or,
// when the launch code cannot be captured, why (the stream is left usable and
// the graph empty, so the caller can fall back to stream launches).
class StepGraph {
 public:
  StepGraph() = default;
  ~StepGraph();
  StepGraph(StepGraph&& o) noexcept;
  StepGraph& operator=(StepGraph&& o) noexcept;
  StepGraph(const StepGraph&) = delete;
  StepGraph& operator=(const StepGraph&) = delete;

  // `use_node_priority`: the kernels keep the priority of the streams they were captured
  // from (cudaGraphInstantiateFlagUseNodePriority) instead of taking the launch stream's.
  std::string capture(cudaStream_t stream, const std::function<void(cudaStream_t)>& enqueue,
                      bool use_node_priority = false);
  void launch(cudaStream_t stream) const;
  bool empty() const { return exec_ == nullptr; }
  int kernel_nodes() const { return kernel_nodes_; }  // kernels in the captured run
  int nodes() const { return nodes_; }                // every node (kernels, copies)

 private:
  cudaGraphExec_t exec_ = nullptr;
  int kernel_nodes_ = 0, nodes_ = 0;
};

}  // namespace ws
