#pragma once
// SlabComm over MPI_COMM_WORLD (built when CMake finds MPI: WS_HAVE_MPI). The halo
// messages are MPI_Isend/MPI_Irecv of host memory; a device field is staged through
// host buffers by the decomposed solver.
#include <memory>

#include "decomp/slab_comm.hpp"

namespace ws {

// Whether this build has MPI, and whether the process was started by an MPI launcher
// (mpirun/mpiexec set OMPI_COMM_WORLD_SIZE, PMI_SIZE or PMIX_RANK).
bool mpi_available();
bool launched_by_mpi();

// MPI_Init_thread (funnelled) on construction (once per process), MPI_Finalize on destruction.
// Throws std::runtime_error when the build has no MPI.
class MpiSession {
 public:
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  SlabComm& comm() { return *comm_; }
  int rank() const { return comm_->rank(); }
  int size() const { return comm_->size(); }

 private:
  std::unique_ptr<SlabComm> comm_;
};

}  // namespace ws
