// The CTPN sweep (see stencil_bench.hpp). Kernels are called through their
// registry entries on two device arrays that are allocated once per precision
// and grid (for the largest halo, so every stencil's layout fits) and zeroed:
// the values do not matter for timing, and zeros never produce denormals.
#include "bench/stencil_bench.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>

#include "atomic_file.hpp"
#include "core/cuda_check.hpp"
#include "core/field_layout.hpp"
#include "cuda/multi_scratch.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/kernel_registry.hpp"
#include "stencil/families.hpp"
#include "wave/wave_solver.hpp"

namespace ws::bench {

namespace {

constexpr int kMaxHalo = 8;  // leggy:8; the compact and box families stop at radius 4

StencilFamily parse_family(const std::string& f) {
  if (f == "leggy") return StencilFamily::Leggy;
  if (f == "compact") return StencilFamily::Compact;
  if (f == "box") return StencilFamily::Box;
  if (f == "named27") return StencilFamily::Named27;
  throw std::invalid_argument("stencil family '" + f + "' is not known; allowed: leggy, compact, box, named27");
}

std::string fmt(double v, int prec = 3) {
  std::ostringstream os;
  os.precision(prec);
  os << std::fixed << v;
  return os.str();
}

// Seconds per step of one kernel on one stencil, median over `reps` timed runs of `steps` steps.
template <class T>
double seconds_per_step(const KernelVariant& v, const BlockShape& block, const Stencil& st, const GridDims& d, T* a,
                        T* b, size_t capacity, int steps, int reps, cudaStream_t stream) {
  const FieldLayout L = make_layout(d.nx, d.ny, d.nz, halo_for(st), sizeof(T));
  if ((size_t)L.total > capacity) throw std::logic_error("bench grid does not fit its buffers");
  const LaunchFn<T> fn = v.launch_for<T>();
  const LaunchOptions o{block, true};
  const double lambda2 = std::pow(0.9 * st.courant_max, 2);
  T* cur = a;
  T* next = b;
  const MultiLaunchFn<T> multi = v.multi_for<T>();
  // A kernel that runs several steps per launch is timed on runs it can block: at least 8
  // steps, a multiple of 4 (temporal_2step runs pairs of two-step passes).
  if (multi) steps = std::max(8, (steps + 3) / 4 * 4);
  DeviceBuffer<T> scratch_fields;
  T* scratch = multi ? ensure_multi_scratch(scratch_fields, v, L, stream) : nullptr;
  auto body = [&](cudaStream_t s) {
    if (multi) {  // a kernel that runs many steps per launch: all of them in one
      multi(MultiStepArgs<T>{cur, next, steps, L, &st, lambda2, nullptr, scratch}, o, s);
      if (steps % 2) std::swap(cur, next);
      return;
    }
    for (int n = 0; n < steps; ++n) {
      fn(StepArgs<T>{next, cur, L, &st, lambda2}, o, s);
      std::swap(cur, next);
    }
  };
  const TimingStats t = time_on_stream(body, stream, 1, reps);
  // Undo what the kernel set up device-wide (L2 lines left persisting would shrink the
  // L2 of every kernel timed after it).
  if (v.release) {
    CUDA_CHECK(cudaStreamSynchronize(stream));
    v.release();
  }
  return t.median_s / steps;
}

struct BenchStencil {
  std::string family;
  Stencil stencil;
};

template <class T>
void sweep_precision(const StencilBenchOptions& opt, const std::vector<BenchStencil>& stencils, size_t free_bytes,
                     StencilBenchResult& res) {
  const Precision prec = precision_of<T>();
  const double bpp = scheme_bytes_per_point(prec);
  const double roof_gpoints = roofline_gpoints(res.copy_gbs, bpp);
  std::map<std::string, std::string> best_kernel;  // stencil -> kernel chosen on the first grid
  CudaStream stream;
  for (size_t si = 0; si < opt.sizes.size() && !opt.stopped(); ++si) {
    const std::string& size = opt.sizes[si];
    const GridDims d = stencil_bench_grid(size, prec, free_bytes, opt.max_gpoints, opt.quick);
    const size_t capacity = (size_t)make_layout(d.nx, d.ny, d.nz, kMaxHalo, sizeof(T)).total;
    DeviceBuffer<T> a(capacity), b(capacity);
    // On the timing stream, which is non-blocking: not ordered after the legacy stream.
    CUDA_CHECK(cudaMemsetAsync(a.get(), 0, a.bytes(), stream.get()));
    CUDA_CHECK(cudaMemsetAsync(b.get(), 0, b.bytes(), stream.get()));
    const double points = (double)d.nx * d.ny * d.nz;
    if (opt.log)
      opt.log(std::string(to_string(prec)) + " " + size + " grid " + std::to_string(d.nx) + "x" + std::to_string(d.ny) +
              "x" + std::to_string(d.nz) + " (" + fmt(points * 1e-6, 1) + " Mpoints)");
    for (const auto& bs : stencils) {
      if (opt.stopped()) break;
      const Stencil& st = bs.stencil;
      std::vector<const KernelVariant*> cands;
      if (si == 0 || opt.all_kernels || !best_kernel.count(st.name)) {
        cands = KernelRegistry::instance().supporting(st, prec);
        if (!opt.kernels.empty())
          cands.erase(std::remove_if(cands.begin(), cands.end(),
                                     [&](const KernelVariant* v) {
                                       return std::find(opt.kernels.begin(), opt.kernels.end(), v->id) ==
                                              opt.kernels.end();
                                     }),
                      cands.end());
      } else if (const auto* v = KernelRegistry::instance().find(best_kernel[st.name])) {
        cands = {v};
      }
      if (cands.empty()) {
        res.notes.push_back("no kernel runs " + st.name + " in " + to_string(prec));
        continue;
      }
      std::vector<StencilBenchRow> rows;
      for (const KernelVariant* v : cands) {
        if (opt.stopped()) break;
        try {
          BlockShape block = preferred_block(*v, st, prec);
          if (opt.block_x > 0) block = BlockShape{opt.block_x, opt.block_y, v->block_uses_z ? opt.block_z : 1};
          // A block the kernel refuses is its note, not a launch error that would end the sweep.
          if (v->block_error)
            if (const std::string why = v->block_error(st, prec, block); !why.empty()) throw std::invalid_argument(why);
          const double sps =
              seconds_per_step<T>(*v, block, st, d, a.get(), b.get(), capacity, opt.steps, opt.reps, stream.get());
          StencilBenchRow r;
          r.family = bs.family;
          r.stencil = st.name;
          r.kernel = v->id;
          r.precision = to_string(prec);
          r.size = size;
          r.points = st.size();
          r.radius = st.radius;
          r.nx = d.nx, r.ny = d.ny, r.nz = d.nz;
          r.steps = opt.steps;
          r.seconds_per_step = sps;
          r.ctpn_ns = sps / points * 1e9;
          r.gpoints_per_s = points / sps * 1e-9;
          r.roofline_fraction = r.gpoints_per_s / roof_gpoints;
          rows.push_back(r);
        } catch (const CudaError&) {
          throw;  // the context may be unusable: stop the sweep with the error
        } catch (const std::exception& e) {
          res.notes.push_back("kernel " + v->id + " on " + st.name + " (" + to_string(prec) + ", " + size +
                              ") skipped: " + e.what());
        }
      }
      if (rows.empty()) continue;
      auto best = std::min_element(rows.begin(), rows.end(), [](const auto& x, const auto& y) {
        return x.ctpn_ns < y.ctpn_ns;
      });
      best->best = true;
      if (si == 0) best_kernel[st.name] = best->kernel;
      if (opt.log)
        opt.log("  " + st.name + " (" + std::to_string(st.size()) + " pts): " + best->kernel + " " +
                fmt(best->ctpn_ns, 4) + " ns/node, " + fmt(best->gpoints_per_s, 2) + " Gpts/s, " +
                fmt(100 * best->roofline_fraction, 1) + "% of roofline");
      for (auto& r : rows) res.rows.push_back(r);
    }
  }
}

const StencilBenchRow* find_best(const StencilBenchResult& r, const std::string& prec, const std::string& size,
                                 const std::function<bool(const StencilBenchRow&)>& pred) {
  for (const auto& row : r.rows)
    if (row.best && row.precision == prec && row.size == size && pred(row)) return &row;
  return nullptr;
}

// The issue's targets, evaluated from the measured rows (float).
void evaluate_targets(const StencilBenchOptions& opt, StencilBenchResult& r) {
  for (const auto& size : opt.sizes) {
    for (const auto& target : {std::make_pair(std::string("leggy:4"), 0.80), std::make_pair(std::string("leggy:8"), 0.70)}) {
      const std::string& name = target.first;
      const double goal = target.second;
      const auto* row = find_best(r, "float", size, [&](const StencilBenchRow& x) { return x.stencil == name; });
      if (!row) continue;
      r.targets.push_back(std::string(row->roofline_fraction >= goal ? "MET   " : "MISSED") + " float " + size + ": " +
                          name + " best (" + row->kernel + ") at " + fmt(100 * row->roofline_fraction, 1) +
                          "% of the copy roofline, target >= " + fmt(100 * goal, 0) + "%");
    }
    const auto* seven = find_best(r, "float", size, [](const StencilBenchRow& x) { return x.stencil == "leggy:1"; });
    const auto* box = find_best(r, "float", size, [](const StencilBenchRow& x) { return x.family == "box" && x.points == 125; });
    if (seven && box) {
      const double ratio = box->ctpn_ns / seven->ctpn_ns;
      r.targets.push_back(std::string(ratio <= 2.5 ? "MET   " : "MISSED") + " float " + size + ": CTPN(" + box->stencil +
                          ", 125 points, " + box->kernel + ") / CTPN(7-point, " + seven->kernel + ") = " +
                          fmt(ratio, 2) + ", target <= 2.5");
    }
  }
}

}  // namespace

std::vector<std::string> bench_stencil_names(const std::string& family, int count) {
  return family_member_names(parse_family(family), count);
}

GridDims stencil_bench_grid(const std::string& size, Precision p, size_t free_bytes, double max_gpoints, bool quick) {
  if (size != "medium" && size != "large")
    throw std::invalid_argument("grid size '" + size + "' is not known; allowed: medium, large");
  const bool large = size == "large";
  if (quick) return large ? GridDims{320, 256, 224} : GridDims{256, 192, 160};
  // Points for the large grid: two arrays of (padded) elements in half the free memory.
  const double elem = bytes_of(p);
  double pts = std::min(max_gpoints * 1e9, 0.5 * (double)free_bytes / (2.0 * elem) * 0.85);  // 0.85: halo + padding
  if (!large) pts *= 0.46;  // the paper's medium / large ratio
  // A box like the paper's (x a bit longer than y, y than z), x a multiple of 32.
  const double n = std::cbrt(pts / (1.2 * 1.0 * 0.85));
  GridDims d;
  d.nx = std::max(32, (int)(1.2 * n) / 32 * 32);
  d.ny = std::max(16, (int)n);
  d.nz = std::max(16, (int)(pts / ((double)d.nx * d.ny)));
  for (;;) {  // shrink until the two arrays with the largest halo fit in half the free memory
    const double bytes = 2.0 * elem * (double)make_layout(d.nx, d.ny, d.nz, kMaxHalo, (int)elem).total;
    if (bytes <= 0.5 * (double)free_bytes || d.nz <= 16) break;
    d.nz = d.nz * 9 / 10;
  }
  return d;
}

StencilBenchResult run_stencil_bench(const StencilBenchOptions& opt) {
  if (opt.steps < 1 || opt.reps < 1) throw std::invalid_argument("steps and repetitions must be >= 1");
  StencilBenchResult res;
  res.device = device_name();
  std::vector<BenchStencil> stencils;
  for (const auto& name : opt.stencils) {
    try {
      Stencil st = make_stencil(name);
      const char* fam = st.family == StencilFamily::Leggy ? "leggy"
                        : st.family == StencilFamily::Compact ? "compact"
                        : st.family == StencilFamily::Box ? "box"
                                                          : "named27";
      stencils.push_back({fam, std::move(st)});
    } catch (const std::exception& e) {
      res.notes.push_back("stencil " + name + " skipped: " + e.what());
    }
  }
  for (const auto& fam : opt.stencils.empty() ? opt.families : std::vector<std::string>{}) {
    for (const auto& name : bench_stencil_names(fam, opt.per_family)) {
      try {
        stencils.push_back({fam, make_stencil(name)});
      } catch (const std::exception& e) {
        res.notes.push_back("stencil " + name + " skipped: " + e.what());
      }
    }
  }
  if (opt.log) opt.log("measuring the device-to-device copy bandwidth (the roofline)");
  res.copy_gbs = measure_copy_bandwidth_gbs();
  res.l2_gbs = measure_l2_bandwidth_gbs();
  if (opt.log)
    opt.log("copy bandwidth " + fmt(res.copy_gbs, 1) + " GB/s, L2 bandwidth " + fmt(res.l2_gbs, 1) + " GB/s on " +
            res.device);
  size_t free_b = 0, total_b = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_b, &total_b));
  for (Precision p : opt.precisions) {
    if (opt.stopped()) break;
    if (p == Precision::Float) sweep_precision<float>(opt, stencils, free_b, res);
    else sweep_precision<double>(opt, stencils, free_b, res);
  }
  evaluate_targets(opt, res);
  return res;
}

namespace {

// A CSV field (RFC 4180): quoted when it holds a comma or a quote (the box and compact
// stencils' names do: "box:2,2,2"), its quotes doubled.
std::string csv_field(const std::string& v) {
  if (v.find_first_of(",\"\n") == std::string::npos) return v;
  std::string q = "\"";
  for (char ch : v) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return q + "\"";
}

}  // namespace

void write_stencil_bench_csv(const std::string& path, const StencilBenchResult& r) {
  util::write_atomically(path, "CSV file", [&](std::ostream& out) {
    out << "family,stencil,points,radius,precision,size,nx,ny,nz,kernel,best,steps,seconds_per_step,ctpn_ns,"
           "gpoints_per_s,roofline_fraction,copy_gbs,device\n";
    out.precision(6);
    for (const auto& x : r.rows)
      out << csv_field(x.family) << "," << csv_field(x.stencil) << "," << x.points << "," << x.radius << "," << x.precision
          << "," << x.size << "," << x.nx << "," << x.ny << "," << x.nz << "," << csv_field(x.kernel) << ","
          << (x.best ? 1 : 0) << "," << x.steps
          << "," << x.seconds_per_step << "," << x.ctpn_ns << "," << x.gpoints_per_s << "," << x.roofline_fraction
          << "," << r.copy_gbs << "," << csv_field(r.device) << "\n";
  });
}

void write_stencil_bench_json(const std::string& path, const StencilBenchResult& r) {
  std::vector<BenchRecord> recs;
  for (const auto& x : r.rows) {
    BenchRecord b;
    b.benchmark = "stencils";
    b.variant = x.kernel;
    b.precision = x.precision;
    b.nx = x.nx, b.ny = x.ny, b.nz = x.nz;
    b.steps = x.steps;
    b.seconds = x.seconds_per_step * x.steps;
    b.gpoints_per_s = x.gpoints_per_s;
    b.bytes_per_point = scheme_bytes_per_point(parse_precision(x.precision));
    b.copy_gbs = r.copy_gbs;
    b.roofline_fraction = x.roofline_fraction;
    b.device = r.device;
    b.extra = {{"family", x.family}, {"stencil", x.stencil}, {"points", x.points},   {"radius", x.radius},
               {"size", x.size},     {"ctpn_ns", x.ctpn_ns}, {"best", x.best},       {"seconds_per_step", x.seconds_per_step}};
    recs.push_back(b);
  }
  write_json_records(path, recs);
}

}  // namespace ws::bench
