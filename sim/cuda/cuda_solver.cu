#include <algorithm>
#include <stdexcept>

#include "boundary/boundary_kernels.hpp"
#include "core/cuda_check.hpp"
#include "cuda/cuda_solver.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/device_info.hpp"
#include "cuda/field_stats.hpp"

namespace ws {

namespace {

struct DeviceSource {
  int64_t index;
  SourceSignal signal;
  double gain;
  Injection injection;
};

struct DeviceTap {
  int64_t index;
  double weight;
};

// Sources add gain * injection to u^{n+1}; then receivers record the weighted sum
// of u^{n+1} over their taps (taps of receiver q: tap_start[q] .. tap_start[q+1]).
// One small block; atomics keep two sources (or two taps of a spread source) on one node correct.
template <class T>
__global__ void io_kernel(T* un, const DeviceSource* src, int nsrc, const DeviceTap* taps, const int* tap_start,
                          int nrec, T* rec_buf, long long slot, long long step, double dt) {
  for (int q = threadIdx.x; q < nsrc; q += blockDim.x)
    atomicAdd(un + src[q].index, T(src[q].gain * injection_value(src[q].signal, src[q].injection, step, dt)));
  __syncthreads();
  for (int q = threadIdx.x; q < nrec; q += blockDim.x) {
    double v = 0.0;
    for (int t = tap_start[q]; t < tap_start[q + 1]; ++t) v += taps[t].weight * (double)un[taps[t].index];
    rec_buf[slot * nrec + q] = T(v);
  }
}

template <class T>
class CudaSolver final : public CudaWaveSolver {
 public:
  static constexpr int kChunk = 4096;  // receiver samples buffered on the device between host copies

  CudaSolver(const Stencil& st, int nx, int ny, int nz, double courant, double dt, const std::string& kernel_id)
      : stencil_(st), courant_(courant), dt_(dt) {
    layout_ = make_layout(nx, ny, nz, halo_for(st), sizeof(T));
    check_grid_fits(nx, ny, nz, (size_t)layout_.total, sizeof(T));
    a_ = DeviceBuffer<T>(layout_.total);
    b_ = DeviceBuffer<T>(layout_.total);
    reset();
    const std::string id = kernel_id.empty() ? default_kernel_for(st, precision_of<T>()) : kernel_id;
    if (id.empty()) throw std::invalid_argument("no CUDA kernel supports stencil '" + st.name + "'");
    set_kernel(id, LaunchOptions{preferred_block(KernelRegistry::instance().at(id), st, precision_of<T>()), true});
  }

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

  void set_kernel(const std::string& id, const LaunchOptions& o) override {
    const KernelVariant& v = KernelRegistry::instance().at(id);
    if (!v.has_precision(precision()))
      throw std::invalid_argument("kernel '" + id + "' has no " + to_string(precision()) + " version");
    if (!v.supports(stencil_))
      throw std::invalid_argument("kernel '" + id + "' does not run stencil '" + stencil_.name + "'; it runs " +
                                  v.stencils);
    if (o.block.x < 1 || o.block.y < 1 || o.block.z < 1 || o.block.threads() > 1024)
      throw std::invalid_argument("block " + std::to_string(o.block.x) + "x" + std::to_string(o.block.y) + "x" +
                                  std::to_string(o.block.z) + " is not allowed: each side >= 1, at most 1024 threads");
    if (v.block_error) {  // refused here, not at the next launch: the running kernel stays
      const std::string why = v.block_error(stencil_, precision(), o.block);
      if (!why.empty()) throw std::invalid_argument("kernel '" + id + "': " + why);
    }
    variant_ = &v;
    options_ = o;
  }

  void advance(int steps) override {
    if (steps <= 0) return;
    LaunchFn<T> fn = launch_fn();
    start_.record(stream_.get());
    for (int s = 0; s < steps; ++s) {
      StepArgs<T> args{prev(), cur(), layout_, &stencil_, courant_ * courant_};
      if (has_boundary_) boundary_.compute(cur(), prev(), stream_.get());
      fn(args, options_, stream_.get());
      if (has_boundary_) boundary_.scatter(prev(), stream_.get());
      if (!sources_host_.empty() || nrec_ > 0) {
        io_kernel<T><<<1, 128, 0, stream_.get()>>>(prev(), sources_.get(), (int)sources_host_.size(),
                                                   receivers_.get(), tap_start_.get(), nrec_, rec_buf_.get(), slot_,
                                                   step_, dt_);
        CUDA_CHECK_LAUNCH();
      }
      cur_is_a_ = !cur_is_a_;
      ++step_;
      if (nrec_ > 0 && ++slot_ == kChunk) drain_receivers();
    }
    stop_.record(stream_.get());
    drain_receivers();  // synchronises the stream once per advance()
    const double sec = stop_.ms_since(start_) * 1e-3;
    metrics_ = throughput_metrics(steps, sec, layout_.interior_points(), precision());
  }

  void reset() override {
    CUDA_CHECK(cudaMemsetAsync(a_.get(), 0, a_.bytes(), stream_.get()));
    CUDA_CHECK(cudaMemsetAsync(b_.get(), 0, b_.bytes(), stream_.get()));
    CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    cur_is_a_ = true;
    step_ = 0;
    slot_ = 0;
    for (auto& r : pending_) r.clear();
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
  }

  void set_boundary(const BoundaryPlan& p) override {
    boundary_ = DeviceBoundary<T>(p, layout_);
    has_boundary_ = !p.empty();
  }

  void set_sources(const std::vector<SourceNode>& s) override {
    sources_host_.clear();
    for (const auto& n : s)
      sources_host_.push_back({layout_.index(n.node.i, n.node.j, n.node.k), n.signal, n.gain, n.injection});
    sources_ = DeviceBuffer<DeviceSource>(sources_host_.size());
    if (!sources_host_.empty())
      copy_to_device(sources_.get(), sources_host_.data(), sources_.bytes());
  }

  void set_receiver_taps(const std::vector<ReceiverTaps>& r) override {
    drain_receivers();
    receivers_host_.clear();
    std::vector<int> start{0};
    for (const auto& taps : r) {
      for (const auto& t : taps) receivers_host_.push_back({layout_.index(t.node.i, t.node.j, t.node.k), t.weight});
      start.push_back((int)receivers_host_.size());
    }
    nrec_ = (int)r.size();
    receivers_ = DeviceBuffer<DeviceTap>(receivers_host_.size());
    if (!receivers_host_.empty())
      copy_to_device(receivers_.get(), receivers_host_.data(), receivers_.bytes());
    tap_start_ = DeviceBuffer<int>(start.size());
    copy_to_device(tap_start_.get(), start.data(), tap_start_.bytes());
    rec_buf_ = DeviceBuffer<T>((size_t)kChunk * r.size());
    rec_host_ = PinnedBuffer<T>((size_t)kChunk * r.size());
    pending_.assign(r.size(), {});
    slot_ = 0;
  }

  std::vector<std::vector<double>> take_receiver_samples() override {
    auto out = std::move(pending_);
    pending_.assign(nrec_, {});
    return out;
  }

  FieldStats field_stats() override { return device_field_stats(cur(), layout_, stats_.get(), stream_.get()); }

  SolverMetrics metrics() const override { return metrics_; }
  FieldView current_field() const override { return {cur_is_a_ ? a_.get() : b_.get(), precision(), layout_, true}; }
  size_t memory_bytes() const override { return a_.bytes() + b_.bytes() + rec_buf_.bytes(); }

 private:
  T* cur() { return cur_is_a_ ? a_.get() : b_.get(); }
  T* prev() { return cur_is_a_ ? b_.get() : a_.get(); }

  LaunchFn<T> launch_fn() const {
    if constexpr (std::is_same_v<T, float>) return variant_->launch_float;
    else return variant_->launch_double;
  }

  // Copies the recorded slots to the host (one stream synchronisation) and appends them.
  void drain_receivers() {
    const int nrec = nrec_;
    if (nrec == 0 || slot_ == 0) {
      CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
      return;
    }
    CUDA_CHECK(cudaMemcpyAsync(rec_host_.get(), rec_buf_.get(), sizeof(T) * slot_ * nrec, cudaMemcpyDeviceToHost,
                               stream_.get()));
    CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    for (long long s = 0; s < slot_; ++s)
      for (int r = 0; r < nrec; ++r) pending_[r].push_back((double)rec_host_.get()[s * nrec + r]);
    slot_ = 0;
  }

  Stencil stencil_;
  double courant_, dt_;
  FieldLayout layout_;
  CudaStream stream_;
  CudaEvent start_, stop_;
  DeviceBuffer<T> a_, b_;
  bool cur_is_a_ = true;
  long long step_ = 0;
  const KernelVariant* variant_ = nullptr;
  LaunchOptions options_;
  DeviceBoundary<T> boundary_;
  bool has_boundary_ = false;
  std::vector<DeviceSource> sources_host_;
  DeviceBuffer<DeviceSource> sources_;
  std::vector<DeviceTap> receivers_host_;
  DeviceBuffer<DeviceTap> receivers_;
  DeviceBuffer<int> tap_start_;
  int nrec_ = 0;
  DeviceBuffer<double> stats_{2};
  DeviceBuffer<T> rec_buf_;
  PinnedBuffer<T> rec_host_;
  long long slot_ = 0;
  std::vector<std::vector<double>> pending_;
  SolverMetrics metrics_;
};

}  // namespace

std::string default_kernel_for(const Stencil& st, Precision p) {
  const auto v = KernelRegistry::instance().supporting(st, p);
  return v.empty() ? std::string() : v.front()->id;
}

std::unique_ptr<CudaWaveSolver> make_cuda_solver(Precision p, const Stencil& st, int nx, int ny, int nz,
                                                 double courant, double dt_s, const std::string& kernel_id) {
  if (p == Precision::Float) return std::make_unique<CudaSolver<float>>(st, nx, ny, nz, courant, dt_s, kernel_id);
  return std::make_unique<CudaSolver<double>>(st, nx, ny, nz, courant, dt_s, kernel_id);
}

}  // namespace ws
