#pragma once
// What a decomposition needs from the processes that share it: halo messages
// (non-blocking, so the interior update runs while they travel) and the few
// collectives that keep every process's view of the run the same (receivers, the
// watchdog's field statistics, a stop request). One process needs none of it;
// mpi_comm.hpp is the MPI implementation.
#include <cstddef>
#include <vector>

namespace ws {

class SlabComm {
 public:
  virtual ~SlabComm() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;

  // Whether post_send/post_recv accept CUDA device pointers (a CUDA-aware MPI).
  virtual bool device_buffers() const { return false; }
  // Post a transfer (host memory, or device memory when device_buffers()); the buffers
  // stay untouched until wait_all().
  virtual void post_send(int to_rank, int tag, const void* data, size_t bytes) = 0;
  virtual void post_recv(int from_rank, int tag, void* data, size_t bytes) = 0;
  virtual void wait_all() = 0;
  // Lets the posted transfers move without waiting for them: an MPI library moves a large
  // message only inside its own calls, so the decomposition calls this while the
  // interior update runs on the device (from the thread that posted them).
  virtual void progress() {}

  // Every process's `mine`, concatenated in rank order, on every process.
  virtual std::vector<double> allgather(const std::vector<double>& mine) = 0;
  // sum over processes of `sum`, max of `peak`, and of `all`.
  virtual void allreduce_stats(double& sum, double& peak, bool& all) = 0;
  // True on every process when `flag` is true on any.
  virtual bool any(bool flag) = 0;
};

}  // namespace ws
