// The decomposed solver's set-up (the slabs of this process, their devices and streams,
// the cuts between them and the step graph's events), its advance, the exchange's timing
// and its description; the factory functions of decomposed_solver.hpp.
#include "decomp/decomposed_solver_impl.hpp"

namespace ws {
namespace decomp_impl {

DecomposedSolver::DecomposedSolver(const DecompOptions& o, Precision precision, const Stencil& st, int nx, int ny, int nz,
                                   double courant, double dt)
    : stencil_(st), precision_(precision), courant_(courant), dt_(dt), comm_(o.comm) {
  // Every public call leaves the caller on the device it found (on() moves it from slab
  // to slab).
  on_devices_ = !o.devices.empty();
  const CurrentDeviceScope keep(on_devices_);
  const int ranks = comm_ ? comm_->size() : 1, rank = comm_ ? comm_->rank() : 0;
  const int per = o.slabs_per_process;
  if (per < 1)
    throw std::invalid_argument("slabs per process must be at least 1 (got " + std::to_string(per) + ")");
  if (!o.devices.empty() && (int)o.devices.size() != per)
    throw std::invalid_argument("one CUDA device per slab: " + std::to_string(o.devices.size()) + " devices for " +
                                std::to_string(per) + " slabs");
  std::string what = o.devices.empty() ? "slabs" : "GPUs";
  if (ranks > 1)
    what = !o.devices.empty() ? "GPUs over all ranks"
           : per == 1         ? "MPI ranks"
                              : "slabs (" + std::to_string(per) + " per MPI rank)";
  layout_ = make_layout(nx, ny, nz, halo_for(st), (int)bytes_of(precision));
  plan_ = make_slab_plan(nz, ranks * per, layout_.halo, what);
  for (auto& sl : plan_.slabs) sl.owner = sl.part / per;
  // Splitting only pays where parts run concurrently: other ranks, other GPUs.
  if (o.overlap && (ranks > 1 || !o.devices.empty())) plan_ = split_edges_for_overlap(plan_);
  parts_ = per;
  bool distinct = true, several = false;  // distinct: no two parts share a device
  for (size_t a = 0; a < o.devices.size(); ++a)
    for (size_t b = 0; b < a; ++b) {
      distinct = distinct && o.devices[a] != o.devices[b];
      several = several || o.devices[a] != o.devices[b];
    }
  const std::string kernel = o.devices.empty() ? std::string() : slab_kernel(st, precision, o.kernel_id, several);
  // The slabs of one GPU in one grid (DecompOptions::share_part_fields; one process):
  // each part's two levels are allocated once and every slab of the part is lent its
  // run of planes, halos included, so a slab's halo planes are its neighbour's outer
  // planes and the slabs of a GPU exchange nothing. Slab layouts share the grid's pitch
  // and plane, so a slab's planes lie in the part's grid as in the whole grid.
  const bool share = !o.devices.empty() && ranks == 1 && o.share_part_fields;
  std::vector<int> part_z0(per, -1), part_nz(per, 0), part_slabs(per, 0);
  for (const Slab& sl : plan_.slabs)
    if (sl.owner == rank) {
      const int p = sl.part - rank * per;
      if (part_z0[p] < 0) part_z0[p] = sl.z0;
      part_nz[p] += sl.nz;
      ++part_slabs[p];
    }
  part_fields_.resize(per);
  std::vector<FieldLayout> part_layout(per);
  for (int s = 0; s < plan_.size(); ++s) {
    const Slab& sl = plan_.slabs[s];
    if (sl.owner != rank) continue;
    LocalSlab l;
    l.s = s;
    l.part = sl.part - rank * per;
    l.edge = (s > 0 && plan_.slabs[s - 1].part != sl.part) ||
             (s + 1 < plan_.size() && plan_.slabs[s + 1].part != sl.part);
    if (o.devices.empty()) {
      l.solver = make_cpu_solver(precision, st, nx, ny, sl.nz, courant, dt);
    } else {
      l.device = o.devices[l.part];
      CUDA_CHECK(cudaSetDevice(l.device));
      LentFields lent;
      const bool lend = share && part_slabs[l.part] > 1;
      if (lend) {
        const int p = l.part;
        const size_t elem = bytes_of(precision);
        if (!part_fields_[p].get()) {
          part_layout[p] = make_layout(nx, ny, part_nz[p], layout_.halo, (int)elem);
          part_fields_[p] = DeviceBuffer<unsigned char>(2 * part_layout[p].bytes((int)elem));
        }
        unsigned char* base = part_fields_[p].get() + (size_t)(sl.z0 - part_z0[p]) * part_layout[p].plane * elem;
        lent = {base, base + part_layout[p].bytes((int)elem)};
      }
      auto c = make_cuda_solver(precision, st, nx, ny, sl.nz, courant, dt, kernel, lend ? &lent : nullptr);
      l.cuda = c.get();
      l.solver = std::move(c);
    }
    locals_.push_back(std::move(l));
  }
  if (!o.devices.empty()) {
    enable_peer_access(o.devices);
    if (o.copy_by_kernel)
      for (int a : o.devices)
        for (int b : o.devices) {
          int can = a == b;
          if (a != b) CUDA_CHECK(cudaDeviceCanAccessPeer(&can, a, b));
          if (can) kernel_copy_pairs_.insert({a, b});
        }
    // Each slab sends its planes on two copy streams of its own, one per side, so a
    // copy waiting for one slab's update, or for a neighbour's flag, never holds up other
    // planes behind it in a queue: an inner slab's planes go to both its edge slabs at
    // once, and an edge slab's planes for the inner slab beside it do not wait behind
    // its copy to another GPU (both lie on the step's critical path: docs/benchmarks.md,
    // "Four H100s: a copy stream per side"). The edge slabs' updates and all copies run
    // at the device's greatest stream priority, so the planes a neighbour waits for are
    // computed and sent while the inner slab's blocks still run, instead of after them.
    for (auto& l : locals_) {
      CUDA_CHECK(cudaSetDevice(l.device));
      copy_streams_.push_back({std::make_unique<CudaStream>(CudaStream::highest_priority()),
                               std::make_unique<CudaStream>(CudaStream::highest_priority())});
      if (l.edge && o.prioritize_edges) l.cuda->use_highest_priority_stream();
    }
  }
  // Queued steps: with every slab of this process on a device and no MPI peer, no step
  // waits on the host; events order the slabs' streams and the copy streams (one_step).
  queued_ = !o.devices.empty() && ranks == 1;
  staged_ = !o.devices.empty() && ranks > 1;
  if (queued_) {
    for (auto& l : locals_) {
      CUDA_CHECK(cudaSetDevice(l.device));
      slab_done_.push_back({std::make_unique<CudaEvent>(), std::make_unique<CudaEvent>()});
    }
    halo_copied_.resize(locals_.size());
  }
  graph_on_ = o.step_graph;
  if (queued_) {
    CUDA_CHECK(cudaSetDevice(locals_.front().device));
    graph_stream_ = std::make_unique<CudaStream>();
    fork_ = std::make_unique<CudaEvent>();
    after_replay_ = std::make_unique<CudaEvent>();
    for (auto& l : locals_) {
      CUDA_CHECK(cudaSetDevice(l.device));
      joins_.push_back({std::make_unique<CudaEvent>(), std::make_unique<CudaEvent>(), std::make_unique<CudaEvent>()});
    }
  }
  // One thread per part when the parts are distinct GPUs. The CPU backend's slabs share
  // the cores through OpenMP inside each update, and slabs sharing a GPU (the test
  // placement) share its queue: both run one after the other.
  workers_ = std::make_unique<SlabWorkers>(!o.devices.empty() && distinct ? per : 1);
  remote_ = RemoteHalos(comm_, halo_bytes(layout_, precision_));
  for (int s = 0; s + 1 < plan_.size(); ++s) {
    Cut c;
    c.lo = s;
    c.below = local_index(s);
    c.above = local_index(s + 1);
    if (c.below < 0 && c.above < 0) continue;
    c.same_part = c.below >= 0 && c.above >= 0 && locals_[c.below].part == locals_[c.above].part;
    if (c.below >= 0 && c.above >= 0) {
      cuts_.push_back(c);
      continue;
    }
    const int local = c.below >= 0 ? c.below : c.above;
    // One cut, one tag; the two directions come from different ranks.
    remote_.add(local, locals_[local].device, c.below >= 0, plan_.slabs[c.below >= 0 ? s + 1 : s].owner, s);
  }
  if (comm_ && comm_->size() > 1) remote_.connect(o.mpi_device_halos);
  // Slabs in one grid: each waits for its neighbour's update of the step before (whose
  // planes it reads as its halo, and whose reads of its own planes it must not overtake).
  shared_nb_.assign(locals_.size(), {-1, -1});
  for (Cut& c : cuts_)
    if (c.same_part && share && part_fields_[locals_[c.below].part].get()) {
      c.shared = true;
      shared_nb_[c.below][1] = c.above;
      shared_nb_[c.above][0] = c.below;
    }
  // A halo side's event lives on the device of the copy stream that fills it: that of
  // the neighbouring slab's part.
  for (const Cut& c : cuts_)
    if (queued_ && !c.shared) {
      CUDA_CHECK(cudaSetDevice(locals_[c.below].device));
      halo_copied_[c.above][0] = std::make_unique<CudaEvent>();
      CUDA_CHECK(cudaSetDevice(locals_[c.above].device));
      halo_copied_[c.below][1] = std::make_unique<CudaEvent>();
    }
  // The cuts between devices whose copies are kernels are ordered by flags in the graph.
  flag_side_.assign(locals_.size(), {false, false});
  neighbour_.assign(locals_.size(), {-1, -1});
  flags_.resize(locals_.size());
  if (graph_stream_ && o.flag_sync)
    for (const Cut& c : cuts_) {
      const int db = locals_[c.below].device, da = locals_[c.above].device;
      if (c.same_part || db == da || !kernel_copy_pairs_.count({db, da}) || !kernel_copy_pairs_.count({da, db}))
        continue;
      flag_side_[c.below][1] = flag_side_[c.above][0] = true;
      neighbour_[c.below][1] = c.above;
      neighbour_[c.above][0] = c.below;
    }
  for (size_t q = 0; q < locals_.size(); ++q)
    if (flag_side_[q][0] || flag_side_[q][1]) {
      on(locals_[q]);
      flags_[q] = DeviceBuffer<unsigned>(kStepFlags);
      CUDA_CHECK(cudaMemset(flags_[q].get(), 0, flags_[q].bytes()));
    }
}

void DecomposedSolver::advance(int steps) {
  advance_queued(steps);
  finish_queued();
}

void DecomposedSolver::advance_queued(int steps) {
  const CurrentDeviceScope keep(on_devices_);
  if (queued_steps_ == 0) {
    queued_since_ = std::chrono::steady_clock::now();
    replayed_ = false;
    for (auto& l : locals_) {
      if (!l.cuda) continue;
      on(l);
      if (!l.queue_start) {
        l.queue_start = std::make_unique<CudaEvent>();
        l.queue_stop = std::make_unique<CudaEvent>();
      }
      l.queue_start->record(l.cuda->stream());
    }
  }
  queued_steps_ += steps;
  for (int left = steps; left > 0;) {
    const int run = replay_run(left);
    if (run > 0 && replay(run)) {
      left -= run;
      continue;
    }
    one_step();
    --left;
  }
  // Behind the steps, not at the finish: the time is the steps' own, however late the host
  // comes back for them.
  for (auto& l : locals_)
    if (l.cuda) on(l).queue_stop->record(l.cuda->stream());
}

void DecomposedSolver::queue_field_stats(int slot) {
  const CurrentDeviceScope keep(on_devices_);
  for (auto& l : locals_) on(l).cuda->queue_field_stats(slot);
}

void DecomposedSolver::finish_queued() {
  const CurrentDeviceScope keep(on_devices_);
  const long long steps = queued_steps_;
  queued_steps_ = 0;
  if (queued_ || staged_) wait_all_streams();
  if (replayed_) check_flag_waits();
  // The slowest slab's device time (each slab's stream waits for its halos before it goes on;
  // its events are done, its stream having been waited for); the host's time on the CPU.
  double sec = 0.0;
  bool on_devices = false;
  for (auto& l : locals_)
    if (l.cuda && l.queue_start) {
      sec = std::max(sec, on(l).queue_stop->ms_since(*l.queue_start) * 1e-3);
      on_devices = true;
    }
  if (!on_devices) sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - queued_since_).count();
  if (steps > 0) metrics_ = throughput_metrics(steps, sec, layout_.interior_points(), precision_);
}

double DecomposedSolver::time_exchange_s(int rounds) {
  const CurrentDeviceScope keep(on_devices_);
  // post() copies the edge planes at once, and a mailbox half may be rewritten only after
  // the copies out of it queued by the last finish() have run: nothing may still be
  // queued (each exchange() drains what it queued itself).
  if (staged_) wait_all_streams();
  const auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < rounds; ++r) exchange();
  double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / std::max(rounds, 1);
  if (comm_ && comm_->size() > 1) {
    double unused = 0.0;
    bool all = true;
    comm_->allreduce_stats(unused, sec, all);
  }
  return sec;
}

std::string DecomposedSolver::describe() const {
  std::ostringstream os;
  const int ranks = comm_ ? comm_->size() : 1;
  os << "z-slab decomposition of " << layout_.nz << " planes into " << parts_ * ranks << " part(s)";
  if (ranks > 1) os << " over " << ranks << " MPI ranks";
  os << "; here:";
  for (int p = 0; p < parts_; ++p) {
    int first = -1, last = -1, slabs = 0, device = -1;
    for (const auto& l : locals_)
      if (l.part == p) {
        const Slab& sl = plan_.slabs[l.s];
        if (first < 0) first = sl.z0;
        last = sl.z0 + sl.nz - 1;
        ++slabs;
        device = l.device;
      }
    os << (p ? "," : "") << " z " << first << ".." << last;
    if (device >= 0) os << " on GPU " << device;
    else os << " on the CPU";
    if (slabs > 1) os << " (" << slabs << " slabs: the edges go first)";
  }
  if (!locals_.empty() && locals_.front().cuda) os << ", kernel " << locals_.front().cuda->kernel().id;
  if (graph_stream_ && graph_on_) os << ", step graphs over the GPUs";
  const auto held = [](const auto& buffers) {
    return std::any_of(buffers.begin(), buffers.end(), [](const auto& b) { return b.get() != nullptr; });
  };
  if (held(part_fields_)) os << ", each GPU's slabs in one grid";
  if (!kernel_copy_pairs_.empty()) os << ", halo copies by kernel";
  if (held(flags_) && graph_on_) os << ", GPUs ordered by flags";
  if (const std::string path = remote_.path(); !path.empty())
    os << ", halos between ranks: " << halo_path_text(path);
  return os.str();
}

}  // namespace decomp_impl

using decomp_impl::DecomposedSolver;

std::unique_ptr<WaveSolver> make_decomposed_solver(const DecompOptions& o, Precision p, const Stencil& st, int nx,
                                                   int ny, int nz, double courant, double dt_s) {
  return std::make_unique<DecomposedSolver>(o, p, st, nx, ny, nz, courant, dt_s);
}

DecompProbe* decomp_probe(WaveSolver& s) { return dynamic_cast<DecomposedSolver*>(&s); }

QueuedSlabs* queued_slabs(WaveSolver& s) {
  auto* d = dynamic_cast<DecomposedSolver*>(&s);
  return d && d->can_queue() ? d : nullptr;
}

DecompGraphUse decomp_graph_use(const WaveSolver& s) {
  const auto* d = dynamic_cast<const DecomposedSolver*>(&s);
  return d ? d->graph_use() : DecompGraphUse{};
}

std::string describe_decomposition(const WaveSolver& s) {
  const auto* d = dynamic_cast<const DecomposedSolver*>(&s);
  return d ? d->describe() : std::string();
}

}  // namespace ws
