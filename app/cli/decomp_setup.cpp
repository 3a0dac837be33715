#include "cli/decomp_setup.hpp"

#include <cstdlib>
#include <stdexcept>

#include <cuda_runtime.h>

#include "cuda/device_info.hpp"

namespace ws::cli {

void add_decomp_options(CLI::App& c, DecompArgs& a) {
  c.add_option("--gpus", a.gpus,
               "decompose the grid into z-slabs over N GPUs of this machine, or all of them (under mpirun: per rank)");
  c.add_option("--slabs-per-gpu", a.slabs_per_gpu,
               "several slabs on each GPU (for testing the decomposition on one device)")
      ->check(CLI::Range(1, 64));
  c.add_option("--halo-overlap", a.halo_overlap,
               "on: each GPU's planes next to another part form an edge slab, updated first so the halo travels "
               "while the rest is updated (the default); off: no edge slabs (one slab a GPU), the halo exchanged between steps")
      ->check(CLI::IsMember({"on", "off"}));
  add_slab_step_options(c, a.steps);
}

void add_slab_step_options(CLI::App& c, SlabStepArgs& a) {
  c.add_option("--slab-graph", a.slab_graph,
               "on: runs of up to 128 steps of all slabs and their halo copies replayed from one CUDA graph over "
               "the GPUs (the default; one process only); off: every step's launches and copies queued from the host")
      ->check(CLI::IsMember({"on", "off"}));
  c.add_option("--halo-copy", a.halo_copy,
               "kernel: the halo planes between GPUs' slabs copied by a kernel of the sending GPU storing into its "
               "neighbour (the default); engine: by the copy engines")
      ->check(CLI::IsMember({"engine", "kernel"}));
  c.add_option("--slab-sync", a.slab_sync,
               "flags: in the step graph, slabs on different GPUs wait for each other's halos through flags in GPU "
               "memory (the default); edges: through the graph's own dependencies between devices")
      ->check(CLI::IsMember({"flags", "edges"}));
  c.add_option("--slab-fields", a.slab_fields,
               "shared: each GPU's slabs in one grid, their halos each other's planes, nothing copied between them "
               "(the default; one process only); own: each slab its own fields, the halos between a GPU's slabs copied")
      ->check(CLI::IsMember({"own", "shared"}));
  c.add_option("--mpi-halos", a.mpi_halos,
               "under mpirun: device: between GPU slabs of ranks on one host copied device to device (CUDA IPC), "
               "only a short message between the ranks (the default; where IPC is not possible the planes go as "
               "messages); host: the halo planes as MPI messages through pinned host buffers")
      ->check(CLI::IsMember({"device", "host"}));
}

void SlabStepArgs::apply(DecompOptions& d) const {
  d.step_graph = slab_graph == "on";
  d.copy_by_kernel = halo_copy == "kernel";
  d.flag_sync = slab_sync == "flags";
  d.share_part_fields = slab_fields == "shared";
  d.mpi_device_halos = mpi_halos == "device";
}

int cuda_device_count() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();  // clear the sticky "no driver" error for later queries
    return 0;
  }
  return n;
}

int parse_positive_count(const std::string& s) {
  size_t used = 0;
  int n = 0;
  try {
    n = std::stoi(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  return used == s.size() && n >= 1 ? n : 0;
}

namespace {

int parse_gpus(const std::string& s, int present) {
  if (s == "all") {
    if (present < 1) throw std::invalid_argument("--gpus all: no CUDA device is present");
    return present;
  }
  const int n = parse_positive_count(s);
  if (n == 0) throw std::invalid_argument("--gpus '" + s + "' is not allowed: a positive number of GPUs or 'all'");
  return n;
}

// The rank's index among the ranks of its machine (Open MPI sets it; else the world rank).
int local_rank(int world_rank) {
  if (const char* v = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK")) return std::atoi(v);
  return world_rank;
}

}  // namespace

DecompSetup make_decomp_setup(const DecompArgs& a, BackendChoice backend) {
  DecompSetup d;
  if (launched_by_mpi()) {
    if (!mpi_available())
      throw std::invalid_argument("started by mpirun, but this wavescope was built without MPI "
                                  "(install libopenmpi-dev and reconfigure)");
    d.mpi = std::make_unique<MpiSession>();
    if (d.mpi->size() > 1) d.options.comm = &d.mpi->comm();
  }
  const bool want_gpus = !a.gpus.empty() || a.slabs_per_gpu > 1;
  if (want_gpus && backend == BackendChoice::Cpu)
    throw std::invalid_argument("--gpus and --slabs-per-gpu need the cuda backend (got --backend cpu)");
  int gpus = 0;
  if (!a.gpus.empty()) {
    const int present = cuda_device_count();
    gpus = parse_gpus(a.gpus, present);
    if (present == 0)
      throw std::invalid_argument("--gpus " + a.gpus + ": no CUDA device is present (" +
                                  query_cuda_device().reason + ")");
    if (gpus > present)
      throw std::invalid_argument("--gpus " + a.gpus + ": only " + std::to_string(present) +
                                  " CUDA device(s) present; allowed: 1.." + std::to_string(present) +
                                  " or 'all' (--slabs-per-gpu K puts K slabs on each)");
  }
  if (gpus == 0 && (a.slabs_per_gpu > 1 || (d.options.comm && backend != BackendChoice::Cpu))) {
    // One GPU: this process's (under mpirun, the rank's own among its machine's GPUs).
    const CudaDeviceInfo info = query_cuda_device();
    if (info.usable) {
      const int present = cuda_device_count();
      const int dev = d.mpi ? local_rank(d.mpi->rank()) % present : 0;
      for (int q = 0; q < a.slabs_per_gpu; ++q) d.options.devices.push_back(dev);
    } else if (backend == BackendChoice::Cuda || a.slabs_per_gpu > 1) {
      throw std::invalid_argument("no usable CUDA device: " + info.reason);
    }
  }
  // Under mpirun --gpus counts per rank: the ranks of one machine take consecutive groups.
  const int first = d.mpi ? local_rank(d.mpi->rank()) * gpus : 0;
  const int present = gpus > 0 ? cuda_device_count() : 0;
  for (int g = 0; g < gpus; ++g)
    for (int q = 0; q < a.slabs_per_gpu; ++q) d.options.devices.push_back((first + g) % present);
  // One slab on one GPU in one process is the ordinary solver (and may use any kernel).
  if (d.options.devices.size() == 1 && !d.options.comm) d.options.devices.clear();
  d.options.slabs_per_process = d.options.devices.empty() ? 1 : (int)d.options.devices.size();
  d.options.overlap = a.halo_overlap == "on";
  a.steps.apply(d.options);
  return d;
}

}  // namespace ws::cli
