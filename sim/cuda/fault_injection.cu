// Real CUDA faults for the fault-injection tests (sim/wave/solver_fault.hpp).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/cuda_check.hpp"
#include "wave/solver_fault.hpp"

namespace ws {

namespace {

__global__ void fault_nothing() {}

// Writes through a pointer that no allocation owns: the launch is accepted, the kernel
// faults on the device, and the context is unusable afterwards (a sticky error).
__global__ void fault_write(int* p) { p[threadIdx.x] = 1; }

}  // namespace

std::optional<SolverFaultHook> solver_fault_hook_from_env() {
  const char* v = std::getenv("WS_TEST_SOLVER_FAULT");
  if (!v || !*v) return std::nullopt;
  const std::string s = v;
  const auto colon = s.find(':');
  const std::string number = s.substr(0, colon);
  char* end = nullptr;
  const long long step = std::strtoll(number.c_str(), &end, 10);
  const std::string kind = colon == std::string::npos ? "launch" : s.substr(colon + 1);
  if (!end || *end != '\0' || step < 1 || (kind != "launch" && kind != "illegal-address")) {
    static bool said = false;
    if (!said) std::fprintf(stderr, "WS_TEST_SOLVER_FAULT='%s' ignored: expected STEP[:launch|:illegal-address], STEP >= 1\n", v);
    said = true;
    return std::nullopt;
  }
  return SolverFaultHook{step, kind == "launch" ? SolverFaultKind::Launch : SolverFaultKind::IllegalAddress};
}

void inject_solver_fault(SolverFaultKind kind, bool on_cuda) {
  const cudaError_t code = kind == SolverFaultKind::Launch ? cudaErrorInvalidConfiguration : cudaErrorIllegalAddress;
  if (on_cuda) {
    if (kind == SolverFaultKind::Launch) {
      fault_nothing<<<1, 2048>>>();  // more threads per block than any device allows: refused at launch
      CUDA_CHECK(cudaGetLastError());
    } else {
      fault_write<<<1, 32>>>(reinterpret_cast<int*>(0x10));
      CUDA_CHECK(cudaDeviceSynchronize());
    }
  }
  // The CPU backend, or a device that did not fail as asked: the error a CUDA solver raises.
  throw_cuda_error(code, on_cuda ? "fault injection (the device did not fail)" : "fault injection (CPU backend)",
                   __FILE__, __LINE__);
}

}  // namespace ws
