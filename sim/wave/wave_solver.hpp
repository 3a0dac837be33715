#pragma once
// The seam between a wave-equation backend (CPU reference, CUDA) and the rest.
// Both backends run the same two-grid, in-place, two-step scheme:
//   u^{n+1} = (2 u^n - u^{n-1}) + lambda^2 sum_{p != 0} w_p (u^n(x+p) - u^n(x))
// with u^{n+1} overwriting u^{n-1} (Webb eq. 2), then the two grids swap roles.
// The Laplacian is evaluated so that a constant field gives exactly 0 in floating
// point (docs/physics.md): the zero-frequency mode cannot drift or grow.
// After each update the sources add gain * injection_value(signal, n) at their
// nodes (gain * amplitude * sampled_injection for a sampled signal, read from a
// window of its stream: core/sample_stream.hpp), then the receivers record the
// weighted sum of u^{n+1} over their taps.
#include <memory>
#include <string>
#include <vector>

#include "boundary/boundary_plan.hpp"
#include "core/field_layout.hpp"
#include "core/precision.hpp"
#include "core/sample_stream.hpp"
#include "core/source_signal.hpp"
#include "scene/scene.hpp"
#include "stencil/stencil.hpp"

namespace ws {

struct SourceNode {
  GridIndex node;
  SourceSignal signal;
  double gain = 1.0;  // physical scale (rho c^2 T / X^3 for a volume velocity) times the tap weight
  Injection injection = Injection::Value;
  // The samples of a SignalKind::Sampled signal (signal.amplitude scales them, signal.delay_s
  // sets their first step); null for the analytic signals.
  std::shared_ptr<SampleStream> samples;
};

// One receiver reads sum_t weight_t u^{n+1}(node_t) over its taps.
using ReceiverTaps = std::vector<GridTap>;

// The field's mean and peak over the interior at the current step (the watchdog's input).
struct FieldStats {
  double mean = 0.0;
  double peak = 0.0;      // max |u|; NaN or inf when the field is not finite
  bool finite = true;
};

struct SolverMetrics {
  double steps_per_s = 0.0;
  double gpoints_per_s = 0.0;    // interior points updated per second / 1e9
  double bytes_per_point = 0.0;  // compulsory traffic: read u^n, read u^{n-1}, write u^{n+1}
  double achieved_gbs = 0.0;     // gpoints_per_s * bytes_per_point
  double last_advance_s = 0.0;   // wall (CPU) or CUDA-event (GPU) time of the last advance()
  long long last_steps = 0;
};

// The current time level as the renderer sees it: where it lives and how it is laid out.
struct FieldView {
  const void* data = nullptr;  // u^n (padded array)
  Precision precision = Precision::Float;
  FieldLayout layout;
  bool on_device = false;
};

class WaveSolver {
 public:
  virtual ~WaveSolver() = default;

  virtual std::string backend() const = 0;  // "cpu" or "cuda"
  virtual Precision precision() const = 0;
  virtual const FieldLayout& layout() const = 0;
  virtual const Stencil& stencil() const = 0;
  virtual double courant() const = 0;
  virtual double dt_s() const = 0;

  virtual void advance(int steps) = 0;
  virtual long long step() const = 0;
  virtual void reset() = 0;  // zero field, step 0, receivers cleared

  // The two time levels u^n and u^{n-1} as padded arrays converted to double.
  virtual void read_state(std::vector<double>& u_cur, std::vector<double>& u_prev) = 0;
  virtual void write_state(const std::vector<double>& u_cur, const std::vector<double>& u_prev, long long step) = 0;

  // Non-fixed walls and obstacles (7-point stencil only); an empty plan restores fixed walls.
  virtual void set_boundary(const BoundaryPlan& plan) = 0;
  virtual void set_sources(const std::vector<SourceNode>& sources) = 0;
  virtual void set_receiver_taps(const std::vector<ReceiverTaps>& receivers) = 0;
  // One node per receiver, weight 1.
  void set_receivers(const std::vector<GridIndex>& receivers) {
    std::vector<ReceiverTaps> t;
    for (const auto& g : receivers) t.push_back({GridTap{g, 1.0}});
    set_receiver_taps(t);
  }
  // Samples recorded since the last call, one vector per receiver, oldest first.
  virtual std::vector<std::vector<double>> take_receiver_samples() = 0;

  // Mean and max |u| of u^n over the interior (solid obstacle nodes count as 0).
  virtual FieldStats field_stats() = 0;

  virtual SolverMetrics metrics() const = 0;
  virtual FieldView current_field() const = 0;
  // u^n as the display reads it: only the three slices through interior point (i, j, k)
  // (plane k, row j and column i of every plane) need to hold u^n; the rest may be stale.
  // A solver whose field is one array returns current_field(); a decomposed one gathers
  // just those points (decomp/slice_gather.hpp).
  virtual FieldView slice_field(int i, int j, int k) const {
    (void)i, (void)j, (void)k;
    return current_field();
  }
  virtual size_t memory_bytes() const = 0;
};

// The view the display's slice textures are made from (render/slice_textures.hpp): where
// slice_field's data lives, on a device or on the host, which for a decomposed grid is not
// where current_field's is (its slices stay on the display's GPU, its whole field is
// gathered on the host).
inline FieldView display_field(const WaveSolver& s) {
  const FieldLayout& L = s.layout();
  return s.slice_field(L.nx / 2, L.ny / 2, L.nz / 2);
}

// Compulsory bytes per interior point and step for the two-grid scheme:
// read u^n once, read u^{n-1} once, write u^{n+1} once.
inline double scheme_bytes_per_point(Precision p) { return 3.0 * bytes_of(p); }

// Metrics of an advance of `steps` steps over `points` interior points that took `seconds`.
inline SolverMetrics throughput_metrics(long long steps, double seconds, long long points, Precision p) {
  SolverMetrics m;
  m.last_advance_s = seconds;
  m.last_steps = steps;
  if (seconds > 0 && steps > 0) {
    m.steps_per_s = steps / seconds;
    m.gpoints_per_s = m.steps_per_s * points * 1e-9;
    m.bytes_per_point = scheme_bytes_per_point(p);
    m.achieved_gbs = m.gpoints_per_s * m.bytes_per_point;
  }
  return m;
}

// The halo a stencil needs: its radius (at least 1: the fixed boundary layer).
inline int halo_for(const Stencil& s) { return s.radius < 1 ? 1 : s.radius; }

}  // namespace ws
