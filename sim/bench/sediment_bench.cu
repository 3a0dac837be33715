#include "bench/sediment_bench.hpp"

#include <algorithm>
#include <stdexcept>

#include "core/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "sediment/sediment_kernels.hpp"
#include "sediment/sediment_setup.hpp"
#include "sediment/sediment_view.hpp"

namespace ws::bench {

const std::vector<PaperFigure>& paper_figures() {
  // Su et al. 2013, Table 2 (K20) and Table 3 (GTX 590), GFLOPs with 55 / 34 flops per point, double, 4096^2.
  static const std::vector<PaperFigure> f = {
      {"h-baseline", "32x4", 88.43, 76.46}, {"h-opt1", "32x4", 178.69, 81.36}, {"h-opt2", "32x4", 182.36, 76.98},
      {"h-opt3", "34x6", 190.45, 87.97},    {"s-baseline", "32x4", 67.99, 72.23}, {"s-opt1", "32x4", 122.78, 75.11},
      {"s-opt2", "32x4", 112.84, 56.49},    {"s-opt3", "34x6", 110.55, 60.39}};
  return f;
}

const PaperFigure* paper_figure(const std::string& id) {
  for (const auto& p : paper_figures())
    if (id == p.id) return &p;
  return nullptr;
}

namespace {

// A realistic state, so that the upwind branches of the s-kernel diverge as in
// a real run: a river mouth on the west side feeding a sloping basin.
SedimentScene bench_scene(int n) {
  SedimentScene sc;
  sc.name = "bench river mouth";
  sc.nx = sc.ny = n;
  sc.dx_m = sc.dy_m = 100.0;
  sc.alpha.type = "river_mouth";
  sc.alpha.background_m2_s = 0.2;
  sc.alpha.peak_m2_s = 2.0;
  sc.alpha.side = BasinSide::West;
  sc.alpha.centre_m = 0.5 * n * sc.dy_m;
  sc.alpha.width_m = 0.1 * n * sc.dy_m;
  sc.alpha.decay_m = 0.3 * n * sc.dx_m;
  sc.beta.value_m2_s = 0.5;
  sc.initial_h.type = "bump";
  sc.initial_h.base_m = 0.0;
  sc.initial_h.height_m = 5.0;
  sc.initial_h.centre_m = {0.4 * n * sc.dx_m, 0.6 * n * sc.dy_m};
  sc.initial_h.radius_m = 0.2 * n * sc.dx_m;
  sc.initial_s = 0.4;
  sc.boundary[(int)BasinSide::West].flux_m2_s = 1e-3;
  sc.boundary[(int)BasinSide::West].sand_fraction = 0.9;
  return sc;
}

// The paper's GFLOPs as a fraction of the K20's tested copy bandwidth, with the
// same byte count as ours (double, 40 B per kernel and point; the paper's
// s-kernel also reads four arrays and writes one): the figure to set beside
// our roofline fraction, since GFLOP/s across 11 years of GPUs says little.
double paper_k20_roofline_fraction(double gflops, int flops_per_point, int kernels) {
  return gflops / flops_per_point * (kernels * 5.0 * 8.0) / kPaperK20TestedBandwidthGbs;
}

std::string block_text(BlockShape b) { return std::to_string(b.x) + "x" + std::to_string(b.y); }

template <class T>
std::vector<BenchRecord> run_typed(const SedimentBenchOptions& o) {
  const SedimentScene sc = bench_scene(o.size);
  const SedimentInitialState st = build_initial_state(sc);
  const SedimentGrid grid = derive_sediment_grid(sc, st);
  const SedimentLayout L = make_sediment_layout(o.size, o.size, sizeof(T));
  const auto k = make_sediment_coeffs<T>(sc.compaction_sand, sc.compaction_mud, sc.top_layer_m, sc.dx_m, sc.dy_m,
                                         grid.dt_s);
  auto upload = [&](const std::vector<double>& v) {
    const std::vector<T> t = relayout<T>(v, st.layout, L);
    DeviceBuffer<T> d(t.size());
    copy_to_device(d.get(), t.data(), d.bytes());
    return d;
  };
  DeviceBuffer<T> alpha = upload(st.alpha), beta = upload(st.beta), h0 = upload(st.h), s0 = upload(st.s);
  DeviceBuffer<T> h1 = upload(st.h), s1 = upload(st.s);
  const std::vector<T> qh(st.q_m2_s.begin(), st.q_m2_s.end());
  DeviceBuffer<T> q(qh.size());
  copy_to_device(q.get(), qh.data(), q.bytes());
  T s_in[4];
  for (int i = 0; i < 4; ++i) s_in[i] = T(st.s_in[i]);

  const auto& reg = SedimentKernelRegistry::instance();
  auto fn = [](const SedimentKernel& kk) {
    if constexpr (std::is_same_v<T, float>) return kk.launch_float;
    else return kk.launch_double;
  };
  CUDA_CHECK(cudaDeviceSynchronize());  // uploads ran on the legacy stream; ours is non-blocking
  CudaStream stream;
  const SedimentArgs<T> args{alpha.get(), beta.get(), s0.get(), h0.get(), h1.get(), s1.get(), L, k};
  // h^{l+1} with its ghosts, so the s-kernels read a real state.
  launch_sediment_ghosts<T>(h0.get(), s0.get(), alpha.get(), beta.get(), L, k, q.get(), s_in, sc.dx_m, sc.dy_m, true,
                            stream.get());
  fn(reg.at("h-opt1"))(args, reg.at("h-opt1").default_block, stream.get());
  launch_sediment_ghosts<T>(h1.get(), s0.get(), alpha.get(), beta.get(), L, k, q.get(), s_in, sc.dx_m, sc.dy_m, false,
                            stream.get());
  CUDA_CHECK(cudaStreamSynchronize(stream.get()));

  const double copy_gbs = measure_copy_bandwidth_gbs();
  const std::string device = device_name();
  const double cells = (double)L.interior_points();
  const double bpp = sediment_kernel_bytes_per_point(precision_of<T>());

  std::vector<BenchRecord> out;
  auto record = [&](const std::string& id, const TimingStats& t, double bytes, int paper_flops, int counted_flops,
                    nlohmann::json extra) {
    BenchRecord r;
    r.benchmark = "sediment";
    r.variant = id;
    r.precision = to_string(precision_of<T>());
    r.nx = o.size;
    r.ny = o.size;
    r.nz = 1;
    r.steps = o.launches;
    r.seconds = t.median_s;
    const double per = t.median_s / o.launches;
    r.gpoints_per_s = cells / per * 1e-9;
    r.bytes_per_point = bytes;
    r.copy_gbs = copy_gbs;
    r.roofline_fraction = r.gpoints_per_s / roofline_gpoints(copy_gbs, bytes);
    r.device = device;
    extra["seconds_per_launch"] = per;
    extra["min_seconds_per_launch"] = t.min_s / o.launches;
    extra["max_seconds_per_launch"] = t.max_s / o.launches;
    extra["samples"] = t.samples;
    extra["flops_per_point_paper"] = paper_flops;
    extra["flops_per_point_counted"] = counted_flops;
    extra["gflops_paper_count"] = r.gpoints_per_s * paper_flops;
    extra["gflops_counted"] = r.gpoints_per_s * counted_flops;
    r.extra = extra;
    out.push_back(r);
  };

  for (const SedimentKernel& kk : reg.all()) {
    if (o.stopped()) return out;
    if (!o.kernels.empty() && std::find(o.kernels.begin(), o.kernels.end(), kk.id) == o.kernels.end()) continue;
    const SedimentLaunchFn<T> f = fn(kk);
    const BlockShape b = kk.default_block;
    const TimingStats t = time_on_stream(
        [&](cudaStream_t s) {
          for (int n = 0; n < o.launches; ++n) f(args, b, s);
        },
        stream.get(), o.warmup, o.reps);
    const bool is_h = kk.kind == SedimentKernelKind::H;
    nlohmann::json extra = {{"kernel", to_string(kk.kind)}, {"version", kk.version}, {"block", block_text(b)}};
    if (const PaperFigure* p = paper_figure(kk.id)) {
      extra["paper_k20_gflops"] = p->k20_gflops;
      extra["paper_gtx590_gflops"] = p->gtx590_gflops;
      extra["paper_block"] = p->block;
      extra["paper_k20_roofline_fraction"] =
          paper_k20_roofline_fraction(p->k20_gflops, is_h ? kPaperFlopsH : kPaperFlopsS, 1);
    }
    record(kk.id, t, bpp, is_h ? kPaperFlopsH : kPaperFlopsS, is_h ? kCountedFlopsH : kCountedFlopsS, extra);
  }

  if (o.kernels.empty() && !o.stopped()) {
    // One whole step with the paper's best pair: ghosts, h-opt3, ghosts, s-opt1.
    const SedimentKernel &hk = reg.at("h-opt3"), &sk = reg.at("s-opt1");
    const TimingStats t = time_on_stream(
        [&](cudaStream_t s) {
          for (int n = 0; n < o.launches; ++n) {
            launch_sediment_ghosts<T>(h0.get(), s0.get(), alpha.get(), beta.get(), L, k, q.get(), s_in, sc.dx_m,
                                      sc.dy_m, true, s);
            fn(hk)(args, hk.default_block, s);
            launch_sediment_ghosts<T>(h1.get(), s0.get(), alpha.get(), beta.get(), L, k, q.get(), s_in, sc.dx_m,
                                      sc.dy_m, false, s);
            fn(sk)(args, sk.default_block, s);
          }
        },
        stream.get(), o.warmup, o.reps);
    record("step:h-opt3+s-opt1", t, 2 * bpp, kPaperFlopsH + kPaperFlopsS, kCountedFlopsH + kCountedFlopsS,
           {{"kernel", "step"}, {"version", "OPT-3 h + OPT-1 s"}, {"block", "34x6 + 32x4"},
            {"paper_k20_gflops", kPaperK20BestStepGflops},
            {"paper_k20_roofline_fraction",
             paper_k20_roofline_fraction(kPaperK20BestStepGflops, kPaperFlopsH + kPaperFlopsS, 2)}});
  }
  return out;
}

}  // namespace

std::vector<BenchRecord> run_sediment_bench(const SedimentBenchOptions& o) {
  if (o.size < 3) throw std::invalid_argument("size = " + std::to_string(o.size) + " is not allowed: >= 3");
  if (o.launches < 1 || o.reps < 1 || o.warmup < 0)
    throw std::invalid_argument("launches and reps must be >= 1 and warmup >= 0");
  for (const auto& id : o.kernels) SedimentKernelRegistry::instance().at(id);  // unknown ids: invalid_argument
  return o.precision == Precision::Float ? run_typed<float>(o) : run_typed<double>(o);
}

}  // namespace ws::bench
