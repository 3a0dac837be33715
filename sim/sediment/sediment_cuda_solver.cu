// The CUDA backend of the sediment model: six device arrays (alpha, beta and
// two each of h and s), a stream of its own, the h- and s-kernels from the
// sediment registry (switchable between steps) and the ghost kernel.
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "core/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "sediment/sediment_solver.hpp"

namespace ws {

namespace {

template <class T>
class CudaSedSolver final : public CudaSedimentSolver {
 public:
  CudaSedSolver(const SedimentProblem& pb, const std::string& h_id, const std::string& s_id)
      : k_(pb.coeffs<T>()), dx_(pb.dx_m), dy_(pb.dy_m) {
    const SedimentLayout& from = pb.state.layout;
    L_ = make_sediment_layout(from.nx, from.ny, sizeof(T));
    check_fits();
    alpha_ = upload(relayout<T>(pb.state.alpha, from, L_));
    beta_ = upload(relayout<T>(pb.state.beta, from, L_));
    for (int b = 0; b < 2; ++b) {
      h_[b] = DeviceBuffer<T>(L_.total);
      s_[b] = DeviceBuffer<T>(L_.total);
      CUDA_CHECK(cudaMemset(h_[b].get(), 0, h_[b].bytes()));
      CUDA_CHECK(cudaMemset(s_[b].get(), 0, s_[b].bytes()));
    }
    // The memsets run on the legacy stream, which the solver's non-blocking stream does
    // not wait for: finish them before any step can read the fields.
    CUDA_CHECK(cudaStreamSynchronize(nullptr));
    q_ = upload(std::vector<T>(pb.state.q_m2_s.begin(), pb.state.q_m2_s.end()));
    for (int q = 0; q < 4; ++q) s_in_[q] = T(pb.state.s_in[q]);
    const auto& reg = SedimentKernelRegistry::instance();
    const std::string hid = h_id.empty() ? "h-opt3" : h_id, sid = s_id.empty() ? "s-opt1" : s_id;
    if (reg.at(hid).kind != SedimentKernelKind::H)
      throw std::invalid_argument("'" + hid + "' is not an h-kernel; allowed: h-baseline, h-opt1, h-opt2, h-opt3");
    if (reg.at(sid).kind != SedimentKernelKind::S)
      throw std::invalid_argument("'" + sid + "' is not an s-kernel; allowed: s-baseline, s-opt1, s-opt2, s-opt3");
    set_kernel(hid, reg.at(hid).default_block);
    set_kernel(sid, reg.at(sid).default_block);
    // The uploads and memsets above ran on the legacy stream, which our non-blocking stream does not wait for.
    CUDA_CHECK(cudaDeviceSynchronize());
    write_state(pb.state.h, pb.state.s, 0);
  }

  std::string backend() const override { return "cuda"; }
  Precision precision() const override { return precision_of<T>(); }
  const SedimentLayout& layout() const override { return L_; }
  long long step() const override { return step_; }
  cudaStream_t stream() const override { return stream_.get(); }
  void synchronize() override { CUDA_CHECK(cudaStreamSynchronize(stream_.get())); }
  const SedimentKernel& h_kernel() const override { return *hk_; }
  const SedimentKernel& s_kernel() const override { return *sk_; }
  BlockShape h_block() const override { return hb_; }
  BlockShape s_block() const override { return sb_; }

  void set_kernel(const std::string& id, BlockShape block) override {
    const SedimentKernel& k = SedimentKernelRegistry::instance().at(id);
    k.check_block(block);
    if (k.kind == SedimentKernelKind::H) {
      hk_ = &k;
      hb_ = block;
    } else {
      sk_ = &k;
      sb_ = block;
    }
  }

  void advance(int steps) override {
    if (steps <= 0) return;
    const SedimentLaunchFn<T> hf = fn(*hk_), sf = fn(*sk_);
    cudaStream_t st = stream_.get();
    start_.record(st);
    for (int n = 0; n < steps; ++n) {
      T *h = h_[cur_].get(), *s = s_[cur_].get(), *h1 = h_[1 - cur_].get(), *s1 = s_[1 - cur_].get();
      launch_sediment_ghosts<T>(h, s, alpha_.get(), beta_.get(), L_, k_, q_.get(), s_in_, dx_, dy_, true, st);
      const SedimentArgs<T> a{alpha_.get(), beta_.get(), s, h, h1, s1, L_, k_};
      hf(a, hb_, st);
      launch_sediment_ghosts<T>(h1, s, alpha_.get(), beta_.get(), L_, k_, q_.get(), s_in_, dx_, dy_, false, st);
      sf(a, sb_, st);
      cur_ = 1 - cur_;
      ++step_;
    }
    stop_.record(st);
    CUDA_CHECK(cudaEventSynchronize(stop_.get()));
    metrics_ = sediment_metrics(stop_.ms_since(start_) * 1e-3, steps, L_.interior_points(), precision());
  }

  void read_state(std::vector<double>& h, std::vector<double>& s) override {
    const SedimentLayout D = make_sediment_layout(L_.nx, L_.ny, sizeof(double));
    std::vector<T> th(L_.total), ts(L_.total);
    CUDA_CHECK(cudaMemcpyAsync(th.data(), h_[cur_].get(), L_.bytes(sizeof(T)), cudaMemcpyDeviceToHost, stream_.get()));
    CUDA_CHECK(cudaMemcpyAsync(ts.data(), s_[cur_].get(), L_.bytes(sizeof(T)), cudaMemcpyDeviceToHost, stream_.get()));
    CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    h.assign(D.total, 0.0);
    s.assign(D.total, 0.0);
    for (int j = -1; j <= L_.ny; ++j)
      for (int i = -1; i <= L_.nx; ++i) {
        h[D.index(i, j)] = (double)th[L_.index(i, j)];
        s[D.index(i, j)] = (double)ts[L_.index(i, j)];
      }
  }

  void write_state(const std::vector<double>& h, const std::vector<double>& s, long long step) override {
    const SedimentLayout D = make_sediment_layout(L_.nx, L_.ny, sizeof(double));
    if ((int64_t)h.size() != D.total || (int64_t)s.size() != D.total)
      throw std::invalid_argument("write_state: h and s must have the double layout's " + std::to_string(D.total) +
                                  " elements");
    const std::vector<T> th = relayout<T>(h, D, L_), ts = relayout<T>(s, D, L_);
    CUDA_CHECK(cudaMemcpyAsync(h_[cur_].get(), th.data(), L_.bytes(sizeof(T)), cudaMemcpyHostToDevice, stream_.get()));
    CUDA_CHECK(cudaMemcpyAsync(s_[cur_].get(), ts.data(), L_.bytes(sizeof(T)), cudaMemcpyHostToDevice, stream_.get()));
    CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    step_ = step;
  }

  SedimentFieldView view_h() const override { return view(h_[cur_].get()); }
  SedimentFieldView view_s() const override { return view(s_[cur_].get()); }
  SedimentMetrics metrics() const override { return metrics_; }
  size_t memory_bytes() const override { return 6 * L_.bytes(sizeof(T)) + q_.bytes(); }

 private:
  // Six padded arrays (alpha, beta, two h, two s) must fit into free device memory.
  void check_fits() const {
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) != cudaSuccess) return;  // the allocation itself will report
    const double need = 6.0 * (double)L_.bytes(sizeof(T));
    const double budget = 0.95 * (double)free_b - 64.0 * 1024 * 1024;
    if (need <= budget) return;
    const double scale = std::sqrt(budget / need);
    std::ostringstream os;
    os << "sediment grid " << L_.nx << "x" << L_.ny << " needs " << need / (1 << 30) << " GiB of GPU memory (six "
       << 8 * sizeof(T) << "-bit arrays) but only " << budget / (1 << 30) << " GiB are free; the largest grid of this "
       << "shape that fits is about " << (long long)(L_.nx * scale) << "x" << (long long)(L_.ny * scale)
       << " (use float or a smaller grid)";
    throw std::runtime_error(os.str());
  }

  static DeviceBuffer<T> upload(const std::vector<T>& v) {
    DeviceBuffer<T> d(v.size());
    if (!v.empty()) copy_to_device(d.get(), v.data(), d.bytes());
    return d;
  }
  static SedimentLaunchFn<T> fn(const SedimentKernel& k) {
    if constexpr (std::is_same_v<T, float>) return k.launch_float;
    else return k.launch_double;
  }
  SedimentFieldView view(const T* p) const {
    return {p, precision(), L_.nx, L_.ny, L_.pitch, L_.index(0, 0), true, dx_, dy_};
  }

  SedimentCoeffs<T> k_;
  double dx_, dy_;
  SedimentLayout L_;
  CudaStream stream_;
  CudaEvent start_, stop_;
  DeviceBuffer<T> alpha_, beta_, h_[2], s_[2], q_;
  T s_in_[4] = {0, 0, 0, 0};
  int cur_ = 0;
  long long step_ = 0;
  const SedimentKernel* hk_ = nullptr;
  const SedimentKernel* sk_ = nullptr;
  BlockShape hb_, sb_;
  SedimentMetrics metrics_;
};

}  // namespace

std::unique_ptr<CudaSedimentSolver> make_cuda_sediment_solver(const SedimentProblem& pb, Precision p,
                                                              const std::string& h_id, const std::string& s_id) {
  if (p == Precision::Float) return std::make_unique<CudaSedSolver<float>>(pb, h_id, s_id);
  return std::make_unique<CudaSedSolver<double>>(pb, h_id, s_id);
}

}  // namespace ws
