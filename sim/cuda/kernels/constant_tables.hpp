#pragma once
// The upload of a kernel family's __constant__ tables (KernelA's offsets and weights,
// zsweep_box's weight classes, compact_tiled's weight cube), shared by every stream of
// a device.
//
// __constant__ memory is one per device, not one per stream. The tables are uploaded
// with cudaMemcpyToSymbolAsync on the launching stream, so the upload is ordered after
// that stream's earlier steps, which may still read the old tables. A launch on another
// stream of the same device with the same key must not skip the upload and run at
// once: the upload may still sit in the first stream's queue, behind its steps, and
// the kernel would read the tables of the key before (slabs of one GPU each step on a
// stream of their own, sim/decomp/decomposed_solver.cpp). So each upload records an
// event behind it, and every later launch of that key waits for the event on its own
// stream; on a completed event the wait costs the device nothing.
//
// One key per device at a time: two solvers with different stencils stepping
// concurrently on different streams of one device would still race for the tables
// (the app steps one model at a time; the slabs of a decomposed grid share a key).
#include <cuda_runtime.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "core/cuda_check.hpp"
#include "cuda/device_buffer.hpp"

namespace ws::big {

class ConstantTables {
 public:
  // Makes the current device's tables those of `key` for a launch on `stream`:
  // calls upload(stream) when the device holds another key (or none), then orders
  // `stream` after that upload, whichever stream ran it. Returns what upload returned
  // for the key (the number of table entries the kernel reads). Inside a stream
  // capture the upload becomes a node of the graph, ordered on the captured stream;
  // the key is then not recorded as held, so the next launch outside a capture
  // uploads again.
  template <class Upload>
  int prepare(uint64_t key, cudaStream_t stream, Upload&& upload) {
    std::lock_guard<std::mutex> lock(mutex_);
    int dev = 0;
    CUDA_CHECK(cudaGetDevice(&dev));
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    CUDA_CHECK(cudaStreamIsCapturing(stream, &capture));
    const bool capturing = capture != cudaStreamCaptureStatusNone;
    Held& h = held_[dev];
    if (h.valid && h.key == key) {
      if (!capturing) CUDA_CHECK(cudaStreamWaitEvent(stream, h.uploaded->get(), 0));
      return h.entries;
    }
    h.valid = false;
    const int entries = upload(stream);
    if (capturing) return entries;
    if (!h.uploaded) h.uploaded = std::make_unique<CudaEvent>();  // on the current device
    h.uploaded->record(stream);
    h.key = key;
    h.entries = entries;
    h.valid = true;
    return entries;
  }

 private:
  struct Held {
    bool valid = false;
    uint64_t key = 0;
    int entries = 0;
    std::unique_ptr<CudaEvent> uploaded;  // recorded behind the upload of `key`
  };
  std::mutex mutex_;
  std::map<int, Held> held_;  // per device
};

// ConstantTables::prepare on a set of tables of its own for each call site: the static
// belongs to the instantiation, and the type of each call site's lambda (in each
// precision's instantiation of the caller) is its own. Never destroyed, so no launch
// races the exit's static destructors.
template <class Upload>
int prepare_constant_tables(uint64_t key, cudaStream_t stream, Upload&& upload) {
  static ConstantTables& tables = *new ConstantTables;
  return tables.prepare(key, stream, std::forward<Upload>(upload));
}

}  // namespace ws::big
