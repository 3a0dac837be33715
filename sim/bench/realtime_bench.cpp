#include "bench/realtime_bench.hpp"

#include <algorithm>
#include <cmath>
#include <chrono>
#include <iomanip>
#include <set>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "bench/median.hpp"
#include "bench/text_table.hpp"
#include "core/cuda_check.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/z_waves.hpp"
#include "wave/wave_model.hpp"

namespace ws::bench {

namespace {

bool on_slabs(const DecompOptions& d) { return !d.devices.empty() || d.slabs_per_process > 1; }

// Waits for every device of the slabs (the host clock then holds their work).
void sync_devices(const std::vector<int>& devices) {
  int current = 0;
  CUDA_CHECK(cudaGetDevice(&current));
  for (int d : std::set<int>(devices.begin(), devices.end())) {
    CUDA_CHECK(cudaSetDevice(d));
    CUDA_CHECK(cudaDeviceSynchronize());
  }
  CUDA_CHECK(cudaSetDevice(current));
}

// The GUI's frame loop (app/gui/frame_step.cpp): each frame waits for the steps the
// frame before queued, captures the field they left for the views (on the solver's
// stream), queues its own steps and draws while they run; a frame's picture is the
// field one frame behind, as on the GUI's screen. Slabs queue their steps the same way
// when every slab is on a GPU (decomposed_solver.hpp's QueuedSlabs).
// Without `overlap` each frame's steps are waited for before its picture is drawn.
void run_frames(WaveModel& m, int frames, int per_frame, const RealtimeConfig& cfg, bool display) {
  if (!cfg.overlap) {
    for (int f = 0; f < frames; ++f) {
      m.advance(per_frame);
      if (display) {
        cfg.capture_frame(m);
        cfg.draw_frame();
      }
    }
    if (display && cfg.finish_display) cfg.finish_display();
    return;
  }
  for (int f = 0; f < frames; ++f) {
    m.finish_advance();
    if (display) cfg.capture_frame(m);
    m.advance_async(per_frame);
    if (display) cfg.draw_frame();
  }
  m.finish_advance();
  if (display && cfg.finish_display) cfg.finish_display();
}

// On slabs: the same frames timed by the host clock, every device finished at the end.
double time_frames_on_slabs(WaveModel& m, int frames, int per_frame, const RealtimeConfig& cfg, bool display) {
  sync_devices(cfg.decomp.devices);
  const auto t0 = std::chrono::steady_clock::now();
  run_frames(m, frames, per_frame, cfg, display);
  sync_devices(cfg.decomp.devices);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// One repetition: `frames` frames of `per_frame` steps, drawn when asked; seconds
// between CUDA events on the solver's stream (the last frame's steps are waited for
// and its picture is on screen before the second event, so this is the loop's wall
// time as the GPU saw it).
double time_frames(WaveModel& m, int frames, int per_frame, const RealtimeConfig& cfg, bool display) {
  if (!m.cuda()) return time_frames_on_slabs(m, frames, per_frame, cfg, display);
  CudaEvent a, b;
  cudaStream_t s = m.cuda()->stream();
  a.record(s);
  run_frames(m, frames, per_frame, cfg, display);
  b.record(s);
  CUDA_CHECK(cudaEventSynchronize(b.get()));
  return b.ms_since(a) * 1e-3;
}

// The same kernel, block and graph mode on the same grid with fixed walls, no sources
// or receivers: the scheme's own throughput (median of reps, one warm-up).
double kernel_only_gpoints(const WaveModel& m, bool graph, long long steps, int reps) {
  const CudaWaveSolver& src = *const_cast<WaveModel&>(m).cuda();
  const DerivedGrid& g = m.grid();
  auto bare = make_cuda_solver(src.precision(), g.stencil, g.nx, g.ny, g.nz, g.courant, g.dt_s, src.kernel().id);
  bare->set_kernel(src.kernel().id, src.launch_options());
  bare->set_step_graph(graph);
  std::vector<double> sec;
  for (int r = 0; r <= reps; ++r) {
    double t = 0.0;
    for (long long left = steps; left > 0;) {
      const int n = (int)std::min<long long>(left, 1 << 20);
      bare->advance(n);
      t += bare->metrics().last_advance_s;
      left -= n;
    }
    if (r > 0) sec.push_back(t);  // the first is the warm-up (graph capture, caches)
  }
  const double s = median(sec);
  return s > 0 ? (double)steps * (double)g.points() / s * 1e-9 : 0.0;
}

// The bare grid on the same slabs, GPUs and kernel (fixed walls, no sources or
// receivers), timed like kernel_only_gpoints.
double kernel_only_on_slabs(const WaveModel& m, const DecompOptions& decomp, const std::string& kernel, bool graph,
                            long long steps, int reps) {
  const DerivedGrid& g = m.grid();
  DecompOptions d = decomp;
  d.kernel_id = kernel;
  d.step_graph = graph;
  auto bare = make_decomposed_solver(d, m.solver().precision(), g.stencil, g.nx, g.ny, g.nz, g.courant, g.dt_s);
  std::vector<double> sec;
  for (int r = 0; r <= reps; ++r) {
    sync_devices(d.devices);
    const auto t0 = std::chrono::steady_clock::now();
    for (long long left = steps; left > 0;) {
      const int n = (int)std::min<long long>(left, 1 << 20);
      bare->advance(n);
      left -= n;
    }
    sync_devices(d.devices);
    if (r > 0) sec.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  const double s = median(sec);
  return s > 0 ? (double)steps * (double)g.points() / s * 1e-9 : 0.0;
}

std::string fixed(double v, int digits) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << v;
  return os.str();
}

std::string block_text(const BlockShape& b, bool uses_z) {
  std::string s = std::to_string(b.x) + "x" + std::to_string(b.y);
  if (uses_z) s += "x" + std::to_string(b.z);
  return s;
}

// The display with no steps between frames: `frames` captures and draws of the same
// field, until the last is on screen, by the host clock (median of three; one warm-up).
// What a frame's picture costs by itself, beside what it costs among the steps.
double time_display_alone(WaveModel& m, int frames, const RealtimeConfig& cfg) {
  m.finish_advance();
  std::vector<double> per_frame;
  for (int r = 0; r <= 3; ++r) {
    if (m.cuda()) m.cuda()->synchronize();
    const auto t0 = std::chrono::steady_clock::now();
    for (int f = 0; f < frames; ++f) {
      cfg.capture_frame(m);
      cfg.draw_frame();
    }
    if (cfg.finish_display) cfg.finish_display();
    if (m.cuda()) m.cuda()->synchronize();
    if (r > 0) per_frame.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / frames);
  }
  return median(per_frame);
}

// The GUI's automatic mode (gui/frame_step.cpp) sizes a frame to take its simulation
// budget at the measured steps/s. The same here, from the display-off frame loop in the
// first graph mode asked: a warm-up and three timed rounds of 30 frames of `start` steps,
// then one round at the first estimate, so that a room far faster or slower than real
// time is timed at about the frame length it will get.
int budget_steps_per_frame(WaveModel& m, int start, const RealtimeConfig& cfg, std::ostream& log) {
  if (m.cuda()) m.cuda()->set_step_graph(cfg.graph_modes.front());
  if (DecompProbe* p = on_slabs(cfg.decomp) ? decomp_probe(m.solver()) : nullptr)
    p->set_step_graph(cfg.graph_modes.front());
  const auto fit = [&](int per_frame) {
    std::vector<double> rate;
    for (int r = 0; r <= 3; ++r) {
      const double t = time_frames(m, 30, per_frame, cfg, false);
      if (r > 0 && t > 0) rate.push_back(30.0 * per_frame / t);
    }
    const double steps_per_s = median(rate);
    return std::clamp((int)std::lround(steps_per_s * cfg.frame_budget_ms * 1e-3), 1, 1 << 20);
  };
  const int first = fit(start);
  const int per_frame = fit(first);
  log << "frame budget " << cfg.frame_budget_ms << " ms: " << per_frame << " steps per frame\n";
  return per_frame;
}

std::string short_number(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

}  // namespace

void validate_realtime_config(const RealtimeConfig& c) {
  if (c.reps < 1) throw std::invalid_argument("reps " + std::to_string(c.reps) + " is not allowed: at least 1");
  if (c.steps < 0) throw std::invalid_argument("steps " + std::to_string(c.steps) + " is not allowed: at least 1");
  if (c.steps_per_frame < 0)
    throw std::invalid_argument("steps per frame " + std::to_string(c.steps_per_frame) +
                                " is not allowed: at least 1 (0: the sample rate / 60)");
  if (!(c.frame_budget_ms >= 0.0) || c.frame_budget_ms > 10000.0)
    throw std::invalid_argument("frame budget " + short_number(c.frame_budget_ms) +
                                " ms is not allowed: more than 0 and at most 10000 ms (0: fixed steps per frame)");
  if (c.frame_budget_ms > 0.0 && c.steps_per_frame > 0)
    throw std::invalid_argument("steps per frame " + std::to_string(c.steps_per_frame) + " and a frame budget of " +
                                short_number(c.frame_budget_ms) + " ms are not allowed together: give one");
  if (c.graph_modes.empty() || c.display_modes.empty())
    throw std::invalid_argument("nothing to measure: give at least one graph mode and one display mode");
  for (bool d : c.display_modes)
    if (d && (!c.capture_frame || !c.draw_frame))
      throw std::invalid_argument("display on needs a frame capture and a frame drawer");
}

RealtimeResult run_realtime_bench(const RealtimeConfig& cfg, std::ostream& log) {
  validate_realtime_config(cfg);
  RealtimeResult res;
  res.device = device_name();
  res.scene_label = cfg.scene_label;
  res.display_note = cfg.display_note;
  res.overlap = cfg.overlap;
  log << "measuring the copy bandwidth ...\n";
  res.copy_gbs = measure_copy_bandwidth_gbs();
  res.l2_gbs = measure_l2_bandwidth_gbs();
  const bool slabs = on_slabs(cfg.decomp);
  WaveModel m(cfg.scene, BackendChoice::Cuda, cfg.kernel, cfg.decomp);
  if (!slabs && !m.cuda()) throw std::runtime_error("the scene did not get the CUDA backend: " + m.backend_note());
  const DerivedGrid& g = m.grid();
  CudaWaveSolver* cuda = m.cuda();  // null on slabs
  const Precision precision = m.solver().precision();
  if (slabs) {
    // The kernel and edge split WaveModel gave the slabs ("auto": timed on the room's slabs).
    res.kernel_id = slab_kernel(g.stencil, precision, m.decomposition().kernel_id);
    res.decomposition = m.backend_note();
    res.gpus = (int)std::set<int>(cfg.decomp.devices.begin(), cfg.decomp.devices.end()).size();
    res.slabs = decomp_probe(m.solver())->slab_count();
  } else {
    if (cfg.block.x > 0 || cfg.z_waves > 0) {
      LaunchOptions o = cuda->launch_options();
      if (cfg.block.x > 0) o.block = cfg.block;
      if (cfg.z_waves > 0) o.z_waves = cfg.z_waves;
      m.set_kernel(cuda->kernel().id, o);
    }
    res.kernel_id = cuda->kernel().id;
    res.block = cuda->launch_options().block;
    res.z_waves = cuda->launch_options().z_waves;
    res.block_uses_z = cuda->kernel().block_uses_z;
  }
  res.auto_note = m.kernel_choice_note();
  res.precision = to_string(precision);
  res.stencil = g.stencil.name;
  res.nx = g.nx;
  res.ny = g.ny;
  res.nz = g.nz;
  res.dt_s = g.dt_s;
  res.rate_hz = 1.0 / g.dt_s;
  res.boundary_nodes = (long long)m.boundary().node.size();
  res.solid_nodes = (long long)m.boundary().solid.size();
  res.sources = (int)m.scene().sources.size();
  res.receivers = (int)m.scene().receivers.size();
  res.bytes_per_point = scheme_bytes_per_point(precision);
  // On slabs the roofline is that of all their GPUs (the copy bandwidth is one GPU's).
  const double roof = roofline_gpoints(res.copy_gbs, res.bytes_per_point) * std::max(1, res.gpus);

  // The GUI's real-time frame: a 60 Hz display showing rate/60 steps per frame (or the
  // steps asked for, as the GUI's automatic mode takes more when the room runs faster).
  int per_frame =
      cfg.steps_per_frame > 0 ? cfg.steps_per_frame : std::max(1, (int)std::lround(res.rate_hz / 60.0));
  res.frame_budget_ms = cfg.frame_budget_ms;
  if (cfg.frame_budget_ms > 0.0) per_frame = budget_steps_per_frame(m, per_frame, cfg, log);
  const long long want = cfg.steps > 0 ? cfg.steps : 30LL * per_frame;
  const int frames = (int)std::max<long long>(1, (want + per_frame - 1) / per_frame);
  const long long steps = (long long)frames * per_frame;
  log << "scene '" << cfg.scene_label << "': " << g.nx << "x" << g.ny << "x" << g.nz << " at " << res.rate_hz
      << " Hz, kernel " << res.kernel_id << " "
      << (slabs ? "on " + res.decomposition : block_text(res.block, res.block_uses_z) + z_waves_text(res.z_waves))
      << (res.auto_note.empty() ? "" : " (" + res.auto_note + ")") << ", " << frames << " frames of " << per_frame
      << " steps per repetition\n";

  DecompProbe* probe = slabs ? decomp_probe(m.solver()) : nullptr;
  for (bool graph : cfg.graph_modes) {
    if (cfg.stopped()) break;
    if (cuda) cuda->set_step_graph(graph);
    if (probe) probe->set_step_graph(graph);
    log << "kernel only, graph " << (graph ? "on" : "off") << " ...\n";
    const double bare = slabs ? kernel_only_on_slabs(m, m.decomposition(), res.kernel_id, graph, steps, cfg.reps)
                              : kernel_only_gpoints(m, graph, steps, cfg.reps);
    for (bool display : cfg.display_modes) {
      if (cfg.stopped()) break;
      log << "end to end, graph " << (graph ? "on" : "off") << ", display " << (display ? "on" : "off") << " ...\n";
      std::vector<double> sec;
      for (int r = 0; r <= cfg.reps && !cfg.stopped(); ++r) {
        const double t = time_frames(m, frames, per_frame, cfg, display);
        if (r > 0) sec.push_back(t);  // the first repetition warms up (graph capture, GL, caches)
      }
      if (sec.empty()) break;
      RealtimeRow row;
      row.graph = graph;
      row.display = display;
      row.steps_per_frame = per_frame;
      row.steps = steps;
      row.seconds = median(sec);
      row.steps_per_s = steps / row.seconds;
      row.realtime_factor = row.steps_per_s * g.dt_s;
      row.frame_ms = row.seconds / frames * 1e3;
      row.gpoints_per_s = row.steps_per_s * (double)g.points() * 1e-9;
      row.kernel_only_gpoints_per_s = bare;
      row.roofline_fraction = roof > 0 ? row.gpoints_per_s / roof : 0.0;
      row.kernel_only_roofline_fraction = roof > 0 ? bare / roof : 0.0;
      row.end_to_end_over_kernel = bare > 0 ? row.gpoints_per_s / bare : 0.0;
      if (cuda) row.launches = cuda->step_launches();
      if (probe) {  // the slabs' own launches are not counted; whether their graph replayed is
        const DecompGraphUse use = decomp_graph_use(m.solver());
        row.launches.graph = use.replayed;
        row.launches.graph_note = use.note;
      }
      res.rows.push_back(row);
    }
  }
  if (cuda) cuda->set_step_graph(kStepGraphDefault);
  if (probe) probe->set_step_graph(m.decomposition().step_graph);
  if (std::find(cfg.display_modes.begin(), cfg.display_modes.end(), true) != cfg.display_modes.end() &&
      !cfg.stopped())
    res.display_alone_ms = time_display_alone(m, frames, cfg) * 1e3;
  return res;
}

void print_realtime_table(const RealtimeResult& r, std::ostream& out) {
  out << "Real time: scene '" << r.scene_label << "' on " << r.device << "\n";
  out << "  grid " << r.nx << "x" << r.ny << "x" << r.nz << " (" << fixed((double)r.nx * r.ny * r.nz * 1e-6, 2)
      << " M points), " << r.stencil << ", " << r.precision << ", " << fixed(r.rate_hz, 0) << " Hz; "
      << r.boundary_nodes << " boundary nodes, " << r.solid_nodes << " solid nodes, " << r.sources << " source(s), "
      << r.receivers << " receiver(s)\n";
  if (r.slabs > 0)
    out << "  decomposed: on " << r.gpus << " GPU(s), " << r.slabs << " slabs (" << r.decomposition
        << "); kernel-only: the same slabs and kernel, bare\n";
  out << "  kernel " << r.kernel_id << " "
      << (r.slabs > 0 ? std::string("on every slab") : block_text(r.block, r.block_uses_z) + z_waves_text(r.z_waves))
      << (r.auto_note.empty() ? "" : " (" + r.auto_note + ")") << "; copy bandwidth " << fixed(r.copy_gbs, 1)
      << " GB/s, L2 bandwidth " << fixed(r.l2_gbs, 1) << " GB/s, roofline " << fixed(roofline_gpoints(r.copy_gbs, r.bytes_per_point) * std::max(1, r.gpus), 1)
      << " Gpoints/s" << (r.gpus > 1 ? " (all " + std::to_string(r.gpus) + " GPUs)" : "") << " at "
      << fixed(r.bytes_per_point, 0) << " B/point\n";
  if (!r.display_note.empty()) out << "  display: " << r.display_note << "\n";
  if (r.display_alone_ms > 0)
    out << "  display alone (capture and draw, no steps between frames): " << fixed(r.display_alone_ms, 3)
        << " ms per frame\n";
  out << "  frame loop: "
      << (r.overlap ? "each frame's steps queued before it draws (the GUI's)" : "each frame drawn after its steps finished")
      << (r.frame_budget_ms > 0 ? "; steps per frame: the GUI's automatic mode, a frame budget of " +
                                      fixed(r.frame_budget_ms, 1) + " ms"
                                : std::string())
      << "\n";
  using A = TextTable::Align;
  TextTable t({{"graph", A::Left}, {"display", A::Left}, {"steps/frame", A::Right}, {"frame ms", A::Right},
               {"steps/s", A::Right}, {"RT factor", A::Right}, {"Gpts/s", A::Right}, {"roofline", A::Right},
               {"kernel-only", A::Right}, {"roofline", A::Right}, {"e2e/kernel", A::Right},
               {"kernels/step", A::Right}, {"launches/step", A::Right}});
  for (const auto& row : r.rows) {
    const StepLaunches& l = row.launches;
    t.add_row({row.graph ? "on" : "off", row.display ? "on" : "off", std::to_string(row.steps_per_frame),
               fixed(row.frame_ms, 2), fixed(row.steps_per_s, 0), fixed(row.realtime_factor, 3),
               fixed(row.gpoints_per_s, 1), fixed(100 * row.roofline_fraction, 1) + "%",
               fixed(row.kernel_only_gpoints_per_s, 1), fixed(100 * row.kernel_only_roofline_fraction, 1) + "%",
               fixed(100 * row.end_to_end_over_kernel, 1) + "%",
               r.slabs > 0 ? std::string("-")
                           : std::to_string(l.kernels()) + " (" + std::to_string(l.interior) + "+" +
                                 std::to_string(l.boundary) + "+" + std::to_string(l.io) + ")",
               r.slabs > 0 ? std::string("-") : fixed(l.host_launches_per_step, 3)});
  }
  std::ostringstream table;
  t.print(table);
  std::istringstream lines(table.str());
  for (std::string line; std::getline(lines, line);) out << "  " << line << "\n";
  out << "  kernels/step: interior + boundary-node + source/receiver kernels; launches/step: host launches"
         " (graph replays and counter updates with the graph on)" << (r.slabs > 0 ? "; not counted on slabs" : "")
      << "\n";
  for (const auto& row : r.rows)
    if (!row.launches.graph_note.empty()) {
      out << "  note: " << row.launches.graph_note << "\n";
      break;
    }
}

std::vector<BenchRecord> realtime_records(const RealtimeResult& r) {
  std::vector<BenchRecord> out;
  for (const auto& row : r.rows) {
    BenchRecord b;
    b.benchmark = "realtime";
    b.variant = r.kernel_id;
    b.precision = r.precision;
    b.nx = r.nx;
    b.ny = r.ny;
    b.nz = r.nz;
    b.steps = row.steps;
    b.seconds = row.seconds;
    b.gpoints_per_s = row.gpoints_per_s;
    b.bytes_per_point = r.bytes_per_point;
    b.copy_gbs = r.copy_gbs;
    b.roofline_fraction = row.roofline_fraction;
    b.device = r.device;
    const StepLaunches& l = row.launches;
    b.extra = {{"scene", r.scene_label},
               {"l2_gbs", r.l2_gbs},
               {"stencil", r.stencil},
               {"block", {r.block.x, r.block.y, r.block.z}},
               {"z_waves", r.z_waves},
               {"auto", r.auto_note},
               {"rate_hz", r.rate_hz},
               {"graph", row.graph},
               {"display", row.display},
               {"display_note", r.display_note},
               {"overlap", r.overlap},
               {"display_alone_ms", r.display_alone_ms},
               {"steps_per_frame", row.steps_per_frame},
               {"frame_budget_ms", r.frame_budget_ms},
               {"frame_ms", row.frame_ms},
               {"steps_per_s", row.steps_per_s},
               {"realtime_factor", row.realtime_factor},
               {"kernel_only_gpoints_per_s", row.kernel_only_gpoints_per_s},
               {"kernel_only_roofline_fraction", row.kernel_only_roofline_fraction},
               {"end_to_end_over_kernel", row.end_to_end_over_kernel},
               {"boundary_nodes", r.boundary_nodes},
               {"solid_nodes", r.solid_nodes},
               {"sources", r.sources},
               {"receivers", r.receivers},
               {"kernels_per_step", l.kernels()},
               {"interior_kernels_per_step", l.interior},
               {"boundary_kernels_per_step", l.boundary},
               {"io_kernels_per_step", l.io},
               {"graph_kernels_per_step", l.graph_kernels_per_step},
               {"host_launches_per_step", l.host_launches_per_step},
               {"graph_note", l.graph_note},
               {"gpus", r.gpus},
               {"slabs", r.slabs},
               {"decomposition", r.decomposition}};
    out.push_back(b);
  }
  return out;
}

}  // namespace ws::bench
