#include "decomp/ipc_mapping.hpp"

#include <utility>

namespace ws {

IpcMapping IpcMapping::open(const cudaIpcMemHandle_t& handle, int device, std::string& why) {
  IpcMapping m;
  int current = -1;
  cudaError_t e = cudaGetDevice(&current);
  if (e == cudaSuccess) e = cudaSetDevice(device);
  if (e == cudaSuccess) e = cudaIpcOpenMemHandle(&m.p_, handle, cudaIpcMemLazyEnablePeerAccess);
  if (current >= 0 && current != device) cudaSetDevice(current);
  if (e != cudaSuccess) {
    cudaGetLastError();
    m.p_ = nullptr;
    why = std::string(cudaGetErrorName(e)) + ": " + cudaGetErrorString(e);
    return m;
  }
  m.device_ = device;
  return m;
}

void IpcMapping::close() noexcept {
  if (!p_) return;
  // The mapping belongs to the device it was opened on; the device current before stays.
  int current = -1;
  if (cudaGetDevice(&current) != cudaSuccess || current != device_) cudaSetDevice(device_);
  cudaIpcCloseMemHandle(p_);
  if (current >= 0 && current != device_) cudaSetDevice(current);
  p_ = nullptr;
}

IpcMapping::~IpcMapping() { close(); }

IpcMapping::IpcMapping(IpcMapping&& o) noexcept
    : p_(std::exchange(o.p_, nullptr)), device_(std::exchange(o.device_, -1)) {}

IpcMapping& IpcMapping::operator=(IpcMapping&& o) noexcept {
  if (this != &o) {
    close();
    p_ = std::exchange(o.p_, nullptr);
    device_ = std::exchange(o.device_, -1);
  }
  return *this;
}

}  // namespace ws
