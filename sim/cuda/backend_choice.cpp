#include "cuda/backend_choice.hpp"

#include <stdexcept>

#include "cuda/device_info.hpp"

namespace ws {

BackendChoice parse_backend(const std::string& s) {
  if (s == "auto") return BackendChoice::Auto;
  if (s == "cpu") return BackendChoice::Cpu;
  if (s == "cuda" || s == "gpu") return BackendChoice::Cuda;
  throw std::invalid_argument("backend '" + s + "' is not supported; allowed: auto, cpu, cuda");
}

BackendDecision decide_backend(BackendChoice choice) {
  if (choice == BackendChoice::Cpu) return {false, "CPU reference solver (chosen)"};
  const CudaDeviceInfo dev = query_cuda_device();
  if (dev.usable) return {true, "CUDA on " + dev.name};
  if (choice == BackendChoice::Cuda) throw std::runtime_error("CUDA backend requested but " + dev.reason);
  return {false, "CPU reference solver (" + dev.reason + ")"};
}

}  // namespace ws
