// The CPU backend of the sediment model: the reference, run in the model's
// precision (double for the reference results; float to match the GPU's float).
#include <chrono>
#include <stdexcept>

#include "sediment/sediment_cpu.hpp"
#include "sediment/sediment_solver.hpp"

namespace ws {

SedimentMetrics sediment_metrics(double sec, long long steps, long long cells, Precision p) {
  SedimentMetrics m;
  m.last_advance_s = sec;
  m.last_steps = steps;
  if (sec <= 0 || steps <= 0) return m;
  m.steps_per_s = steps / sec;
  m.gpoints_per_s = m.steps_per_s * (double)cells * 1e-9;
  m.gflops_paper = m.gpoints_per_s * (kPaperFlopsH + kPaperFlopsS);
  m.gflops_counted = m.gpoints_per_s * (kCountedFlopsH + kCountedFlopsS);
  m.bytes_per_point = 2.0 * sediment_kernel_bytes_per_point(p);
  m.achieved_gbs = m.gpoints_per_s * m.bytes_per_point;
  return m;
}

namespace {

template <class T>
class CpuSedimentSolver final : public SedimentSolver {
 public:
  explicit CpuSedimentSolver(const SedimentProblem& pb) : k_(pb.coeffs<T>()), dx_(pb.dx_m), dy_(pb.dy_m) {
    const SedimentLayout& from = pb.state.layout;
    L_ = make_sediment_layout(from.nx, from.ny, sizeof(T));
    alpha_ = relayout<T>(pb.state.alpha, from, L_);
    beta_ = relayout<T>(pb.state.beta, from, L_);
    for (int b = 0; b < 2; ++b) {
      h_[b].assign(L_.total, T(0));
      s_[b].assign(L_.total, T(0));
    }
    q_.assign(pb.state.q_m2_s.begin(), pb.state.q_m2_s.end());
    bd_.q_m2_s = q_.data();
    for (int q = 0; q < 4; ++q) bd_.s_in[q] = T(pb.state.s_in[q]);
    bd_.dx_m = T(pb.dx_m);
    bd_.dy_m = T(pb.dy_m);
    write_state(pb.state.h, pb.state.s, 0);
  }

  std::string backend() const override { return "cpu"; }
  Precision precision() const override { return precision_of<T>(); }
  const SedimentLayout& layout() const override { return L_; }
  long long step() const override { return step_; }

  void advance(int steps) override {
    if (steps <= 0) return;
    const auto t0 = std::chrono::steady_clock::now();
    for (int n = 0; n < steps; ++n) {
      T *h = h_[cur_].data(), *s = s_[cur_].data(), *h1 = h_[1 - cur_].data(), *s1 = s_[1 - cur_].data();
      cpu_fill_ghosts(h, s, alpha_.data(), beta_.data(), L_, k_, bd_, true);
      SedimentArgs<T> a{alpha_.data(), beta_.data(), s, h, h1, s1, L_, k_};
      cpu_h_update(a);
      cpu_fill_ghosts(h1, s, alpha_.data(), beta_.data(), L_, k_, bd_, false);
      cpu_s_update(a);
      cur_ = 1 - cur_;
      ++step_;
    }
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    metrics_ = sediment_metrics(sec, steps, L_.interior_points(), precision());
  }

  void read_state(std::vector<double>& h, std::vector<double>& s) override {
    const SedimentLayout D = make_sediment_layout(L_.nx, L_.ny, sizeof(double));
    h.assign(D.total, 0.0);
    s.assign(D.total, 0.0);
    for (int j = -1; j <= L_.ny; ++j)
      for (int i = -1; i <= L_.nx; ++i) {
        h[D.index(i, j)] = (double)h_[cur_][L_.index(i, j)];
        s[D.index(i, j)] = (double)s_[cur_][L_.index(i, j)];
      }
  }

  void write_state(const std::vector<double>& h, const std::vector<double>& s, long long step) override {
    const SedimentLayout D = make_sediment_layout(L_.nx, L_.ny, sizeof(double));
    if ((int64_t)h.size() != D.total || (int64_t)s.size() != D.total)
      throw std::invalid_argument("write_state: h and s must have the double layout's " + std::to_string(D.total) +
                                  " elements");
    h_[cur_] = relayout<T>(h, D, L_);
    s_[cur_] = relayout<T>(s, D, L_);
    step_ = step;
  }

  SedimentFieldView view_h() const override { return view(h_[cur_].data()); }
  SedimentFieldView view_s() const override { return view(s_[cur_].data()); }
  SedimentMetrics metrics() const override { return metrics_; }
  size_t memory_bytes() const override { return 6 * L_.bytes(sizeof(T)); }

 private:
  SedimentFieldView view(const T* p) const {
    return {p, precision(), L_.nx, L_.ny, L_.pitch, L_.index(0, 0), false, dx_, dy_};
  }

  SedimentCoeffs<T> k_;
  double dx_, dy_;
  SedimentLayout L_;
  std::vector<T> alpha_, beta_, h_[2], s_[2], q_;
  BoundaryData<T> bd_;
  int cur_ = 0;
  long long step_ = 0;
  SedimentMetrics metrics_;
};

}  // namespace

std::unique_ptr<SedimentSolver> make_cpu_sediment_solver(const SedimentProblem& pb, Precision p) {
  if (p == Precision::Float) return std::make_unique<CpuSedimentSolver<float>>(pb);
  return std::make_unique<CpuSedimentSolver<double>>(pb);
}

}  // namespace ws
