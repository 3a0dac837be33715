#pragma once
// The decomposition options of `run` (and `bench scaling`): --gpus N|all and the
// test-only --slabs-per-gpu, and the MPI session when mpirun started the process.
#include <memory>
#include <string>

#include <CLI/CLI.hpp>

#include "cuda/backend_choice.hpp"
#include "decomp/decomposed_solver.hpp"
#include "decomp/mpi_comm.hpp"

namespace ws::cli {

// How slabs on GPUs step (--slab-graph, --halo-copy, --slab-sync, --slab-fields, --mpi-halos): the options of every
// command that decomposes, and of `bench scaling`.
struct SlabStepArgs {
  std::string slab_graph = "on";    // DecompOptions::step_graph
  std::string halo_copy = "kernel"; // DecompOptions::copy_by_kernel ("engine": false)
  std::string slab_sync = "flags";  // DecompOptions::flag_sync ("edges": false)
  std::string slab_fields = "shared";  // DecompOptions::share_part_fields ("shared": true)
  std::string mpi_halos = "device";    // DecompOptions::mpi_device_halos ("device": true)
  void apply(DecompOptions& d) const;
};
void add_slab_step_options(CLI::App& c, SlabStepArgs& a);

struct DecompArgs {
  std::string gpus;       // "" (one GPU, or one per MPI rank), "N" or "all"
  int slabs_per_gpu = 1;  // > 1: several slabs on each GPU (tests the decomposition on one device)
  std::string halo_overlap = "on";  // DecompOptions::overlap: split off the edge slabs
  SlabStepArgs steps;
};

void add_decomp_options(CLI::App& c, DecompArgs& a);

// What a command runs on: the MPI session (null when not started by mpirun) and the
// decomposition. rank0() says whether this process writes outputs and talks.
struct DecompSetup {
  std::unique_ptr<MpiSession> mpi;
  DecompOptions options;
  bool rank0() const { return !mpi || mpi->rank() == 0; }
  int ranks() const { return mpi ? mpi->size() : 1; }
  // True on every rank when any rank was interrupted (a stop must be collective).
  bool any_interrupted(bool mine) const { return mpi && mpi->size() > 1 ? mpi->comm().any(mine) : mine; }
};

// Throws std::invalid_argument with the value and what is allowed (exit status 2):
// an unparsable --gpus, more GPUs than devices present, --gpus with the cpu backend.
DecompSetup make_decomp_setup(const DecompArgs& a, BackendChoice backend);

// `s` as a whole positive number, or 0 when it is not one (the --gpus count).
int parse_positive_count(const std::string& s);

// Number of CUDA devices present (0 when none or no driver).
int cuda_device_count();

}  // namespace ws::cli
