#pragma once
// A solver that fails mid-run (a CUDA error), and the test hook that makes one fail.
//
// WaveModel::advance turns a CudaError into SolverFaultError: the run stops, the
// receivers recorded so far are kept, the field is read back when the device still
// answers (a sticky error, such as an illegal address, loses the CUDA context and the
// field with it), and WaveModel::continue_on_cpu() goes on with the CPU solver.
// SolverFaultError is a BlowUpError, so every caller that stops and keeps the
// receivers on a blow-up (the GUI's pause, `run`'s CSV) does the same on a fault.
#include <optional>
#include <string>

namespace ws {

enum class SolverFaultKind {
  Launch,          // a kernel launch refused (cudaErrorInvalidConfiguration): the context survives
  IllegalAddress,  // a kernel writes outside its memory (cudaErrorIllegalAddress): sticky, the context is lost
};

// Fires once, when the run reaches `at_step` (after the steps up to it were computed).
struct SolverFaultHook {
  long long at_step = 0;
  SolverFaultKind kind = SolverFaultKind::Launch;
};

// WS_TEST_SOLVER_FAULT="STEP" or "STEP:launch" or "STEP:illegal-address" (tests, the GPU
// runs, the GUI under Xvfb); absent or malformed: no hook (a malformed value is reported
// once on stderr).
std::optional<SolverFaultHook> solver_fault_hook_from_env();

// Makes the fault happen: on the CUDA backend a real launch error or illegal address on
// the device (sim/cuda/fault_injection.cu), on the CPU backend the CudaError a CUDA
// solver would raise (there is no device to fail). Always throws CudaError.
[[noreturn]] void inject_solver_fault(SolverFaultKind kind, bool on_cuda);

}  // namespace ws
