#include "decomp/decomposed_solver.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <functional>
#include <cstring>
#include <limits>
#include <set>
#include <utility>
#include <sstream>
#include <stdexcept>

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
#include "cuda/device_buffer.hpp"
#include "cuda/step_graph.hpp"

namespace ws {

namespace {

// One slab this process runs.
struct LocalSlab {
  int s = 0;         // index in the plan
  int part = 0;      // this process's part (GPU slot) that runs it
  int device = -1;   // CUDA device, -1 on the CPU
  bool edge = false; // borders a slab of another part: updated first
  std::unique_ptr<WaveSolver> solver;
  CudaWaveSolver* cuda = nullptr;
};

// A cut between plan slabs `lo` and `lo + 1` that this process takes part in.
struct Cut {
  int lo = 0;                  // plan index of the slab below
  int below = -1, above = -1;  // local indices (-1: the slab lies on another rank)
  bool same_part = false;      // both local and in one part: copied after the part's update
  bool shared = false;         // in one part's grid (share_part_fields): nothing to copy
};

class DecomposedSolver final : public WaveSolver, public DecompProbe {
 public:
  DecomposedSolver(const DecompOptions& o, Precision precision, const Stencil& st, int nx, int ny, int nz,
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

  std::string backend() const override { return locals_.front().solver->backend(); }
  Precision precision() const override { return precision_; }
  const FieldLayout& layout() const override { return layout_; }
  const Stencil& stencil() const override { return stencil_; }
  double courant() const override { return courant_; }
  double dt_s() const override { return dt_; }
  long long step() const override { return locals_.front().solver->step(); }

  void advance(int steps) override {
    const CurrentDeviceScope keep(on_devices_);
    const auto t0 = std::chrono::steady_clock::now();
    replayed_ = false;
    for (int left = steps; left > 0;) {
      const int run = replay_run(left);
      if (run > 0 && replay(run)) {
        left -= run;
        continue;
      }
      one_step();
      --left;
    }
    if (queued_ || staged_) wait_all_streams();
    if (replayed_) check_flag_waits();
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    metrics_ = throughput_metrics(steps, sec, layout_.interior_points(), precision_);
  }

  void reset() override {
    const CurrentDeviceScope keep(on_devices_);
    for (auto& l : locals_) on(l).solver->reset();
    steps_since_take_ = 0;
  }

  void read_state(std::vector<double>& uc, std::vector<double>& up) override {
    const CurrentDeviceScope keep(on_devices_);
    gather_state(uc, &up);
  }

  void write_state(const std::vector<double>& uc, const std::vector<double>& up, long long step) override {
    const CurrentDeviceScope keep(on_devices_);
    if ((int64_t)uc.size() != layout_.total || (int64_t)up.size() != layout_.total)
      throw std::invalid_argument("write_state: arrays must have layout().total elements");
    for (auto& l : locals_) {
      const Slab& sl = plan_.slabs[l.s];
      // The slab's planes with both halos: [z0 - halo, z0 + nz + halo) of the grid.
      const int64_t first = (int64_t)sl.z0 * layout_.plane;
      const int64_t count = on(l).solver->layout().total;
      std::vector<double> c(uc.begin() + first, uc.begin() + first + count);
      std::vector<double> p(up.begin() + first, up.begin() + first + count);
      l.solver->write_state(c, p, step);
    }
    steps_since_take_ = 0;
  }

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

  std::vector<std::vector<double>> take_receiver_samples() override {
    const CurrentDeviceScope keep(on_devices_);
    std::vector<std::vector<std::vector<double>>> per_slab(plan_.size());
    for (auto& l : locals_) per_slab[l.s] = on(l).solver->take_receiver_samples();
    const long long n = steps_since_take_;
    steps_since_take_ = 0;
    if (comm_ && comm_->size() > 1) {
      // Every rank contributes its slabs' samples in slab order; ranks own ascending
      // slab ranges, so the concatenation is in slab order and each list is n long.
      std::vector<double> mine;
      for (const auto& l : locals_)
        for (const auto& r : per_slab[l.s]) {
          if ((long long)r.size() != n) throw std::logic_error("slab receivers out of step");
          mine.insert(mine.end(), r.begin(), r.end());
        }
      const std::vector<double> all = comm_->allgather(mine);
      size_t at = 0;
      for (int s = 0; s < plan_.size(); ++s) {
        per_slab[s].assign(routing_.per_slab[s].size(), {});
        for (auto& r : per_slab[s]) {
          r.assign(all.begin() + at, all.begin() + at + n);
          at += n;
        }
      }
      if (at != all.size()) throw std::logic_error("gathered receiver samples do not match the slabs");
    }
    const TapSum how = backend() == "cpu" ? TapSum::Host
                       : precision_ == Precision::Float ? TapSum::DeviceFloat
                                                        : TapSum::DeviceDouble;
    return combine_receivers(routing_, per_slab, how);
  }

  FieldStats field_stats() override {
    const CurrentDeviceScope keep(on_devices_);
    double sum = 0.0, peak = 0.0;
    bool finite = true;
    for (auto& l : locals_) {
      const FieldStats f = on(l).solver->field_stats();
      sum += f.mean * (double)l.solver->layout().interior_points();
      peak = std::max(peak, f.peak);
      finite = finite && f.finite;
    }
    if (comm_) comm_->allreduce_stats(sum, peak, finite);
    FieldStats f;
    f.finite = finite;
    f.mean = sum / (double)layout_.interior_points();
    f.peak = finite ? peak : std::numeric_limits<double>::infinity();
    return f;
  }

  SolverMetrics metrics() const override { return metrics_; }

  // The whole grid gathered into host memory (every rank takes part under MPI).
  FieldView current_field() const override {
    const CurrentDeviceScope keep(on_devices_);
    auto* self = const_cast<DecomposedSolver*>(this);
    std::vector<double> uc;
    self->gather_state(uc, nullptr);
    if (precision_ == Precision::Float) {
      self->view_f_.assign(uc.begin(), uc.end());
      return {view_f_.data(), precision_, layout_, false};
    }
    self->view_d_ = std::move(uc);
    return {view_d_.data(), precision_, layout_, false};
  }

  // The display's slices: each slab's share of them, gathered (every rank takes part
  // under MPI) into the view's array, whose other points keep older values.
  FieldView slice_field(int i, int j, int k) const override {
    const CurrentDeviceScope keep(on_devices_);
    auto* self = const_cast<DecomposedSolver*>(this);
    const SliceAt at = clamp_slice(layout_, SliceAt{i, j, k});
    std::vector<double> mine;
    for (auto& l : self->locals_) {
      self->on(l);
      if (l.cuda) l.cuda->synchronize();
      pack_slab_slices(l.solver->current_field(), plan_.slabs[l.s], at, mine);
    }
    if (comm_ && comm_->size() > 1) mine = comm_->allgather(mine);
    void* out = nullptr;
    if (precision_ == Precision::Float) {
      if ((int64_t)view_f_.size() != layout_.total) self->view_f_.assign(layout_.total, 0.0f);
      out = self->view_f_.data();
    } else {
      if ((int64_t)view_d_.size() != layout_.total) self->view_d_.assign(layout_.total, 0.0);
      out = self->view_d_.data();
    }
    size_t used = 0;
    for (const Slab& s : plan_.slabs) {
      if (used + slab_slice_values(layout_, s, at) > mine.size())
        throw std::logic_error("gathered slices do not match the slabs");
      used += unpack_slab_slices(mine.data() + used, layout_, s, at, precision_, out);
    }
    if (used != mine.size()) throw std::logic_error("gathered slices do not match the slabs");
    return {out, precision_, layout_, false};
  }

  size_t memory_bytes() const override {
    size_t b = 0;
    for (const auto& f : part_fields_) b += f.bytes();
    for (const auto& l : locals_) b += l.solver->memory_bytes();
    return b;
  }

  double time_exchange_s(int rounds) override {
    const CurrentDeviceScope keep(on_devices_);
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

  std::string describe() const {
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
    return os.str();
  }

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
  void copy_across(int from, int to) {
    const SlabField a = field_of(locals_[from]), b = field_of(locals_[to]);
    const bool up = locals_[to].s > locals_[from].s;
    const void* src = up ? a.top_planes() : a.bottom_planes();
    void* dst = up ? b.halo_below() : b.halo_above();
    const size_t bytes = halo_bytes(layout_, precision_);
    if (a.device < 0 && b.device < 0) {
      copy_planes(dst, -1, src, -1, bytes);
      return;
    }
    CUDA_CHECK(cudaSetDevice(a.device));
    const cudaStream_t cs = copy_streams_[from][up ? 1 : 0]->get();
    if (queued_) {
      // The planes are those `from` wrote this step; the halo is that of the level
      // `to` wrote this step, whose halo `to`'s update of the step before read (as
      // its u^n): those two updates, nothing else (this step's update of `to` reads
      // that level's interior only).
      CUDA_CHECK(cudaStreamWaitEvent(cs, slab_done_[from][parity_]->get(), 0));
      // In a capture's first step that update lies before the graph (its launch waits for it).
      if (capture_k_ > 0 && by_flags(from, up))
        queue_flag_wait(flags_[from].get(), up ? kAboveDone : kBelowDone, -1, (unsigned)capture_k_,
                        flags_[from].get() + kWaitTimedOut, cs);
      else if (capture_k_ != 0)
        CUDA_CHECK(cudaStreamWaitEvent(cs, slab_done_[to][1 - parity_]->get(), 0));
    }
    if (kernel_copy_pairs_.count({a.device, b.device}))
      copy_planes_by_kernel(dst, src, bytes, cs);
    else if (capture_k_ >= 0)  // a peer copy as a graph's memcpy node (unified addressing, peer access on)
      CUDA_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, cs));
    else
      CUDA_CHECK(cudaMemcpyPeerAsync(dst, b.device, src, a.device, bytes, cs));
    if (capture_k_ >= 0 && by_flags(from, up))
      queue_flag_signal(flags_[to].get() + (up ? kHaloBelowReady : kHaloAboveReady), (unsigned)capture_k_ + 1, cs);
    if (queued_) halo_copied_[to][up ? 0 : 1]->record(cs);
  }

  // The copies out of the part's slabs done.
  void wait_copies(int part) {
    if (copy_streams_.empty()) return;
    for (int q = 0; q < (int)locals_.size(); ++q)
      if (locals_[q].part == part) {
        CUDA_CHECK(cudaSetDevice(locals_[q].device));
        for (const auto& cs : copy_streams_[q]) CUDA_CHECK(cudaStreamSynchronize(cs->get()));
      }
  }

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
  void one_step() {
    if (staged_ && exchange_) step_staged();
    else step_in_order();
    ++steps_since_take_;
    parity_ = 1 - parity_;
  }

  // Device slabs under MPI: every update queued at once (one_step).
  void step_staged() {
    for_parts([&](int p) {
      for (auto& l : locals_)
        if (l.part == p && l.edge) on(l).cuda->advance_queued(1);
      for (auto& l : locals_)
        if (l.part == p && !l.edge) on(l).cuda->advance_queued(1);
      for (auto& l : locals_)
        if (l.part == p && l.edge) on(l).cuda->synchronize();
    });
    post_remote();
    for_parts([&](int p) { copy_out_of_part(p); });
    progress_remote_until_interiors_done();
    for_parts([&](int p) {
      copy_within_part(p);
      wait_copies(p);
    });
    finish_remote();
  }

  // Every other placement: the edge slabs first, then the rest (one_step).
  void step_in_order() {
    for_parts([&](int p) {
      for (auto& l : locals_)
        if (l.part == p && l.edge) step_slab(l);
    });
    if (exchange_) post_remote();
    const bool progress = remote_.pending() && !queued_;
    for_parts([&](int p) {
      if (exchange_) copy_out_of_part(p);
      for (auto& l : locals_)
        if (l.part == p && !l.edge) step_slab(l);
      if (progress) return;
      if (exchange_) copy_within_part(p);
      if (!queued_) wait_copies(p);
    });
    if (progress) {
      progress_remote_until_interiors_done();
      for_parts([&](int p) {
        if (exchange_) copy_within_part(p);
        wait_copies(p);
      });
    }
    if (exchange_) finish_remote();
  }

  void step_slab(LocalSlab& l) {
    on(l);
    if (!queued_) {
      l.solver->advance(1);
      return;
    }
    const int q = index_of(l);
    const bool capturing = capture_k_ >= 0;
    if (capture_k_ != 0)  // (a capture's first step: those copies and updates lie before the graph)
      for (int side = 0; side < 2; ++side) {
        if (halo_copied_[q][side] && !(capturing && flag_side_[q][side]))
          CUDA_CHECK(cudaStreamWaitEvent(l.cuda->stream(), halo_copied_[q][side]->get(), 0));
        if (shared_nb_[q][side] >= 0)
          CUDA_CHECK(cudaStreamWaitEvent(l.cuda->stream(), slab_done_[shared_nb_[q][side]][1 - parity_]->get(), 0));
      }
    // (Without the exchange, the benchmark's measure, no copy comes to raise the flags.)
    if (exchange_ && capture_k_ > 0 && (flag_side_[q][0] || flag_side_[q][1]))
      queue_flag_wait(flags_[q].get(), flag_side_[q][0] ? kHaloBelowReady : kHaloAboveReady,
                      flag_side_[q][0] && flag_side_[q][1] ? kHaloAboveReady : -1, (unsigned)capture_k_,
                      flags_[q].get() + kWaitTimedOut, l.cuda->stream());
    if (capturing) l.cuda->capture_step(capture_k_);
    else l.cuda->advance_queued(1);
    slab_done_[q][parity_]->record(l.cuda->stream());
    if (capturing)  // the neighbours on other devices may now overwrite this step's halo
      for (int side = 0; side < 2; ++side)
        if (flag_side_[q][side])
          queue_flag_signal(flags_[neighbour_[q][side]].get() + (side == 0 ? kAboveDone : kBelowDone),
                            (unsigned)capture_k_ + 1, l.cuda->stream());
  }

  // Whether the copy out of local slab `from` upwards (or downwards) is ordered by flags.
  bool by_flags(int from, bool up) const { return flag_side_[from][up ? 1 : 0]; }

  // After replays: a flag wait that gave up means a neighbour's signal never came (the
  // steps of that replay are not to be trusted). The graph is left off, and the failure is
  // raised as a CUDA error, so that the model stops as for any device fault mid-run
  // (receivers kept, the field read back for the CPU solver).
  void check_flag_waits() {
    for (size_t q = 0; q < locals_.size(); ++q) {
      if (!flags_[q].get()) continue;
      on(locals_[q]);
      unsigned timed_out = 0;
      CUDA_CHECK(cudaMemcpy(&timed_out, flags_[q].get() + kWaitTimedOut, sizeof timed_out, cudaMemcpyDeviceToHost));
      if (!timed_out) continue;
      CUDA_CHECK(cudaMemset(flags_[q].get() + kWaitTimedOut, 0, sizeof timed_out));
      drop_graphs();
      graph_note_ = "the slabs' step graph is off: a GPU waited over " + std::to_string((int)kStepFlagTimeoutS) +
                    " s for a neighbouring GPU's halo";
      throw CudaError(cudaErrorLaunchTimeout, graph_note_ + " (the steps of that advance may be wrong)");
    }
  }

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
  int replay_run(int left) const {
    if (!graph_stream_ || !graph_on_ || !graph_note_.empty()) return 0;
    int n = std::min(left, 1 << (kGraphLevels - 1));
    for (const auto& l : locals_) n = std::min(n, l.cuda->replayable_steps(n));
    if (n < 2) return 0;
    int run = 2;
    while (run * 2 <= n) run *= 2;
    return run;
  }

  // false when the graph could not be captured (graph_note_ says why; the steps are then
  // queued one by one).
  bool replay(int run) {
    int level = 0;
    while ((1 << level) < run) ++level;
    const int parity = locals_.front().cuda->grid_parity();
    StepGraph& g = graphs_[exchange_ ? 1 : 0][parity][level];
    if (g.empty()) {
      capture_run(g, run);
      if (g.empty()) return false;
    }
    for (size_t q = 0; q < locals_.size(); ++q) {
      on(locals_[q]).cuda->prepare_replay(run);
      if (flags_[q].get())  // the steps' counts restart (the timed-out flag stays until checked)
        CUDA_CHECK(cudaMemsetAsync(flags_[q].get(), 0, kWaitTimedOut * sizeof(unsigned), locals_[q].cuda->stream()));
    }
    const cudaStream_t gs = graph_stream_->get();
    for (size_t q = 0; q < locals_.size(); ++q) join_into(q, gs);
    g.launch(gs);  // join_into left the graph stream's device current
    after_replay_->record(gs);
    for (size_t q = 0; q < locals_.size(); ++q) {
      on(locals_[q]);
      CUDA_CHECK(cudaStreamWaitEvent(locals_[q].cuda->stream(), after_replay_->get(), 0));
      for (const auto& cs : copy_streams_[q]) CUDA_CHECK(cudaStreamWaitEvent(cs->get(), after_replay_->get(), 0));
    }
    for (auto& l : locals_) l.cuda->replayed(run);
    parity_ ^= run & 1;
    steps_since_take_ += run;
    replayed_ = true;
    return true;
  }

  // `gs` waits for slab q's update stream and copy streams (events on q's device);
  // leaves gs's device (the first slab's) current.
  void join_into(size_t q, cudaStream_t gs) {
    on(locals_[q]);
    joins_[q][0]->record(locals_[q].cuda->stream());
    for (int side = 0; side < 2; ++side) joins_[q][1 + side]->record(copy_streams_[q][side]->get());
    CUDA_CHECK(cudaSetDevice(locals_.front().device));
    for (const auto& e : joins_[q]) CUDA_CHECK(cudaStreamWaitEvent(gs, e->get(), 0));
  }

  void capture_run(StepGraph& g, int run) {
    const int parity_before = parity_;
    const std::string why = g.capture(
        graph_stream_->get(),
        [&](cudaStream_t gs) {
          fork_->record(gs);
          for (size_t q = 0; q < locals_.size(); ++q) {
            on(locals_[q]);
            CUDA_CHECK(cudaStreamWaitEvent(locals_[q].cuda->stream(), fork_->get(), 0));
            for (const auto& cs : copy_streams_[q]) CUDA_CHECK(cudaStreamWaitEvent(cs->get(), fork_->get(), 0));
          }
          for (capture_k_ = 0; capture_k_ < run; ++capture_k_) {
            step_in_order();
            parity_ = 1 - parity_;
          }
          for (size_t q = 0; q < locals_.size(); ++q) join_into(q, gs);
        },
        /*use_node_priority=*/true);
    capture_k_ = -1;
    parity_ = parity_before;
    if (!why.empty()) graph_note_ = "the slabs' step graph could not be captured: " + why;
    rerecord_step_events();
  }

  // The events the capture recorded, recorded again on their streams, so that the steps
  // queued after a replay wait on ordinary records, never on ones inside a graph.
  void rerecord_step_events() {
    for (size_t q = 0; q < locals_.size(); ++q) {
      on(locals_[q]);
      for (auto& e : slab_done_[q]) e->record(locals_[q].cuda->stream());
    }
    for (const Cut& c : cuts_) {
      if (c.shared) continue;
      CUDA_CHECK(cudaSetDevice(locals_[c.below].device));
      halo_copied_[c.above][0]->record(copy_streams_[c.below][1]->get());
      CUDA_CHECK(cudaSetDevice(locals_[c.above].device));
      halo_copied_[c.below][1]->record(copy_streams_[c.above][0]->get());
    }
  }

  void drop_graphs() {
    for (auto& by_exchange : graphs_)
      for (auto& by_parity : by_exchange)
        for (auto& g : by_parity) g = StepGraph();
    graph_note_.clear();
  }

  void progress_remote_until_interiors_done() {
    for (bool running = true; running;) {
      remote_.progress();
      running = false;
      for (auto& l : locals_) {
        if (l.edge || !l.cuda) continue;
        const cudaError_t q = cudaStreamQuery(on(l).cuda->stream());
        if (q == cudaErrorNotReady) {
          running = true;
          break;
        }
        CUDA_CHECK(q);
      }
    }
  }

  // Every slab's and copy stream's work done (the end of a queued advance).
  void wait_all_streams() {
    for (auto& l : locals_) on(l).cuda->synchronize();
    for (int p = 0; p < parts_; ++p) wait_copies(p);
  }

  // The exchange of one step alone (the benchmark's measure of the halo time).
  void exchange() {
    post_remote();
    for_parts([&](int p) {
      copy_out_of_part(p);
      copy_within_part(p);
      wait_copies(p);
    });
    finish_remote();
    if (staged_) wait_all_streams();  // the received planes' copies onto the devices
  }

  void copy_out_of_part(int p) {
    for (const auto& c : cuts_) {
      if (c.same_part) continue;
      if (locals_[c.below].part == p) copy_across(c.below, c.above);
      if (locals_[c.above].part == p) copy_across(c.above, c.below);
    }
  }

  void copy_within_part(int p) {
    for (const auto& c : cuts_)
      if (c.same_part && !c.shared && locals_[c.below].part == p) {
        copy_across(c.below, c.above);
        copy_across(c.above, c.below);
      }
  }

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
  void gather_state(std::vector<double>& uc, std::vector<double>* up) {
    std::vector<double> mine_c, mine_p;
    for (auto& l : locals_) {
      std::vector<double> c, p;
      on(l).solver->read_state(c, p);
      const int64_t from = (int64_t)layout_.halo * layout_.plane;
      const int64_t count = (int64_t)plan_.slabs[l.s].nz * layout_.plane;
      mine_c.insert(mine_c.end(), c.begin() + from, c.begin() + from + count);
      if (up) mine_p.insert(mine_p.end(), p.begin() + from, p.begin() + from + count);
    }
    if (comm_ && comm_->size() > 1) {
      mine_c = comm_->allgather(mine_c);
      if (up) mine_p = comm_->allgather(mine_p);
    }
    const int64_t at = (int64_t)layout_.halo * layout_.plane;
    uc.assign(layout_.total, 0.0);
    std::copy(mine_c.begin(), mine_c.end(), uc.begin() + at);
    if (up) {
      up->assign(layout_.total, 0.0);
      std::copy(mine_p.begin(), mine_p.end(), up->begin() + at);
    }
  }

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
  // Device slabs under MPI (host-staged messages): every update queued at once (one_step).
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
  SolverMetrics metrics_;
  std::vector<float> view_f_;
  std::vector<double> view_d_;
};

}  // namespace

std::unique_ptr<WaveSolver> make_decomposed_solver(const DecompOptions& o, Precision p, const Stencil& st, int nx,
                                                   int ny, int nz, double courant, double dt_s) {
  return std::make_unique<DecomposedSolver>(o, p, st, nx, ny, nz, courant, dt_s);
}

DecompProbe* decomp_probe(WaveSolver& s) { return dynamic_cast<DecomposedSolver*>(&s); }

DecompGraphUse decomp_graph_use(const WaveSolver& s) {
  const auto* d = dynamic_cast<const DecomposedSolver*>(&s);
  return d ? d->graph_use() : DecompGraphUse{};
}

std::string describe_decomposition(const WaveSolver& s) {
  const auto* d = dynamic_cast<const DecomposedSolver*>(&s);
  return d ? d->describe() : std::string();
}

}  // namespace ws
