#pragma once
// A WaveSolver over z-slabs (slab_plan.hpp): one ordinary solver per slab (the CPU
// reference or a CudaSolver on the slab's GPU, with any registered kernel that reads
// its halo from memory), the halo planes exchanged between them before every step,
// and the slabs' receivers, statistics and state put back together in the grid's
// coordinates. It answers bit for bit what one undecomposed solver of the same
// backend and kernel answers (tests/decomp/).
//
// Within a process adjacent slabs copy planes directly (memcpy, or GPU to GPU by a
// copy kernel or cudaMemcpyPeer, which also serve two slabs on one GPU), and with every
// slab on a GPU runs of steps replay from one CUDA graph over the devices
// (DecompOptions::step_graph). Across MPI ranks the planes
// travel as messages; the slabs that border another rank are split off and updated
// first, their planes sent, and the rest of the rank's grid updated while they travel.
#include <memory>
#include <string>
#include <vector>

#include "decomp/slab_comm.hpp"
#include "decomp/slab_kernel.hpp"
#include "wave/wave_solver.hpp"

namespace ws {

// The longest run of steps one replay of the slabs' step graph holds (DecompOptions::step_graph).
constexpr int kSlabGraphLongestRun = 128;

struct DecompOptions {
  // Slabs per process. With `devices` empty they run on the CPU backend; otherwise
  // slab q of the process runs on CUDA device devices[q] (entries may repeat: several
  // slabs on one device, for tests).
  int slabs_per_process = 1;
  std::vector<int> devices;
  std::string kernel_id;       // CUDA kernel ("": the first registered one that can run on a slab)
  SlabComm* comm = nullptr;    // null: this process holds the whole grid
  bool overlap = true;         // split off the slabs at a rank boundary (split_edges_for_overlap)
  // The edge slabs' updates on streams of the device's greatest priority (false: the
  // default priority, for the scaling benchmark's comparison).
  bool prioritize_edges = true;
  // With every slab on a device and no MPI peer: runs of up to 128 steps of every slab's
  // update and every copy between them captured once in one CUDA graph over the devices
  // and replayed with one launch (false: each step's launches and events from the host).
  bool step_graph = true;
  // Halo planes between device slabs copied by a kernel of the sending device that
  // stores into the neighbour (halo_copy.hpp), or by a copy engine (false; a pair of
  // devices without peer access always uses the engine). Kernels measured faster on
  // four H100s (docs/benchmarks.md): the default.
  bool copy_by_kernel = true;
  // Inside the step graph, slabs on different GPUs (with kernel copies between them)
  // order their steps through flags in device memory (step_flags.hpp) instead of the
  // graph's edges between devices (false).
  bool flag_sync = true;
  // With every slab on a device and no MPI peer: the slabs of one GPU (its edge slabs and
  // the inner one) in one grid, so their halos are each other's planes and need no copy
  // (false: each slab its own fields, and copies between them, as across GPUs).
  bool share_part_fields = true;
  // Under MPI, the halo planes between slabs on devices of one host copied device to
  // device into the other rank's memory (CUDA IPC; remote_halos.hpp), with only a short
  // message between the ranks (false: the planes as MPI messages, staged through pinned
  // host buffers, which is also what a cut takes where IPC is not possible). On two H200s
  // an exchange took 0.06 ms this way against 0.44 ms through the host (weak scaling 92.1%
  // against 89%, docs/benchmarks.md).
  bool mpi_device_halos = true;
};

// Throws std::invalid_argument (naming the values) when the grid is too thin for the
// slabs, or the kernel cannot run on a slab.
std::unique_ptr<WaveSolver> make_decomposed_solver(const DecompOptions& options, Precision precision,
                                                   const Stencil& stencil, int nx, int ny, int nz, double courant,
                                                   double dt_s);

// What the scaling benchmark asks of a decomposed solver (decomp_probe: null for
// another solver).
class DecompProbe {
 public:
  virtual ~DecompProbe() = default;
  // Seconds per exchange round (every copy and message of one step, no update), the
  // largest over the ranks, averaged over `rounds`. Copies current values onto
  // themselves: the state is unchanged.
  virtual double time_exchange_s(int rounds) = 0;
  // Bytes this process moves between parts (GPUs, ranks) per step, both directions.
  virtual double cross_bytes_per_step() const = 0;
  // false: steps update the slabs without exchanging halos (wrong answers: for timing only).
  virtual void set_exchange(bool on) = 0;
  // DecompOptions::step_graph, switched between steps.
  virtual void set_step_graph(bool on) = 0;
  virtual int slab_count() const = 0;
  // How halos travel to other MPI ranks: "" (no other rank), "device" (every cut device to
  // device, CUDA IPC), "host: " and why (messages staged through host memory) or "mixed: "
  // with how many cuts go which way.
  virtual std::string remote_halo_path() const = 0;
};
DecompProbe* decomp_probe(WaveSolver& solver);

// Steps queued without a host wait, for the frame loop (WaveModel::advance_async): with
// every slab on a GPU and one process, the slabs' steps (graph replays or queued steps)
// and their statistics are queued on the devices and waited for once, at the next frame,
// so the picture is drawn while the slabs step, as on one GPU.
class QueuedSlabs {
 public:
  virtual ~QueuedSlabs() = default;
  // advance() without its final wait (called once or more before finish_queued()).
  virtual void advance_queued(int steps) = 0;
  // Every slab's field statistics reduced behind the steps queued so far, into `slot`
  // (0 .. CudaWaveSolver::kQueuedStats - 1).
  virtual void queue_field_stats(int slot) = 0;
  // Waits for the queued steps; metrics() then give their throughput.
  virtual void finish_queued() = 0;
  // The grid's statistics of `slot`, after finish_queued().
  virtual FieldStats queued_field_stats(int slot) = 0;
};
// The solver's queued advance; null for a solver that is not decomposed, or whose slabs
// cannot queue (a slab on the CPU, or several MPI ranks).
QueuedSlabs* queued_slabs(WaveSolver& solver);

// Whether the last advance() of a decomposed solver replayed its step graph, and why not
// when it could not ("" when it did or was not asked to); false, "" for another solver.
struct DecompGraphUse {
  bool replayed = false;
  std::string note;
};
DecompGraphUse decomp_graph_use(const WaveSolver& solver);

// Describes a decomposed solver (slabs, where they run) for logs; "" for another solver.
std::string describe_decomposition(const WaveSolver& solver);

}  // namespace ws
