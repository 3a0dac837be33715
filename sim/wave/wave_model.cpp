#include "wave/wave_model.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <set>
#include <sstream>

#include "core/cuda_check.hpp"
#include "core/relayout.hpp"
#include "cpu/cpu_solver.hpp"
#include "cpu/host_memory.hpp"
#include "cuda/device_info.hpp"
#include "cuda/autotune.hpp"
#include "cuda/room_autotune.hpp"
#include "cuda/kernel_registry.hpp"
#include "decomp/decomposed_solver.hpp"
#include "decomp/slab_autotune.hpp"
#include "wave/scene_solids.hpp"
#include "wave/stencil_switch.hpp"

namespace ws {

WaveModel::WaveModel(const WaveScene& scene, BackendChoice backend, const std::string& kernel_id)
    : WaveModel(scene, backend, kernel_id, DecompOptions{}) {}

WaveModel::WaveModel(const WaveScene& scene, BackendChoice backend, const std::string& kernel_id,
                     const DecompOptions& decomp)
    : scene_(scene), grid_(derive_grid(scene)), choice_(backend), decomp_(decomp), decomp_in_use_(decomp) {
  solids_ = voxelise_scene(scene_, grid_);
  build_solver(scene.precision, kernel_id, nullptr);
  restart_watchdog();
}

namespace {

// The taps that lie in air, their weights rescaled to the original sum (a solid node
// is held at zero: what a source put there would be lost, and a receiver would read 0).
std::vector<GridTap> air_taps(const std::vector<GridTap>& taps, const SolidNodes& solids, const DerivedGrid& g) {
  if (solids.material.empty() || taps.size() < 2) return taps;
  std::vector<GridTap> air;
  double all = 0.0, kept = 0.0;
  for (const auto& t : taps) {
    all += t.weight;
    if (solids.solid(t.node.i, t.node.j, t.node.k, g.nx, g.ny)) continue;
    air.push_back(t);
    kept += t.weight;
  }
  if (air.empty() || kept <= 0.0) return taps;
  for (auto& t : air) t.weight *= all / kept;
  return air;
}

}  // namespace

double WaveModel::source_gain(size_t q) const {
  if (scene_.sources.at(q).quantity == SourceQuantity::Scheme) return 1.0;
  // u^{n+1} += T^2 rho c^2 q'(t_n) / X^3, with T q'(t_n) ~ q(t_n + T/2) - q(t_n - T/2).
  const double c = scene_.sound_speed_m_s, X = grid_.spacing_m;
  return scene_.air_density_kg_m3 * c * c * grid_.dt_s / (X * X * X);
}

void WaveModel::restart_watchdog() {
  quiet_step_ = 0;
  for (const auto& src : scene_.sources) {
    const double end_s = src.sampled.stream ? sampled_end_s(src.signal, *src.sampled.stream, grid_.dt_s)
                                            : signal_end_s(src.signal, grid_.dt_s);
    if (end_s < 0.0) {
      quiet_step_ = -1;
      break;
    }
    // The difference injection reaches half a step past the signal's end.
    quiet_step_ = std::max(quiet_step_, (long long)std::ceil(end_s / grid_.dt_s) + 2);
  }
  watchdog_.restart(quiet_step_);
  next_check_ = solver_->step() + chunk_steps();
}

std::vector<ReceiverTaps> WaveModel::receiver_taps() const {
  std::vector<ReceiverTaps> r;
  for (const auto& taps : grid_.receiver_taps) r.push_back(air_taps(taps, solids_, grid_));
  return r;
}

void WaveModel::build_solver(Precision p, const std::string& kernel_id, const LaunchOptions* options) {
  std::unique_ptr<WaveSolver> next;
  CudaWaveSolver* next_cuda = nullptr;
  const bool decomposed = decomp_.slabs_per_process > 1 || !decomp_.devices.empty() ||
                          (decomp_.comm && decomp_.comm->size() > 1);
  const BackendDecision backend = decomposed ? BackendDecision{} : decide_backend(choice_);
  backend_note_ = backend.note;
  if (decomposed) {
    DecompOptions d = decomp_;
    const KernelVariant* running = KernelRegistry::instance().find(decomp_in_use_.kernel_id);
    if (!kernel_id.empty() && kernel_id != "auto") {
      d.kernel_id = kernel_id;
      kernel_choice_note_.clear();
    } else if (kernel_id == "auto" && d.kernel_id.empty()) {
      kernel_choice_note_.clear();
      d = tune_slabs(p, d);
    } else if (solver_ && running && running->supports(grid_.stencil) && running->has_precision(p)) {
      // A precision or stencil switch keeps the slabs' kernel and split (and auto's note).
      d.kernel_id = running->id;
      d.overlap = decomp_in_use_.overlap;
    } else {
      kernel_choice_note_.clear();
    }
    next = make_decomposed_solver(d, p, grid_.stencil, grid_.nx, grid_.ny, grid_.nz, grid_.courant, grid_.dt_s);
    backend_note_ = describe_decomposition(*next);
    decomp_in_use_ = d;
  } else if (backend.use_cuda) {
    std::string chosen = kernel_id;
    LaunchOptions tuned;
    kernel_choice_note_.clear();
    if (chosen == "auto") {  // "" when tuning failed: the registry's default
      chosen = resolve_auto_kernel(p, tuned, false);
      if (!chosen.empty()) options = &tuned;
    }
    auto c = make_cuda_solver(p, grid_.stencil, grid_.nx, grid_.ny, grid_.nz, grid_.courant, grid_.dt_s, chosen);
    if (options) {  // the running kernel's options; its block may not fit the new stencil or precision
      const std::string id = chosen.empty() ? c->kernel().id : chosen;
      LaunchOptions o = *options;
      o.block = block_after_switch(KernelRegistry::instance().at(id), grid_.stencil, p, o.block);
      c->set_kernel(id, o);
    }
    next_cuda = c.get();
    next = std::move(c);
  }
  if (!next) {
    // Refused with the size that fits before the vectors are touched (cpu/host_memory.hpp);
    // a precision switch also holds the old grids and two double copies of the field.
    const FieldLayout L = make_layout(grid_.nx, grid_.ny, grid_.nz, halo_for(grid_.stencil), bytes_of(p));
    check_host_grid_fits(grid_.nx, grid_.ny, grid_.nz, (size_t)L.total, bytes_of(p),
                         solver_ ? 4.0 * sizeof(double) * (double)L.total : 0.0);
    next = make_cpu_solver(p, grid_.stencil, grid_.nx, grid_.ny, grid_.nz, grid_.courant, grid_.dt_s);
  }
  // Carry the state over when a solver already runs (precision switch).
  if (solver_) {
    std::vector<double> uc, up;
    solver_->read_state(uc, up);
    const FieldLayout &from = solver_->layout(), &to = next->layout();
    next->write_state(relayout(uc, from, to), relayout(up, from, to), solver_->step());
  }
  solver_ = std::move(next);
  cuda_ = next_cuda;
  slabs_ = queued_slabs(*solver_);
  scene_.precision = p;
  wire_io();
}

void WaveModel::wire_io() {
  // The plan depends on the layout (precision changes the row alignment).
  boundary_ = make_boundary_plan(solver_->layout(), scene_.walls, solids_, grid_.courant);
  solver_->set_boundary(boundary_);
  solver_->set_sources(source_nodes());
  solver_->set_receiver_taps(receiver_taps());
  history_.resize(grid_.receiver_nodes.size());
}

std::vector<SourceNode> WaveModel::source_nodes() const {
  std::vector<SourceNode> src;
  for (size_t q = 0; q < scene_.sources.size(); ++q) {
    const SourceSpec& spec = scene_.sources[q];
    const Injection how = spec.quantity == SourceQuantity::VolumeVelocity ? Injection::Difference : spec.injection;
    if (spec.signal.kind == SignalKind::Sampled && !spec.sampled.stream)
      throw std::invalid_argument("sources[" + std::to_string(q) + "].signal: the samples of " +
                                  (spec.sampled.kind == SampledSignalSpec::Kind::Wav ? "'" + spec.sampled.path + "'"
                                                                                     : spec.sampled.dry_name) +
                                  " are not loaded (audio::load_scene_signals)");
    for (const GridTap& t : air_taps(grid_.source_taps[q], solids_, grid_))
      src.push_back({t.node, spec.signal, source_gain(q) * t.weight, how, spec.sampled.stream});
  }
  return src;
}

void WaveModel::take_samples() {
  auto fresh = solver_->take_receiver_samples();
  for (size_t r = 0; r < fresh.size() && r < history_.size(); ++r) {
    for (double v : fresh[r]) {
      // |u| beyond 1e30 cannot come from a stable run with bounded sources.
      if (!std::isfinite(v) || std::fabs(v) > 1e30) {
        std::ostringstream os;
        os << "the field blew up at step " << solver_->step() << " (receiver " << scene_.receivers[r].name
           << " reads " << v << "); the simulation is paused. Check the Courant number (" << grid_.courant
           << ", limit " << grid_.stencil.courant_max << ") and the source amplitudes";
        history_[r].insert(history_[r].end(), fresh[r].begin(), fresh[r].end());
        throw BlowUpError(os.str());
      }
    }
    history_[r].insert(history_[r].end(), fresh[r].begin(), fresh[r].end());
  }
}

void WaveModel::advance(int steps) {
  if (fault_.active) throw SolverFaultError(fault_.message);
  finish_advance();
  try {
    advance_chunks(steps);
  } catch (const CudaError& e) {
    stop_on_fault(e);  // wave_model_fault.cpp
  }
}

long long WaveModel::chunk_steps() const {
  return cuda_ && cuda_->kernel().multi_long_runs ? Watchdog::kLongRunInterval : Watchdog::kInterval;
}

void WaveModel::advance_chunks(int steps) {
  const long long interval = chunk_steps();
  while (steps > 0) {
    // A GUI frame (up to one chunk) is one solver advance: one stream synchronisation and
    // the frame's whole throughput in metrics(). Longer advances go in chunks, so the
    // watchdog sees the field at least every two chunks.
    int chunk = (int)std::min<long long>(steps, interval);
    if (fault_hook_ && fault_hook_->at_step > solver_->step())
      chunk = (int)std::min<long long>(chunk, fault_hook_->at_step - solver_->step());
    solver_->advance(chunk);
    steps -= chunk;
    take_samples();
    if (fault_hook_ && solver_->step() >= fault_hook_->at_step) {
      const SolverFaultKind kind = fault_hook_->kind;
      fault_hook_.reset();
      inject_solver_fault(kind, cuda_ != nullptr);
    }
    if (solver_->step() >= next_check_) {
      next_check_ = solver_->step() + interval;
      if (auto why = watchdog_.check(solver_->step(), solver_->field_stats()))
        throw BlowUpError("watchdog: " + *why + "; the simulation is paused");
    }
  }
}

void WaveModel::reset() {
  // What was queued is dropped with the field (the solver's reset waits for the stream).
  in_flight_ = false;
  queued_checks_.clear();
  solver_->reset();
  for (auto& h : history_) h.clear();
  restart_watchdog();
}

void WaveModel::set_precision(Precision p) {
  finish_advance();
  if (p == solver_->precision()) return;
  std::string id;
  LaunchOptions opt;
  if (cuda_) {
    id = cuda_->kernel().id;
    opt = cuda_->launch_options();
  }
  build_solver(p, id, cuda_ ? &opt : nullptr);
}

namespace {

// Why the kernel cannot be chosen: on slabs every slab runs the kernel it was built
// with (one that reads its halo from memory, decomposed_solver.hpp), picked at start.
[[noreturn]] void refuse_kernel_change(const WaveSolver& s, const std::string& note) {
  if (!describe_decomposition(s).empty())
    throw std::runtime_error("the kernel cannot be switched on a decomposed grid (each slab keeps the kernel it "
                             "was built with; precision and stencil switches work); running: " + note);
  throw std::runtime_error("kernel variants need the CUDA backend; running: " + note);
}

}  // namespace

void WaveModel::set_kernel(const std::string& id, const LaunchOptions& options) {
  finish_advance();
  if (!cuda_) refuse_kernel_change(*solver_, backend_note_);
  cuda_->set_kernel(id, options);
  kernel_choice_note_.clear();
}

std::string WaveModel::resolve_auto_kernel(Precision p, LaunchOptions& options, bool force) {
  AutotuneOptions o;
  o.force = force;
  o.log = &std::cerr;  // a corrupt or stale cache, and what was chosen
  // The bare grid's tune gets half of the 2 s a first `auto` may take; the room's whole
  // step, timed after it, bounds each of its few candidates itself (room_autotune.cpp).
  o.budget_s = 1.0;
  try {
    TuneChoice c = autotune_on_device(grid_.stencil, p, grid_.nx, grid_.ny, grid_.nz, o);
    std::string room_note;
    try {  // the room's own step: a kernel that runs it whole may beat the bare grid's choice
      const BoundaryPlan plan = grid_plan(p);
      const RoomStep step = room_step(plan);
      const TuneChoice room = autotune_room_on_device(c, grid_.stencil, p, grid_.nx, grid_.ny, grid_.nz, step, o);
      if (room.kernel != c.kernel || room.block.x != c.block.x || room.block.y != c.block.y ||
          room.block.z != c.block.z)
        room_note = " (timed on the room's whole step; bare grid: " + c.kernel + ")";
      c = room;
    } catch (const std::exception& e) {
      std::cerr << "autotune on the room's step: " << e.what() << "; keeping the bare grid's choice\n";
    }
    options = LaunchOptions{c.block, true, c.z_waves};
    kernel_choice_note_ = c.label() + room_note;
    return c.kernel;
  } catch (const std::exception& e) {
    std::cerr << e.what() << "; running the default kernel\n";
    return "";
  }
}

BoundaryPlan WaveModel::grid_plan(Precision p) const {
  const FieldLayout L = make_layout(grid_.nx, grid_.ny, grid_.nz, halo_for(grid_.stencil), bytes_of(p));
  return make_boundary_plan(L, scene_.walls, solids_, grid_.courant);
}

RoomStep WaveModel::room_step(const BoundaryPlan& plan) const {
  RoomStep step;
  step.plan = &plan;
  step.sources = source_nodes();
  step.receivers = receiver_taps();
  step.courant = grid_.courant;
  step.dt_s = grid_.dt_s;
  return step;
}

DecompOptions WaveModel::tune_slabs(Precision p, DecompOptions d) {
  if (d.devices.empty() || (d.comm && d.comm->size() > 1)) return d;
  const int parts = (int)std::set<int>(d.devices.begin(), d.devices.end()).size();
  AutotuneOptions o;
  o.log = &std::cerr;
  o.budget_s = 2.0;
  try {
    const BoundaryPlan plan = grid_plan(p);
    const RoomStep step = room_step(plan);
    const TuneProblem room = room_problem(TuneProblem{grid_.stencil.name, p, grid_.nx, grid_.ny, grid_.nz}, step);
    const std::vector<SourceNode> sources = sources_for_timing(step.sources);
    const SlabBuild build = [&](const DecompOptions& x) {
      auto s = make_decomposed_solver(x, p, grid_.stencil, grid_.nx, grid_.ny, grid_.nz, grid_.courant, grid_.dt_s);
      s->set_boundary(make_boundary_plan(s->layout(), scene_.walls, solids_, grid_.courant));
      s->set_sources(sources);
      s->set_receiver_taps(step.receivers);
      return s;
    };
    const SlabMeasure measure = [&](const TuneCandidate& c, bool overlap, double budget_s) {
      DecompOptions x = d;
      x.kernel_id = c.kernel;
      x.overlap = overlap;
      return time_decomposed_step(build, x, budget_s);
    };
    const auto t0 = std::chrono::steady_clock::now();
    const SlabTuneChoice c = autotune_slabs(room, current_tune_identity(), parts, d.overlap,
                                            slab_candidates(grid_.stencil, p), measure, o);
    const double tune_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::cerr << "autotune on slabs (" << parts << " GPU(s)): " << c.label() << ", " << 1e6 * c.seconds_per_step
              << " us a step (";
    if (c.from_cache) std::cerr << "cached)\n";
    else std::cerr << "tuned in " << tune_s << " s)\n";
    d.kernel_id = c.kernel;
    d.overlap = c.overlap;
    kernel_choice_note_ = c.label();
  } catch (const std::exception& e) {
    std::cerr << "autotune on slabs: " << e.what() << "; running the slabs' default kernel\n";
  }
  return d;
}

void WaveModel::retune_kernel() {
  finish_advance();
  if (!cuda_) refuse_kernel_change(*solver_, backend_note_);
  LaunchOptions o;
  const std::string id = resolve_auto_kernel(solver_->precision(), o, true);
  if (id.empty()) throw std::runtime_error("autotune failed (see the terminal); the kernel stays");
  const std::string note = kernel_choice_note_;
  cuda_->set_kernel(id, o);
  kernel_choice_note_ = note;
}

void WaveModel::set_source_position(size_t index, const std::array<double, 3>& p) {
  finish_advance();
  if (index >= scene_.sources.size()) throw std::out_of_range("no source " + std::to_string(index));
  const GridIndex g = position_to_node(p, scene_, grid_, "sources[" + std::to_string(index) + "].position_m");
  auto taps = position_taps(p, scene_.sources[index].interpolation, scene_, grid_,
                            "sources[" + std::to_string(index) + "].position_m");
  scene_.sources[index].position_m = p;
  grid_.source_nodes[index] = g;
  grid_.source_taps[index] = std::move(taps);
  wire_io();
}

void WaveModel::set_source_signal(size_t index, const SourceSignal& signal, const SampledSignalSpec& sampled) {
  finish_advance();
  if (index >= scene_.sources.size()) throw std::out_of_range("no source " + std::to_string(index));
  SourceSpec& spec = scene_.sources[index];
  const SourceSpec old = spec;
  spec.signal = signal;
  spec.sampled = sampled;
  try {
    wire_io();
  } catch (...) {
    spec = old;
    wire_io();
    throw;
  }
  restart_watchdog();
}

void WaveModel::set_receiver_position(size_t index, const std::array<double, 3>& p) {
  finish_advance();
  if (index >= scene_.receivers.size()) throw std::out_of_range("no receiver " + std::to_string(index));
  const GridIndex g = position_to_node(p, scene_, grid_, "receivers[" + std::to_string(index) + "].position_m");
  auto taps = position_taps(p, scene_.receivers[index].interpolation, scene_, grid_,
                            "receivers[" + std::to_string(index) + "].position_m");
  scene_.receivers[index].position_m = p;
  grid_.receiver_nodes[index] = g;
  grid_.receiver_taps[index] = std::move(taps);
  // Pending samples are taken first so no recorded sample is lost.
  auto fresh = solver_->take_receiver_samples();
  for (size_t r = 0; r < fresh.size() && r < history_.size(); ++r)
    history_[r].insert(history_[r].end(), fresh[r].begin(), fresh[r].end());
  solver_->set_receiver_taps(receiver_taps());
}

}  // namespace ws

namespace ws {

void WaveModel::set_stencil(const std::string& name) {
  finish_advance();
  if (name == grid_.stencil.name) return;
  WaveScene next = scene_;
  next.stencil = name;
  // X = c T / lambda ties the grid to lambda, so a live switch keeps lambda (and with it the
  // grid and node indices) and is refused when lambda exceeds the new stencil's limit.
  next.courant = grid_.courant;
  DerivedGrid g;
  try {
    g = derive_grid(next);
  } catch (const SceneError& e) {
    throw SceneError(std::string(e.what()) + " (the running grid has courant " + std::to_string(grid_.courant) +
                     "; reload the scene with the new stencil to use its own limit)");
  }
  std::vector<double> uc, up;
  solver_->read_state(uc, up);
  const FieldLayout from = solver_->layout();
  const long long step = solver_->step();
  std::string kernel_id;
  LaunchOptions opt;
  const bool keep_kernel = cuda_ && cuda_->kernel().supports(g.stencil);
  if (keep_kernel) {
    kernel_id = cuda_->kernel().id;
    opt = cuda_->launch_options();
  }
  auto pending = solver_->take_receiver_samples();
  for (size_t r = 0; r < pending.size() && r < history_.size(); ++r)
    history_[r].insert(history_[r].end(), pending[r].begin(), pending[r].end());
  const WaveScene old_scene = scene_;
  const DerivedGrid old_grid = grid_;
  scene_ = next;
  grid_ = g;
  try {
    solver_.reset();
    cuda_ = nullptr;
    slabs_ = nullptr;
    build_solver(scene_.precision, kernel_id, keep_kernel ? &opt : nullptr);
  } catch (...) {
    scene_ = old_scene;
    grid_ = old_grid;
    build_solver(scene_.precision, "", nullptr);
    const FieldLayout& to = solver_->layout();
    solver_->write_state(relayout(uc, from, to), relayout(up, from, to), step);
    throw;
  }
  // The pressure, its rate of change and the energy carry over (wave/stencil_switch.hpp);
  // copying (u^n, u^{n-1}) as they are pumps modes under repeated switches.
  const StencilSwitchResult carried =
      carry_across_stencil_switch(std::move(uc), std::move(up), from, solver_->layout(), old_grid.stencil,
                                  grid_.stencil, grid_.courant);
  solver_->write_state(carried.u_cur, carried.u_prev, step);
}

}  // namespace ws
