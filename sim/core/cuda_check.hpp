#pragma once
// CUDA_CHECK: every CUDA runtime call goes through it; failure throws with the
// file, the line and cudaGetErrorString so the caller can fall back or report.
#include <cuda_runtime.h>

#include <sstream>
#include <stdexcept>
#include <string>

namespace ws {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

[[noreturn]] inline void throw_cuda_error(cudaError_t e, const char* expr, const char* file, int line) {
  std::ostringstream os;
  os << "CUDA error " << cudaGetErrorName(e) << " (" << cudaGetErrorString(e) << ") in " << expr << " at "
     << file << ":" << line;
  throw CudaError(e, os.str());
}

}  // namespace ws

#define CUDA_CHECK(expr)                                                          \
  do {                                                                            \
    cudaError_t ws_err_ = (expr);                                                 \
    if (ws_err_ != cudaSuccess) ::ws::throw_cuda_error(ws_err_, #expr, __FILE__, __LINE__); \
  } while (0)

// After a kernel launch: catches bad configurations at once (no device sync).
#define CUDA_CHECK_LAUNCH() CUDA_CHECK(cudaGetLastError())
