#include "cuda/step_graph.hpp"

#include <utility>
#include <vector>

#include "core/cuda_check.hpp"

namespace ws {

namespace {

__global__ void set_counter_kernel(StepCounter* c, long long step, long long slot) {
  c->step = step;
  c->slot = slot;
}

}  // namespace

void set_step_counter(StepCounter* counter, long long step, long long slot, cudaStream_t stream) {
  set_counter_kernel<<<1, 1, 0, stream>>>(counter, step, slot);
  CUDA_CHECK_LAUNCH();
}

StepGraph::~StepGraph() {
  if (exec_) cudaGraphExecDestroy(exec_);
}

StepGraph::StepGraph(StepGraph&& o) noexcept
    : exec_(std::exchange(o.exec_, nullptr)), kernel_nodes_(o.kernel_nodes_), nodes_(o.nodes_) {}

StepGraph& StepGraph::operator=(StepGraph&& o) noexcept {
  if (this != &o) {
    if (exec_) cudaGraphExecDestroy(exec_);
    exec_ = std::exchange(o.exec_, nullptr);
    kernel_nodes_ = o.kernel_nodes_;
    nodes_ = o.nodes_;
  }
  return *this;
}

std::string StepGraph::capture(cudaStream_t stream, const std::function<void(cudaStream_t)>& enqueue,
                               bool use_node_priority) {
  *this = StepGraph();
  CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  std::string why;
  try {
    enqueue(stream);
  } catch (const std::exception& e) {
    why = e.what();
  }
  cudaGraph_t graph = nullptr;
  const cudaError_t end = cudaStreamEndCapture(stream, &graph);
  if (why.empty() && end != cudaSuccess) why = std::string("ending the capture: ") + cudaGetErrorString(end);
  if (!why.empty()) {
    if (graph) cudaGraphDestroy(graph);
    cudaGetLastError();  // clear the (non-sticky) error the failed capture left
    return why;
  }
  size_t n = 0;
  CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &n));
  std::vector<cudaGraphNode_t> nodes(n);
  if (n) CUDA_CHECK(cudaGraphGetNodes(graph, nodes.data(), &n));
  int kernels = 0;
  for (auto node : nodes) {
    cudaGraphNodeType t;
    CUDA_CHECK(cudaGraphNodeGetType(node, &t));
    if (t == cudaGraphNodeTypeKernel) ++kernels;
  }
  cudaGraphExec_t exec = nullptr;
  const cudaError_t inst =
      cudaGraphInstantiate(&exec, graph, use_node_priority ? cudaGraphInstantiateFlagUseNodePriority : 0);
  cudaGraphDestroy(graph);
  if (inst != cudaSuccess) {
    cudaGetLastError();
    return std::string("instantiating the graph: ") + cudaGetErrorString(inst);
  }
  exec_ = exec;
  kernel_nodes_ = kernels;
  nodes_ = (int)n;
  return "";
}

void StepGraph::launch(cudaStream_t stream) const { CUDA_CHECK(cudaGraphLaunch(exec_, stream)); }

}  // namespace ws
