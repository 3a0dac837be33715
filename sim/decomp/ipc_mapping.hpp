#pragma once
// Another process's device allocation mapped into this one through CUDA IPC, unmapped on
// destruction: the halo mailbox of an MPI rank on the same host, which this process's
// device copies write into directly (remote_halos.hpp).
#include <string>

#include <cuda_runtime.h>

namespace ws {

class IpcMapping {
 public:
  IpcMapping() = default;
  // Maps `handle` (from cudaIpcGetMemHandle in another process) on `device`, with peer
  // access enabled when the allocation lies on another device. On failure (another host,
  // no peer access between the devices, IPC refused by the driver) the mapping is empty
  // and `why` says what CUDA answered; the CUDA error is cleared. The current device is
  // left as it was.
  static IpcMapping open(const cudaIpcMemHandle_t& handle, int device, std::string& why);
  ~IpcMapping();
  IpcMapping(IpcMapping&& o) noexcept;
  IpcMapping& operator=(IpcMapping&& o) noexcept;
  IpcMapping(const IpcMapping&) = delete;
  IpcMapping& operator=(const IpcMapping&) = delete;

  void* get() const { return p_; }
  explicit operator bool() const { return p_ != nullptr; }

 private:
  void close() noexcept;
  void* p_ = nullptr;
  int device_ = -1;
};

}  // namespace ws
