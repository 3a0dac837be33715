#pragma once
// The decomposed solver's class (DecomposedSolver), shared by the files that define it:
// decomposed_solver.cpp (set-up, the public calls, the description),
// decomposed_step.cpp (one step: the slabs' updates and the halo copies between them),
// decomposed_graph.cpp (the step graph: capture and replay of runs of steps),
// decomposed_gather.cpp (the state, the receivers, statistics and the display's slices
// gathered from the slabs). Only those files include it; everyone else uses
// decomposed_solver.hpp.
#include "decomp/decomposed_solver.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <functional>
#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "core/cuda_check.hpp"
#include "cpu/cpu_solver.hpp"
#include "cuda/cuda_solver.hpp"
#include "cuda/kernel_registry.hpp"
#include "decomp/halo_copy.hpp"
#include "decomp/halo_planes.hpp"
#include "decomp/step_flags.hpp"
#include "decomp/remote_halos.hpp"
#include "decomp/slab_assign.hpp"
#include "decomp/slab_plan.hpp"
#include "decomp/slab_workers.hpp"
#include "decomp/slice_gather.hpp"
#include "decomp/slice_pack.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/step_graph.hpp"

namespace ws {
namespace decomp_impl {

// One slab this process runs.
struct LocalSlab {
  int s = 0;         // index in the plan
  int part = 0;      // this process's part (GPU slot) that runs it
  int device = -1;   // CUDA device, -1 on the CPU
  bool edge = false; // borders a slab of another part: updated first
  std::unique_ptr<WaveSolver> solver;
  CudaWaveSolver* cuda = nullptr;
  // The display's slice points of a device slab, packed on its GPU (slice_pack.hpp):
  // sized at the first slice_field.
  DeviceBuffer<unsigned char> slice_packed;
  std::unique_ptr<CudaEvent> slice_copied;  // on its stream, behind the packed points' copy
  // On its stream around the steps queued since the last finish_queued() (metrics()).
  std::unique_ptr<CudaEvent> queue_start, queue_stop;
};

// A cut between plan slabs `lo` and `lo + 1` that this process takes part in.
struct Cut {
  int lo = 0;                  // plan index of the slab below
  int below = -1, above = -1;  // local indices (-1: the slab lies on another rank)
  bool same_part = false;      // both local and in one part: copied after the part's update
  bool shared = false;         // in one part's grid (share_part_fields): nothing to copy
};

// A WaveSolver over z-slabs, each an ordinary solver (the CPU reference or a CudaSolver on
// its slab's GPU), with halo exchanges between them: within a GPU, between GPUs (peer
// copies by kernel or copy engine, ordered by events or by flags in GPU memory) and
// between MPI ranks (SlabComm). docs/ARCHITECTURE.md, "Decomposition over GPUs and MPI ranks",
// says how it runs.
class DecomposedSolver final : public WaveSolver, public DecompProbe, public QueuedSlabs {
 public:
  DecomposedSolver(const DecompOptions& o, Precision precision, const Stencil& st, int nx, int ny, int nz,
                   double courant, double dt);

  std::string backend() const override { return locals_.front().solver->backend(); }
  Precision precision() const override { return precision_; }
  const FieldLayout& layout() const override { return layout_; }
  const Stencil& stencil() const override { return stencil_; }
  double courant() const override { return courant_; }
  double dt_s() const override { return dt_; }
  long long step() const override { return locals_.front().solver->step(); }

  void advance(int steps) override;

  void reset() override {
    const CurrentDeviceScope keep(on_devices_);
    for (auto& l : locals_) on(l).solver->reset();
    steps_since_take_ = 0;
  }

  void read_state(std::vector<double>& uc, std::vector<double>& up) override {
    const CurrentDeviceScope keep(on_devices_);
    gather_state(uc, &up);
  }

  void write_state(const std::vector<double>& uc, const std::vector<double>& up, long long step) override;

  void set_boundary(const BoundaryPlan& p) override {
    const CurrentDeviceScope keep(on_devices_);
    drop_graphs();  // the graphs hold the slabs' tables of the old set-up
    for (auto& l : locals_) on(l).solver->set_boundary(slab_boundary(p, layout_, plan_, l.s));
  }
  void set_sources(const std::vector<SourceNode>& src) override {
    const CurrentDeviceScope keep(on_devices_);
    drop_graphs();
    for (auto& l : locals_) on(l).solver->set_sources(slab_sources(src, plan_, l.s));
  }
  void set_receiver_taps(const std::vector<ReceiverTaps>& r) override {
    const CurrentDeviceScope keep(on_devices_);
    drop_graphs();
    for (auto& l : locals_) on(l).solver->take_receiver_samples();  // samples of the old receivers are dropped
    routing_ = route_receivers(r, plan_);
    for (auto& l : locals_) on(l).solver->set_receiver_taps(routing_.per_slab[l.s]);
    steps_since_take_ = 0;
  }

  std::vector<std::vector<double>> take_receiver_samples() override;

  FieldStats field_stats() override;

  SolverMetrics metrics() const override { return metrics_; }

  // The whole grid gathered into host memory (every rank takes part under MPI).
  FieldView current_field() const override;

  // The display's slices: each slab's share of them, gathered (every rank takes part
  // under MPI) into the view's array, whose other points keep older values.
  FieldView slice_field(int i, int j, int k) const override;

  // QueuedSlabs (queued_ only: every slab on a GPU, one process).
  bool can_queue() const { return queued_; }
  void advance_queued(int steps) override;
  void queue_field_stats(int slot) override;
  void finish_queued() override;
  FieldStats queued_field_stats(int slot) override;

  size_t memory_bytes() const override {
    size_t b = 0;
    for (const auto& f : part_fields_) b += f.bytes();
    for (const auto& l : locals_) b += l.solver->memory_bytes();
    return b;
  }

  double time_exchange_s(int rounds) override;
  double cross_bytes_per_step() const override {
    double n = 2.0 * (double)remote_.size();  // each cut to another rank: one send, one receive
    for (const auto& c : cuts_)
      if (!c.same_part) n += 2.0;
    return n * (double)halo_bytes(layout_, precision_);
  }
  void set_exchange(bool on) override { exchange_ = on; }
  void set_step_graph(bool on) override {
    const CurrentDeviceScope keep(on_devices_);
    graph_on_ = on;
    if (!on) drop_graphs();
  }
  int slab_count() const override { return plan_.size(); }
  std::string remote_halo_path() const override { return remote_.path(); }

  std::string describe() const;

  DecompGraphUse graph_use() const { return {replayed_, graph_note_}; }

 private:
  // Selects the slab's device before any call into its solver (its buffers, stream and
  // launches belong to that device).
  LocalSlab& on(LocalSlab& l) {
    if (l.device >= 0) CUDA_CHECK(cudaSetDevice(l.device));
    return l;
  }

  int local_index(int s) const {
    for (int q = 0; q < (int)locals_.size(); ++q)
      if (locals_[q].s == s) return q;
    return -1;
  }

  // f(part) for every part of this process: concurrently when each part is a GPU.
  void for_parts(const std::function<void(int)>& f) {
    if (workers_->size() == parts_ && capture_k_ < 0) workers_->run(f);  // a capture is issued from one thread
    else
      for (int p = 0; p < parts_; ++p) f(p);
  }

  // Slab `from`'s planes next to slab `to` into `to`'s halo facing it, queued on the
  // copy stream of `from` toward `to` (host fields: copied at once).
  void copy_across(int from, int to);

  // The copies out of the part's slabs done.
  void wait_copies(int part);

  // One step. On entry the halos of every slab's u^n hold the neighbours' planes; on
  // exit those of u^{n+1} do. Order:
  //   1. every part updates its edge slabs (those next to another part);
  //   2. their planes go out: MPI messages to other ranks, peer copies to other GPUs,
  //      queued on a copy stream, while 3. each part updates the rest of its slabs;
  //   4. slabs within a part swap planes; the messages are waited for.
  // A copy into a neighbour's halo after 1 only touches the halo of its u^{n+1}, which
  // no update of this step reads, so it may run alongside 3.
  // Queued (queued_): nothing waits on the host. A slab's update waits for the copies of
  // the previous step into its own two halos (halo_copied_), so the inner slab of a GPU
  // runs step after step without waiting for the edges' copies, and its edge slab's
  // update and copies slot in beside it; a copy waits for the update that wrote its
  // planes and for the update before it of the slab it writes into (slab_done_, one
  // event per step parity).
  // With MPI messages in flight (host-staged, not queued) the device slabs' updates are
  // all queued at once, the edge slabs' at the greatest stream priority, so the inner
  // slabs start without waiting for the edges; this thread waits for the edge slabs alone,
  // stages and posts their planes, and keeps the messages moving (SlabComm::progress)
  // until the inner slabs are done; the copies within a part follow, and the received
  // planes go onto each device behind the step on the edge slab's own stream, which its
  // next update follows.
  void one_step();

  // Device slabs under MPI: every update queued at once (one_step).
  void step_staged();

  // Every other placement: the edge slabs first, then the rest (one_step).
  void step_in_order();

  void step_slab(LocalSlab& l);

  // Whether the copy out of local slab `from` upwards (or downwards) is ordered by flags.
  bool by_flags(int from, bool up) const { return flag_side_[from][up ? 1 : 0]; }

  // After replays: a flag wait that gave up means a neighbour's signal never came (the
  // steps of that replay are not to be trusted). The graph is left off, and the failure is
  // raised as a CUDA error, so that the model stops as for any device fault mid-run
  // (receivers kept, the field read back for the CPU solver).
  void check_flag_waits();

  int index_of(const LocalSlab& l) const { return (int)(&l - locals_.data()); }

  // The step graph. A replay runs `run` steps of every slab and copy as one_step would
  // queue them (the same kernels, copies and order between them, so the result is bit
  // for bit the same). Around it every stream of the slabs joins the graph's stream, and
  // after it every stream waits for the graph: each replay is ordered after all that came
  // before and before all that follows, so the graph's first step needs no event of the
  // step before it.
  static constexpr int kGraphLevels = 8;  // runs of 2, 4, ... 128 steps
  static_assert(1 << (kGraphLevels - 1) == kSlabGraphLongestRun, "the levels end at the longest run");

  // The longest run of a power of two steps, at least 2 (even: a capture leaves the
  // slabs' grid parity where it was), that every slab can replay now; 0 for none.
  int replay_run(int left) const;

  // false when the graph could not be captured (graph_note_ says why; the steps are then
  // queued one by one).
  bool replay(int run);

  // `gs` waits for slab q's update stream and copy streams (events on q's device);
  // leaves gs's device (the first slab's) current.
  void join_into(size_t q, cudaStream_t gs);

  void capture_run(StepGraph& g, int run);

  // The events the capture recorded, recorded again on their streams, so that the steps
  // queued after a replay wait on ordinary records, never on ones inside a graph.
  void rerecord_step_events();

  void drop_graphs();

  void progress_remote_until_interiors_done();

  // Every slab's and copy stream's work done (the end of a queued advance).
  void wait_all_streams();

  // The exchange of one step alone (the benchmark's measure of the halo time).
  void exchange();

  void copy_out_of_part(int p);

  void copy_within_part(int p);

  // u^n of a slab, writable: no solver writes its halo planes (FieldLayout), so they are
  // the decomposition's to fill, and the interior planes are only read from here.
  SlabField field_of(LocalSlab& l) {
    const FieldView v = l.solver->current_field();
    return {const_cast<void*>(v.data), v.layout, v.on_device ? l.device : -1, (int)bytes_of(precision_)};
  }

  void post_remote() {
    remote_.post([&](int local) { return field_of(locals_[local]); });
  }
  void finish_remote() {
    // Staged: the received planes are queued behind each edge slab's step on its stream.
    RemoteHalos::StreamOf on_stream;
    if (staged_) on_stream = [&](int local) { return locals_[local].cuda->stream(); };
    remote_.finish([&](int local) { return field_of(locals_[local]); }, on_stream);
  }

  // The grid's padded arrays from the slabs' interior planes (the grid's own z halo is
  // the fixed boundary: zero). Under MPI every rank receives the whole grid.
  // Both levels (read_state), or u^n alone when `up` is null (current_field: the display's
  // per-frame read has no use for u^{n-1}).
  void gather_state(std::vector<double>& uc, std::vector<double>* up);
  // The grid's statistics from every local slab's (`slab_stats`): the interior-point-weighted
  // mean, the peak, finite; combined over the MPI ranks when `all_ranks`.
  FieldStats grid_stats(const std::function<FieldStats(LocalSlab&)>& slab_stats, bool all_ranks);

  Stencil stencil_;
  Precision precision_;
  double courant_, dt_;
  SlabComm* comm_;
  FieldLayout layout_;
  SlabPlan plan_;
  int parts_ = 1;
  // Per part of this process: both levels of its grid when its slabs share one
  // (share_part_fields), else empty. Declared before locals_, so it outlives the slabs'
  // solvers, which hold pointers into it.
  std::vector<DeviceBuffer<unsigned char>> part_fields_;
  std::vector<LocalSlab> locals_;
  // Per local slab: the local slab below [0] / above [1] in the same part's grid (-1: none).
  std::vector<std::array<int, 2>> shared_nb_;
  // Per local slab: the streams of its copies into the slab below [0] and above [1].
  std::vector<std::array<std::unique_ptr<CudaStream>, 2>> copy_streams_;
  bool queued_ = false;                                 // one_step's queued order
  // Per local slab: its queued updates of even and odd steps (parity_ this step's).
  std::vector<std::array<std::unique_ptr<CudaEvent>, 2>> slab_done_;
  // Per local slab: the last copy into its halo below [0] and above [1] (null: no local
  // neighbour there).
  std::vector<std::array<std::unique_ptr<CudaEvent>, 2>> halo_copied_;
  int parity_ = 0;
  std::unique_ptr<SlabWorkers> workers_;
  std::vector<Cut> cuts_;
  RemoteHalos remote_{nullptr, 0};  // the cuts to other ranks (set in the constructor)
  bool exchange_ = true;
  ReceiverRouting routing_;
  long long steps_since_take_ = 0;
  // Device slabs under MPI (halos as host-staged messages or device to device):
  // every update queued at once (one_step).
  bool staged_ = false;
  // The step graph (replay()); null stream when the slabs cannot have one (not queued_).
  std::unique_ptr<CudaStream> graph_stream_;
  std::unique_ptr<CudaEvent> fork_, after_replay_;  // on graph_stream_'s device
  std::vector<std::array<std::unique_ptr<CudaEvent>, 3>> joins_;  // per local slab: update, copies down, up
  // Per exchange on/off (set_exchange), grid parity and level.
  std::array<std::array<std::array<StepGraph, kGraphLevels>, 2>, 2> graphs_;
  bool on_devices_ = false;  // the slabs are on GPUs (CurrentDeviceScope in every public call)
  bool graph_on_ = true;    // DecompOptions::step_graph, set_step_graph
  std::string graph_note_;  // why the graph is not used ("" while it may be)
  int capture_k_ = -1;      // step of the run being captured (-1: not capturing)
  // (sending device, receiving device) pairs whose copies run as kernels (copy_by_kernel).
  std::set<std::pair<int, int>> kernel_copy_pairs_;
  // Per local slab: whether its cut below [0] / above [1] is ordered by flags in the step
  // graph (DecompOptions::flag_sync), the local slab across it, and its flags (step_flags.hpp).
  std::vector<std::array<bool, 2>> flag_side_;
  std::vector<std::array<int, 2>> neighbour_;
  std::vector<DeviceBuffer<unsigned>> flags_;
  bool replayed_ = false;   // the last advance() replayed a graph
  long long queued_steps_ = 0;  // advance_queued() steps not yet finished
  std::chrono::steady_clock::time_point queued_since_;
  SolverMetrics metrics_;
  std::vector<float> view_f_;
  std::vector<double> view_d_;
  // slice_field with every slab on a device: the grid's padded array on the display's
  // device (slice_device_), holding the slices, and every slab's packed points there.
  FieldView slices_on_device(const SliceAt& at);
  DeviceBuffer<unsigned char> slice_grid_, slice_packed_;
  std::unique_ptr<CudaEvent> slice_read_;  // on the display device's legacy stream
  int slice_device_ = -1;
};

}  // namespace decomp_impl
}  // namespace ws
