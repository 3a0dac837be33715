#include <algorithm>
#include <array>
#include <stdexcept>

#include "boundary/boundary_kernels.hpp"
#include "core/cuda_check.hpp"
#include "cuda/cuda_solver.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_info.hpp"
#include "cuda/device_receivers.hpp"
#include "cuda/device_sample_windows.hpp"
#include "cuda/field_stats.hpp"
#include "cuda/launch_check.hpp"
#include "cuda/multi_scratch.hpp"
#include "cuda/step_graph.hpp"
#include "cuda/step_io.hpp"
#include "cuda/tiled_step.hpp"

namespace ws {

namespace {

// The same for a replayed step graph: step and slot come from the device counter,
// which the kernel advances once every thread has read it.
template <class T>
__global__ void io_kernel_counted(T* un, const DeviceSource* src, int nsrc, const DeviceTap* taps,
                                  const int* tap_start, int nrec, T* rec_buf, StepCounter* counter, double dt) {
  const long long step = counter->step, slot = counter->slot;
  io_body(un, src, nsrc, taps, tap_start, nrec, rec_buf, slot, step, dt);
  __syncthreads();
  if (threadIdx.x == 0) *counter = StepCounter{step + 1, slot + 1};
}

template <class T>
class CudaSolver final : public CudaWaveSolver {
 public:
  static constexpr int kChunk = DeviceReceivers<T>::kChunk;
  // Step graphs of 1, 2, 4, ... 128 steps per starting parity: any run is at most 8 replays,
  // and a graph of 128 steps (4 kernels each) instantiates in about a millisecond.
  static constexpr int kGraphLevels = 8;
  static_assert(kChunk % (1 << (kGraphLevels - 1)) == 0, "graph runs must tile the receiver buffer");

  CudaSolver(const Stencil& st, int nx, int ny, int nz, double courant, double dt, const std::string& kernel_id,
             const LentFields* lent)
      : stencil_(st), courant_(courant), dt_(dt) {
    layout_ = make_layout(nx, ny, nz, halo_for(st), sizeof(T));
    check_grid_fits(nx, ny, nz, (size_t)layout_.total, sizeof(T));
    // Both fields in one allocation, so one L2 access-policy window can cover them
    // (kernels/persistent_l2.cu); total is a multiple of 32 elements, so b starts aligned.
    // Lent fields (a slab in its GPU's grid) lie wherever the owner put them; that
    // kernel then covers u^n alone.
    if (lent) {
      a_ = static_cast<T*>(lent->a);
      b_ = static_cast<T*>(lent->b);
    } else {
      fields_ = DeviceBuffer<T>(2 * (size_t)layout_.total);
      a_ = fields_.get();
      b_ = fields_.get() + layout_.total;
    }
    reset();
    const std::string id = kernel_id.empty() ? default_kernel_for(st, precision_of<T>()) : kernel_id;
    if (id.empty()) throw std::invalid_argument("no CUDA kernel supports stencil '" + st.name + "'");
    set_kernel(id, LaunchOptions{preferred_block(KernelRegistry::instance().at(id), st, precision_of<T>()), true});
  }

  ~CudaSolver() override { release_kernel(); }

  std::string backend() const override { return "cuda"; }
  Precision precision() const override { return precision_of<T>(); }
  const FieldLayout& layout() const override { return layout_; }
  const Stencil& stencil() const override { return stencil_; }
  double courant() const override { return courant_; }
  double dt_s() const override { return dt_; }
  long long step() const override { return step_; }
  cudaStream_t stream() const override { return stream_.get(); }
  const KernelVariant& kernel() const override { return *variant_; }
  const LaunchOptions& launch_options() const override { return options_; }
  void synchronize() override { CUDA_CHECK(cudaStreamSynchronize(stream_.get())); }
  void use_highest_priority_stream() override {
    synchronize();
    stream_ = CudaStream::highest_priority();
    drop_graphs();
  }

  void set_kernel(const std::string& id, const LaunchOptions& o) override {
    const KernelVariant& v = KernelRegistry::instance().at(id);
    check_kernel_launch(v, stencil_, precision(), layout_, o);  // refused here, the running kernel stays
    if (variant_ && variant_ != &v) release_kernel();
    variant_ = &v;
    options_ = o;
    drop_graphs();  // the whole-step data (tiled_) is kept: advance_multi rebuilds it if the new block needs
    scratch_ = DeviceBuffer<T>();
  }

  void set_step_graph(bool on) override {
    graph_on_ = on;
    drop_graphs();
  }
  bool step_graph() const override { return graph_on_; }

  StepLaunches step_launches() const override {
    StepLaunches l;
    l.boundary = has_boundary_ ? boundary_.launches() : 0;
    l.io = has_io() ? 1 : 0;
    l.graph_kernels_per_step = graph_kernels_per_step_;
    l.host_launches_per_step = host_launches_per_step_;
    l.graph = last_advance_graph_;
    l.graph_note = graph_note_;
    if (multi_path()) {
      l.interior = 1;
      l.boundary = 0;
      l.io = 0;
      if (graph_note_.empty())
        l.graph_note = "kernel '" + variant_->id + "' runs walls, sources and receivers inside its launches" +
                       (variant_->multi_replayable ? " (replayed from graphs)" : " of many steps");
    } else if (graph_on_ && !variant_->graph_capturable)
      l.graph_note = "kernel '" + variant_->id + "' keeps host-side state between launches (constant tables); "
                     "its steps are launched one by one";
    return l;
  }

  void advance(int steps) override {
    if (steps <= 0) return;
    advance_async(steps);
    finish_async();
  }

  void advance_async(int steps) override {
    if (steps <= 0) return;
    if (async_steps_ == 0) {
      start_.record(stream_.get());
      batch_launches_ = batch_steps_ = 0;  // host launches per step count this batch's advances
    }
    advance_queued(steps);
    // Recorded behind the steps, not at the finish: the time is the steps' own, however
    // late the host comes back for them.
    stop_.record(stream_.get());
    async_steps_ += steps;
  }

  void finish_async() override {
    if (async_steps_ == 0) return;
    const long long steps = async_steps_;
    async_steps_ = 0;
    drain_receivers();  // synchronises the stream once per finish
    const double sec = stop_.ms_since(start_) * 1e-3;
    metrics_ = throughput_metrics(steps, sec, layout_.interior_points(), precision());
  }

  void queue_field_stats(int slot) override {
    if (slot < 0 || slot >= kQueuedStats)
      throw std::out_of_range("queue_field_stats: slot " + std::to_string(slot) + " is outside [0, " +
                              std::to_string(kQueuedStats) + ")");
    ws::queue_field_stats(cur(), layout_, stats_.get(), queued_stats_.get() + 2 * slot, stream_.get());
  }

  FieldStats queued_field_stats(int slot) const override {
    if (slot < 0 || slot >= kQueuedStats)
      throw std::out_of_range("queued_field_stats: slot " + std::to_string(slot) + " is outside [0, " +
                              std::to_string(kQueuedStats) + ")");
    return field_stats_from(queued_stats_.get() + 2 * slot, layout_);
  }

  void advance_queued(int steps) override {
    if (steps <= 0) return;
    long long launches = 0;
    int left = steps;
    if (solids_unsettled()) {  // the column events hold no enclosed solids yet (column_events.hpp)
      const int n = std::min(left, solid_settle_steps_);
      launches += advance_unfused(n);
      left -= n;
      solid_settle_steps_ -= n;
    }
    last_advance_graph_ = !multi_path() && graph_on_ && graph_allowed();
    if (left > 0) {
      if (multi_path()) launches += advance_multi(left);
      else if (last_advance_graph_) launches += advance_graphs(left);
      else launches += advance_unfused(left);
    }
    // Over the advances queued since the batch began (a GUI frame is queued in chunks of
    // Watchdog::kInterval steps: its last chunk alone would say little of the frame).
    batch_launches_ += launches;
    batch_steps_ += steps;
    host_launches_per_step_ = (double)batch_launches_ / (double)batch_steps_;
  }

  int replayable_steps(int wanted) const override {
    if (!graph_on_ || solids_unsettled()) return 0;
    if (multi_path() ? !(tiled_ && variant_->multi_replayable && graph_note_.empty()) : !(graph_warm_ && graph_allowed()))
      return 0;
    int n = std::min(wanted, kChunk);
    if (multi_path()) n = std::min(n, kSourceValueSteps);
    if (!windows_.empty()) n = std::min(n, SampleWindows::window_steps());
    return std::max(n, 0);
  }

  void prepare_replay(int steps) override {
    if (rec_.room() < steps) drain_receivers();
    cover_samples(step_, steps);
    if (has_io()) set_step_counter(counter_.get(), step_, rec_.slot(), stream_.get());
  }

  void capture_step(int k) override {
    const bool a_is_cur = cur_is_a_;
    cur_is_a_ = !cur_is_a_;  // as a step would: current_field() is now the level it writes
    if (!multi_path()) {
      enqueue_step(stream_.get(), a_is_cur, counter_.get());  // advances the counter when it runs
      return;
    }
    // The multi-step launch of one step; the counter stays as prepare_replay set it, and
    // step k reads it with offset k.
    TiledStepData<T> d = multi_data(true);
    d.step0 = k;
    d.slot0 = k;
    (void)variant_->multi_for<T>()(MultiStepArgs<T>{a_is_cur ? field_a() : field_b(), a_is_cur ? field_b() : field_a(),
                                                    1, layout_, &stencil_, courant_ * courant_, &d, scratch_.get()},
                                   options_, stream_.get());
  }

  void replayed(int steps) override {
    if (steps % 2) cur_is_a_ = !cur_is_a_;
    step_ += steps;
    rec_.recorded(steps);
    last_advance_graph_ = true;
  }

  int grid_parity() const override { return cur_is_a_ ? 0 : 1; }

  void reset() override {
    CUDA_CHECK(cudaMemsetAsync(a_, 0, layout_.bytes(sizeof(T)), stream_.get()));
    CUDA_CHECK(cudaMemsetAsync(b_, 0, layout_.bytes(sizeof(T)), stream_.get()));
    CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    cur_is_a_ = true;
    step_ = 0;
    async_steps_ = 0;
    rec_.clear();
  }

  void read_state(std::vector<double>& uc, std::vector<double>& up) override {
    std::vector<T> h(layout_.total);
    CUDA_CHECK(cudaMemcpyAsync(h.data(), cur(), layout_.bytes(sizeof(T)), cudaMemcpyDeviceToHost, stream_.get()));
    CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    uc.assign(h.begin(), h.end());
    CUDA_CHECK(cudaMemcpyAsync(h.data(), prev(), layout_.bytes(sizeof(T)), cudaMemcpyDeviceToHost, stream_.get()));
    CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    up.assign(h.begin(), h.end());
  }

  void write_state(const std::vector<double>& uc, const std::vector<double>& up, long long step) override {
    if ((int64_t)uc.size() != layout_.total || (int64_t)up.size() != layout_.total)
      throw std::invalid_argument("write_state: arrays must have layout().total elements");
    std::vector<T> h(uc.begin(), uc.end());
    CUDA_CHECK(cudaMemcpyAsync(cur(), h.data(), layout_.bytes(sizeof(T)), cudaMemcpyHostToDevice, stream_.get()));
    CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    h.assign(up.begin(), up.end());
    CUDA_CHECK(cudaMemcpyAsync(prev(), h.data(), layout_.bytes(sizeof(T)), cudaMemcpyHostToDevice, stream_.get()));
    CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    step_ = step;
    solid_settle_steps_ = kSolidSettleSteps;
  }

  void set_boundary(const BoundaryPlan& p) override {
    drop_graphs();
    boundary_ = DeviceBoundary<T>(p, layout_);
    has_boundary_ = !p.empty();
    plan_host_ = p;
    plan_walls_ = plan_walls_class(&p, layout_);
    tiled_.reset();
    solid_settle_steps_ = kSolidSettleSteps;  // the new solids may hold the field's values
  }

  void set_sources(const std::vector<SourceNode>& s) override {
    drop_graphs();
    sources_host_.clear();
    windows_.set_tracks(s, dt_);
    for (const auto& n : s)
      sources_host_.push_back({layout_.index(n.node.i, n.node.j, n.node.k), n.signal, n.gain, n.injection,
                               windows_.window_of(n, dt_), windows_.first_step_device()});
    tiled_.reset();
    sources_ = DeviceBuffer<DeviceSource>(sources_host_.size());
    if (!sources_host_.empty())
      copy_to_device(sources_.get(), sources_host_.data(), sources_.bytes());
  }

  void set_receiver_taps(const std::vector<ReceiverTaps>& r) override {
    drain_receivers();
    drop_graphs();
    rec_.set(r, layout_);
  }

  std::vector<std::vector<double>> take_receiver_samples() override {
    return rec_.take(stream_.get());  // with the samples advance_queued() left on the device
  }

  FieldStats field_stats() override { return device_field_stats(cur(), layout_, stats_.get(), stream_.get()); }

  SolverMetrics metrics() const override { return metrics_; }
  FieldView current_field() const override { return {cur_is_a_ ? field_a() : field_b(), precision(), layout_, true}; }
  size_t memory_bytes() const override { return fields_.bytes() + scratch_.bytes() + rec_.bytes(); }

 private:
  // The running kernel's device-wide state undone (KernelVariant::release).
  void release_kernel() noexcept {
    if (!variant_ || !variant_->release) return;
    if (cudaStreamSynchronize(stream_.get()) != cudaSuccess) (void)cudaGetLastError();
    variant_->release();
  }

  T* field_a() const { return a_; }
  T* field_b() const { return b_; }
  T* cur() { return cur_is_a_ ? field_a() : field_b(); }
  T* prev() { return cur_is_a_ ? field_b() : field_a(); }

  LaunchFn<T> launch_fn() const { return variant_->launch_for<T>(); }

  bool has_io() const { return !sources_host_.empty() || rec_.count() > 0; }

  // One step on `s` with u^n in a_ (a_is_cur) or b_: boundary compute, the interior
  // kernel, boundary scatter, sources and receivers. `counter`: the step index and
  // slot come from it (graph capture); else from step_ and the receivers' slot.
  void enqueue_step(cudaStream_t s, bool a_is_cur, StepCounter* counter) {
    T* c = a_is_cur ? field_a() : field_b();
    T* p = a_is_cur ? field_b() : field_a();
    StepArgs<T> args{p, c, layout_, &stencil_, courant_ * courant_};
    if (has_boundary_) boundary_.compute(c, p, s);
    launch_fn()(args, options_, s);
    if (has_boundary_) boundary_.scatter(p, s);
    if (!has_io()) return;
    if (counter)
      io_kernel_counted<T><<<1, 128, 0, s>>>(p, sources_.get(), (int)sources_host_.size(), rec_.taps(),
                                             rec_.tap_start(), rec_.count(), rec_.buffer(), counter, dt_);
    else
      io_kernel<T><<<1, 128, 0, s>>>(p, sources_.get(), (int)sources_host_.size(), rec_.taps(),
                                     rec_.tap_start(), rec_.count(), rec_.buffer(), rec_.slot(), step_, dt_);
    CUDA_CHECK_LAUNCH();
  }

  // Every kernel of every step launched on the stream; returns the host launches.
  long long advance_unfused(int steps) {
    const int per_step = 1 + (has_boundary_ ? boundary_.launches() : 0) + (has_io() ? 1 : 0);
    for (int s = 0; s < steps; ++s) {
      cover_samples(step_, 1);
      enqueue_step(stream_.get(), cur_is_a_, nullptr);
      cur_is_a_ = !cur_is_a_;
      ++step_;
      rec_.recorded(1);
      if (rec_.full()) drain_receivers();
    }
    return (long long)steps * per_step;
  }

  // Whether the next steps must take the per-step path because the column events leave the
  // enclosed solid nodes out, and those do not yet hold zero in both fields: the per-step
  // path zeroes every solid node, so after kSolidSettleSteps of its steps u^{n+1} and u^n
  // are zero at every solid node, and the interior update keeps the enclosed ones there.
  static constexpr int kSolidSettleSteps = 2;
  bool solids_unsettled() const {
    return solid_settle_steps_ > 0 && !plan_host_.solid.empty() && multi_path() && variant_->multi_uses_column_events;
  }

  // Whether advance() runs the kernel's multi-step launch: a kernel runs the scenes its
  // KernelVariant::MultiWalls class runs, and the solver steps the others singly.
  bool multi_path() const {
    return variant_->multi_step() && (!has_boundary_ || variant_->multi_walls <= plan_walls_);
  }

  // The step data of a multi-step launch from step_ and the receivers' slot (or, for a graph's capture,
  // with its offsets from the device counter).
  TiledStepData<T> multi_data(bool counted) const {
    TiledStepData<T> d = tiled_->data();
    d.taps = rec_.taps();
    d.tap_start = rec_.tap_start();
    d.nrec = rec_.count();
    d.tap_planes = rec_.tap_planes();
    d.ntaps = rec_.tap_count();
    d.rec_buf = rec_.buffer();
    d.step0 = counted ? 0 : step_;
    d.slot0 = counted ? 0 : rec_.slot();
    d.counter = counted ? counter_.get() : nullptr;
    d.dt = dt_;
    return d;
  }

  // The multi-step launch of 2^level steps (up to kSourceValueSteps, the longest run the
  // kernel's step data covers) from u^n in a_ (a_is_cur), captured once per parity and
  // level for kernels whose multi-step launch may be replayed (KernelVariant::multi_replayable);
  // empty when the capture failed (graph_note_ says why).
  static constexpr int kMultiGraphLevels = 9;
  static_assert((1 << (kMultiGraphLevels - 1)) == kSourceValueSteps, "the longest replay is one run of source values");
  static_assert(kChunk % kSourceValueSteps == 0, "replays must tile the receiver buffer");
  const StepGraph& multi_graph_for(bool a_is_cur, int level) {
    StepGraph& g = multi_graphs_[a_is_cur ? 0 : 1][level];
    if (!g.empty()) return g;
    const MultiLaunchFn<T> fn = variant_->multi_for<T>();
    const TiledStepData<T> d = multi_data(true);
    T* c = a_is_cur ? field_a() : field_b();
    T* p = a_is_cur ? field_b() : field_a();
    const int len = 1 << level;
    const std::string why = g.capture(stream_.get(), [&](cudaStream_t s) {
      (void)fn(MultiStepArgs<T>{c, p, len, layout_, &stencil_, courant_ * courant_, &d, scratch_.get()}, options_, s);
    });
    if (!why.empty()) graph_note_ = "kernel '" + variant_->id + "' could not be captured in a CUDA graph: " + why;
    else graph_kernels_per_step_ = (double)g.kernel_nodes() / len;
    return g;
  }

  // Runs of steps, each one launch of a kernel that runs whole steps (walls, sources and
  // receivers inside), as long as the receiver buffer and the samples' window allow;
  // returns the host launches.
  long long advance_multi(int steps) {
    const MultiLaunchFn<T> fn = variant_->multi_for<T>();
    if (!fn) throw std::invalid_argument("kernel '" + variant_->id + "' has no " + to_string(precision()) +
                                         " version of its multi-step launch");
    // The step data depends only on the tiles (the block), the grid, the walls and the
    // sources; building it for a large room takes a noticeable part of a second, so it is
    // kept across switches that keep the block (another kernel, other z-chunk waves) and,
    // for kernels that do not read the grouping by tiles, across any switch.
    const TileShape shape{options_.block.x, options_.block.y, options_.block.z};
    const int event_group = std::max(1, variant_->multi_event_vector_bytes / (int)sizeof(T));
    const bool plane_records = event_group > 1 && variant_->multi_plane_records;
    if (tiled_ && !tiled_->serves(variant_->multi_uses_tiles ? &shape : nullptr, event_group, plane_records))
      tiled_.reset();
    if (!tiled_)
      tiled_ = std::make_unique<DeviceTiledStep<T>>(layout_, shape, plan_host_, sources_host_, event_group,
                                                    plane_records);
    // Scratch only for runs long enough to use it (slabs advance one step at a time).
    if (steps >= 4) ensure_multi_scratch(scratch_, *variant_, layout_, stream_.get());
    long long launches = 0;
    int left = steps;
    const bool graphs = graph_on_ && variant_->multi_replayable && graph_note_.empty();
    while (left > 0) {
      long long room = rec_.room();
      if (room == 0) {
        drain_receivers();
        room = kChunk;
      }
      int len = (int)std::min<long long>(left, room);
      if (!windows_.empty()) len = std::min(len, SampleWindows::window_steps());
      if (graphs) {  // the longest replay that fits: any advance is a few replays
        int level = kMultiGraphLevels - 1;
        while ((1 << level) > len) --level;
        const StepGraph& g = multi_graph_for(cur_is_a_, level);
        if (!g.empty()) {
          const int run = 1 << level;
          cover_samples(step_, run);
          if (has_io()) {  // the graph reads the counter and leaves it as it was
            set_step_counter(counter_.get(), step_, rec_.slot(), stream_.get());
            ++launches;
          }
          g.launch(stream_.get());
          ++launches;
          last_advance_graph_ = true;
          if (run % 2) cur_is_a_ = !cur_is_a_;
          step_ += run;
          rec_.recorded(run);
          left -= run;
          continue;
        }
      }
      cover_samples(step_, len);
      const TiledStepData<T> d = multi_data(false);
      launches += fn(MultiStepArgs<T>{cur(), prev(), len, layout_, &stencil_, courant_ * courant_, &d, scratch_.get()},
                     options_, stream_.get());
      if (len % 2) cur_is_a_ = !cur_is_a_;
      step_ += len;
      rec_.recorded(len);
      left -= len;
    }
    return launches;
  }

  bool graph_allowed() const { return variant_->graph_capturable && graph_note_.empty(); }

  // The graph of 2^level steps starting with u^n in a_ (a_is_cur), captured on first use.
  // Empty when the capture failed (graph_note_ says why).
  const StepGraph& graph_for(bool a_is_cur, int level) {
    StepGraph& g = graphs_[a_is_cur ? 0 : 1][level];
    if (!g.empty()) return g;
    const int len = 1 << level;
    const std::string why = g.capture(stream_.get(), [&](cudaStream_t s) {
      for (int k = 0; k < len; ++k) enqueue_step(s, (k % 2 == 0) == a_is_cur, counter_.get());
    });
    if (!why.empty()) graph_note_ = "kernel '" + variant_->id + "' could not be captured in a CUDA graph: " + why;
    else graph_kernels_per_step_ = (double)g.kernel_nodes() / len;
    return g;
  }

  // Runs of 2^level steps replayed from graphs (the longest that fits in what is left
  // and in the receiver buffer); returns the host launches.
  long long advance_graphs(int steps) {
    long long launches = 0;
    bool counter_set = false;
    int left = steps;
    if (!graph_warm_) {
      // One step launched on the stream before the first capture, so that what a launch
      // function sets up on the host the first time (shared-memory opt-ins, tensor maps)
      // happens outside the capture, where it cannot invalidate it.
      launches += advance_unfused(1);
      graph_warm_ = true;
      if (--left == 0) return launches;
    }
    while (left > 0) {
      long long room = rec_.room();
      if (room == 0) {
        drain_receivers();
        counter_set = false;  // the device slot restarts at 0
        room = kChunk;
      }
      // A replay must also stay inside one window of the sampled signals (cover_samples
      // loads one window, and the graph's steps read it without the host in between).
      long long fits = std::min<long long>(left, room);
      if (!windows_.empty()) fits = std::min<long long>(fits, SampleWindows::window_steps());
      int level = kGraphLevels - 1;
      while ((1LL << level) > fits) --level;
      const StepGraph& g = graph_for(cur_is_a_, level);
      if (g.empty()) return launches + advance_unfused(left);  // capture refused: stream launches
      if (!counter_set && has_io()) {
        set_step_counter(counter_.get(), step_, rec_.slot(), stream_.get());
        ++launches;
        counter_set = true;
      }
      cover_samples(step_, 1 << level);
      g.launch(stream_.get());
      ++launches;
      const int len = 1 << level;
      if (len % 2) cur_is_a_ = !cur_is_a_;
      step_ += len;
      rec_.recorded(len);
      left -= len;
    }
    return launches;
  }

  void drop_graphs() {
    for (auto& by_parity : graphs_)
      for (auto& g : by_parity) g = StepGraph();
    for (auto& by_parity : multi_graphs_)
      for (auto& g : by_parity) g = StepGraph();
    graph_note_.clear();
    graph_kernels_per_step_ = -1.0;
    graph_warm_ = false;
  }

  // The sampled signals' window holds steps n .. n + len - 1.
  void cover_samples(long long n, int len) { windows_.cover(n, len, stream_.get()); }

  // The recorded samples to the host (synchronises the stream).
  void drain_receivers() { rec_.drain(stream_.get()); }

  Stencil stencil_;
  double courant_, dt_;
  FieldLayout layout_;
  CudaStream stream_;
  CudaEvent start_, stop_;
  DeviceBuffer<T> fields_;  // u in [0, total) (a) and [total, 2 total) (b), unless lent
  T* a_ = nullptr;          // the two levels: in fields_, or lent (LentFields)
  T* b_ = nullptr;
  bool cur_is_a_ = true;
  long long step_ = 0;
  const KernelVariant* variant_ = nullptr;
  LaunchOptions options_;
  DeviceBoundary<T> boundary_;
  bool has_boundary_ = false;
  BoundaryPlan plan_host_;                      // for the tiled step of multi-step kernels
  // The narrowest class of multi-step kernels that runs the plan (KernelVariant::MultiWalls).
  KernelVariant::MultiWalls plan_walls_ = KernelVariant::MultiWalls::WholeFaces;
  std::unique_ptr<DeviceTiledStep<T>> tiled_;   // built at the first multi-step advance
  DeviceBuffer<T> scratch_;                     // the multi-step kernel's extra fields, if it asks for any
  std::vector<DeviceSource> sources_host_;
  DeviceBuffer<DeviceSource> sources_;
  DeviceSampleWindows windows_;  // the sampled signals' device window
  DeviceReceivers<T> rec_;
  DeviceBuffer<double> stats_{2};
  PinnedBuffer<double> queued_stats_{2 * kQueuedStats};  // queue_field_stats() results
  long long async_steps_ = 0;                            // queued by advance_async() since the last finish
  SolverMetrics metrics_;
  bool graph_on_ = kStepGraphDefault;
  bool last_advance_graph_ = false;
  DeviceBuffer<StepCounter> counter_{1};
  std::array<std::array<StepGraph, kGraphLevels>, 2> graphs_;
  std::array<std::array<StepGraph, kMultiGraphLevels>, 2> multi_graphs_;  // multi-step launches per parity and level
  std::string graph_note_;
  double graph_kernels_per_step_ = -1.0;
  double host_launches_per_step_ = 0.0;
  long long batch_launches_ = 0, batch_steps_ = 0;
  bool graph_warm_ = false;  // a step of the current configuration has run on the stream
  // solids_unsettled(): the per-step path's steps still needed. Only those steps count it
  // down: a kernel switched to later takes them even if other paths zeroed the solids since.
  int solid_settle_steps_ = 0;
};

}  // namespace

std::string default_kernel_for(const Stencil& st, Precision p) {
  const auto v = KernelRegistry::instance().supporting(st, p);
  return v.empty() ? std::string() : v.front()->id;
}

std::unique_ptr<CudaWaveSolver> make_cuda_solver(Precision p, const Stencil& st, int nx, int ny, int nz,
                                                 double courant, double dt_s, const std::string& kernel_id,
                                                 const LentFields* fields) {
  if (p == Precision::Float) return std::make_unique<CudaSolver<float>>(st, nx, ny, nz, courant, dt_s, kernel_id, fields);
  return std::make_unique<CudaSolver<double>>(st, nx, ny, nz, courant, dt_s, kernel_id, fields);
}

}  // namespace ws
