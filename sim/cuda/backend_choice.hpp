#pragma once
// Which solver backend a model runs on: the user's choice (auto, cpu, cuda)
// against what the machine has. Shared by the wave and sediment models.
#include <string>

namespace ws {

enum class BackendChoice { Auto, Cpu, Cuda };
BackendChoice parse_backend(const std::string& s);  // "auto", "cpu", "cuda"; std::invalid_argument otherwise

struct BackendDecision {
  bool use_cuda = false;
  std::string note;  // "CUDA on NVIDIA H200", or "CPU reference solver (<why>)"
};

// Auto falls back to the CPU with the reason; Cuda without a usable device throws
// std::runtime_error with the reason.
BackendDecision decide_backend(BackendChoice choice);

}  // namespace ws
