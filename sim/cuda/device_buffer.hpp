#pragma once
// Move-only RAII owners of CUDA resources: device memory, pinned host memory,
// streams and events. Destructors never throw (errors there are ignored: the
// context may already be torn down at exit).
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "core/cuda_check.hpp"

namespace ws {

// Host-to-device copy that is complete when it returns. A plain cudaMemcpy from
// pageable memory may return once the data is staged, before the DMA lands, and the
// solvers' non-blocking streams do not wait for the legacy default stream: a kernel
// could read the old contents. Used for set-up copies, never per step.
inline void copy_to_device(void* dst, const void* src, size_t bytes) {
  CUDA_CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaDeviceSynchronize());
}

template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(size_t n) : n_(n) {
    if (n) CUDA_CHECK(cudaMalloc(&p_, n * sizeof(T)));
  }
  ~DeviceBuffer() {
    if (p_) cudaFree(p_);
  }
  DeviceBuffer(DeviceBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      if (p_) cudaFree(p_);
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;

  T* get() const { return p_; }
  size_t size() const { return n_; }
  size_t bytes() const { return n_ * sizeof(T); }
  // Gives the allocation up unfreed (it lives to the process's end): for memory another
  // process may still map (CUDA IPC), which must not be freed before it unmaps.
  T* release() {
    n_ = 0;
    return std::exchange(p_, nullptr);
  }

 private:
  T* p_ = nullptr;
  size_t n_ = 0;
};

template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(size_t n) : n_(n) {
    if (n) CUDA_CHECK(cudaMallocHost(&p_, n * sizeof(T)));
  }
  ~PinnedBuffer() {
    if (p_) cudaFreeHost(p_);
  }
  PinnedBuffer(PinnedBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    if (this != &o) {
      if (p_) cudaFreeHost(p_);
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  T* get() const { return p_; }
  size_t size() const { return n_; }

 private:
  T* p_ = nullptr;
  size_t n_ = 0;
};

class CudaStream {
 public:
  CudaStream() { CUDA_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  // A stream on the current device whose blocks the block scheduler dispatches ahead of
  // those of default-priority streams as SMs free up (cudaDeviceGetStreamPriorityRange:
  // the greatest priority is the smallest number).
  static CudaStream highest_priority() {
    int least = 0, greatest = 0;
    CUDA_CHECK(cudaDeviceGetStreamPriorityRange(&least, &greatest));
    CudaStream s(nullptr);
    CUDA_CHECK(cudaStreamCreateWithPriority(&s.s_, cudaStreamNonBlocking, greatest));
    return s;
  }
  ~CudaStream() {
    if (s_) cudaStreamDestroy(s_);
  }
  CudaStream(CudaStream&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  CudaStream& operator=(CudaStream&& o) noexcept {
    if (this != &o) {
      if (s_) cudaStreamDestroy(s_);
      s_ = std::exchange(o.s_, nullptr);
    }
    return *this;
  }
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  explicit CudaStream(std::nullptr_t) {}
  cudaStream_t s_ = nullptr;
};

class CudaEvent {
 public:
  CudaEvent() { CUDA_CHECK(cudaEventCreate(&e_)); }
  ~CudaEvent() {
    if (e_) cudaEventDestroy(e_);
  }
  CudaEvent(CudaEvent&& o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
  CudaEvent& operator=(CudaEvent&&) = delete;
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  cudaEvent_t get() const { return e_; }
  void record(cudaStream_t s) { CUDA_CHECK(cudaEventRecord(e_, s)); }
  // Milliseconds from `start` to this event (both must have completed).
  float ms_since(const CudaEvent& start) const {
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start.e_, e_));
    return ms;
  }

 private:
  cudaEvent_t e_ = nullptr;
};

// Puts the calling thread's current device back at scope exit (when `active`): code that
// selects the devices of its parts in turn (the decomposed solver) leaves its caller on
// the device it found, so that the caller's next allocation or launch goes where it meant.
class CurrentDeviceScope {
 public:
  explicit CurrentDeviceScope(bool active) {
    if (active && cudaGetDevice(&device_) != cudaSuccess) {
      (void)cudaGetLastError();
      device_ = -1;
    }
  }
  ~CurrentDeviceScope() {
    if (device_ >= 0) (void)cudaSetDevice(device_);
  }
  CurrentDeviceScope(const CurrentDeviceScope&) = delete;
  CurrentDeviceScope& operator=(const CurrentDeviceScope&) = delete;

 private:
  int device_ = -1;
};

}  // namespace ws
