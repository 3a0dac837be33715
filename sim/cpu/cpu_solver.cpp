#include "cpu/cpu_solver.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace ws {

namespace {

// Below this many points a step takes microseconds and a parallel region's fork and
// barrier would cost more than they save (and stall badly when the cores are shared).
constexpr long long kParallelPoints = 32768;

template <class T>
class CpuSolver final : public WaveSolver {
 public:
  CpuSolver(const Stencil& st, int nx, int ny, int nz, double courant, double dt)
      : stencil_(st), courant_(courant), dt_(dt) {
    layout_ = make_layout(nx, ny, nz, halo_for(st), sizeof(T));
    a_.assign(layout_.total, T(0));
    b_.assign(layout_.total, T(0));
    const double l2 = courant * courant;
    // Coefficients lambda^2 w_p and linear offsets of the points p != 0. The centre weight is
    // not used: the update sums w_p (u(x+p) - u(x)), which is the Laplacian because the
    // weights sum to zero, and is exactly 0 for a constant field.
    for (const auto& p : st.points) {
      const int64_t off = (int64_t)p.dz * layout_.plane + (int64_t)p.dy * layout_.pitch + p.dx;
      if (p.dx == 0 && p.dy == 0 && p.dz == 0) continue;
      offsets_.push_back(off);
      coeffs_.push_back(T(l2 * p.w));
    }
  }

  std::string backend() const override { return "cpu"; }
  Precision precision() const override { return precision_of<T>(); }
  const FieldLayout& layout() const override { return layout_; }
  const Stencil& stencil() const override { return stencil_; }
  double courant() const override { return courant_; }
  double dt_s() const override { return dt_; }
  long long step() const override { return step_; }

  void advance(int steps) override {
    const auto t0 = std::chrono::steady_clock::now();
    for (int s = 0; s < steps; ++s) one_step();
    const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    metrics_ = throughput_metrics(steps, sec, layout_.interior_points(), precision());
  }

  void reset() override {
    std::fill(a_.begin(), a_.end(), T(0));
    std::fill(b_.begin(), b_.end(), T(0));
    cur_is_a_ = true;
    step_ = 0;
    for (auto& r : pending_) r.clear();
  }

  void read_state(std::vector<double>& uc, std::vector<double>& up) override {
    const auto& c = cur();
    const auto& p = prev();
    uc.assign(c.begin(), c.end());
    up.assign(p.begin(), p.end());
  }

  void write_state(const std::vector<double>& uc, const std::vector<double>& up, long long step) override {
    if ((int64_t)uc.size() != layout_.total || (int64_t)up.size() != layout_.total)
      throw std::invalid_argument("write_state: arrays must have layout().total elements");
    auto& c = cur();
    auto& p = prev();
    for (int64_t q = 0; q < layout_.total; ++q) { c[q] = T(uc[q]); p[q] = T(up[q]); }
    step_ = step;
  }

  void set_boundary(const BoundaryPlan& p) override {
    boundary_ = p;
    side_.assign(p.size(), T(0));
  }
  void set_sources(const std::vector<SourceNode>& s) override {
    sources_ = s;
    windows_.clear();
    source_track_.clear();
    for (const auto& n : s)
      source_track_.push_back(n.samples ? windows_.track(n.samples, sampled_start_step(n.signal, dt_)) : -1);
    window_.assign((size_t)windows_.tracks() * SampleWindows::stride(), 0.0f);
    window_valid_ = false;
  }
  void set_receiver_taps(const std::vector<ReceiverTaps>& r) override {
    receivers_ = r;
    pending_.assign(r.size(), {});
  }
  std::vector<std::vector<double>> take_receiver_samples() override {
    auto out = std::move(pending_);
    pending_.assign(receivers_.size(), {});
    return out;
  }
  FieldStats field_stats() override {
    const FieldLayout L = layout_;
    const T* u = cur().data();
    double sum = 0.0, peak = 0.0;
    bool finite = true;
#pragma omp parallel for schedule(static) reduction(+ : sum) reduction(max : peak) reduction(&& : finite) \
    if (L.interior_points() >= kParallelPoints)
    for (int k = 0; k < L.nz; ++k)
      for (int j = 0; j < L.ny; ++j) {
        const T* row = u + L.index(0, j, k);
        for (int i = 0; i < L.nx; ++i) {
          const double v = (double)row[i];
          if (!std::isfinite(v)) finite = false;
          sum += v;
          peak = std::max(peak, std::fabs(v));
        }
      }
    FieldStats f;
    f.finite = finite;
    f.mean = sum / (double)L.interior_points();
    f.peak = finite ? peak : std::numeric_limits<double>::infinity();
    return f;
  }

  SolverMetrics metrics() const override { return metrics_; }
  FieldView current_field() const override {
    return {cur_is_a_ ? a_.data() : b_.data(), precision(), layout_, false};
  }
  size_t memory_bytes() const override { return 2 * layout_.bytes(sizeof(T)); }

 private:
  std::vector<T>& cur() { return cur_is_a_ ? a_ : b_; }
  std::vector<T>& prev() { return cur_is_a_ ? b_ : a_; }

  void one_step() {
    const FieldLayout L = layout_;
    const T* uc = cur().data();
    T* un = prev().data();  // holds u^{n-1}; overwritten with u^{n+1}
    const int np = (int)offsets_.size();
    const int64_t* off = offsets_.data();
    const T* w = coeffs_.data();
    // Boundary nodes first: they need u^{n-1} before the interior loop overwrites it.
    if (!boundary_.empty()) boundary_compute_cpu(boundary_, L, uc, (const T*)un, side_.data());
#pragma omp parallel for schedule(static) if (L.interior_points() >= kParallelPoints)
    for (int k = 0; k < L.nz; ++k)
      for (int j = 0; j < L.ny; ++j) {
        const int64_t row = L.index(0, j, k);
        for (int i = 0; i < L.nx; ++i) {
          const int64_t q = row + i;
          // Each difference is exactly 0 for a constant field, so s is 0 and
          // (u + u) - u_prev returns the constant bit for bit (Sterbenz).
          const T u = uc[q];
          T s = T(0);
          for (int p = 0; p < np; ++p) s += w[p] * (uc[q + off[p]] - u);
          un[q] = ((u + u) - un[q]) + s;
        }
      }
    if (!boundary_.empty()) boundary_scatter_cpu(boundary_, side_.data(), un);
    if (!windows_.empty() && (!window_valid_ || !SampleWindows::covers(window_first_, step_))) {
      window_first_ = step_;
      windows_.fill(window_first_, window_.data());
      window_valid_ = true;
    }
    for (size_t q = 0; q < sources_.size(); ++q) {
      const SourceNode& src = sources_[q];
      const int t = source_track_[q];
      const double v = t < 0 ? injection_value(src.signal, src.injection, step_, dt_)
                             : src.signal.amplitude *
                                   sampled_injection(window_.data() + (size_t)t * SampleWindows::stride() + 1 +
                                                         (step_ - window_first_),
                                                     src.injection);
      un[L.index(src.node.i, src.node.j, src.node.k)] += T(src.gain * v);
    }
    for (size_t r = 0; r < receivers_.size(); ++r) {
      double v = 0.0;
      for (const auto& t : receivers_[r]) v += t.weight * (double)un[L.index(t.node.i, t.node.j, t.node.k)];
      pending_[r].push_back(v);
    }
    cur_is_a_ = !cur_is_a_;
    ++step_;
  }

  Stencil stencil_;
  double courant_, dt_;
  FieldLayout layout_;
  std::vector<T> a_, b_;
  bool cur_is_a_ = true;
  long long step_ = 0;
  std::vector<int64_t> offsets_;
  std::vector<T> coeffs_;
  BoundaryPlan boundary_;
  std::vector<T> side_;
  std::vector<SourceNode> sources_;
  std::vector<int> source_track_;  // per source: its track in windows_, -1 for an analytic signal
  SampleWindows windows_;
  std::vector<float> window_;      // every track's samples around steps window_first_ ..
  long long window_first_ = 0;
  bool window_valid_ = false;
  std::vector<ReceiverTaps> receivers_;
  std::vector<std::vector<double>> pending_;
  SolverMetrics metrics_;
};

}  // namespace

std::unique_ptr<WaveSolver> make_cpu_solver(Precision p, const Stencil& st, int nx, int ny, int nz, double courant,
                                            double dt_s) {
  if (p == Precision::Float) return std::make_unique<CpuSolver<float>>(st, nx, ny, nz, courant, dt_s);
  return std::make_unique<CpuSolver<double>>(st, nx, ny, nz, courant, dt_s);
}

}  // namespace ws
