// `wavescope run`: advance a scene with no GL for N steps or S seconds and
// write the receivers' signals as CSV, with a progress bar on stderr.
#include <chrono>
#include <cmath>
#include <fstream>
#include <iostream>
#include <utility>

#include "atomic_file.hpp"
#include "cli/commands.hpp"
#include "cli/decomp_setup.hpp"
#include "cli/interrupt.hpp"
#include "cli/option_checks.hpp"
#include "cli/progress_bar.hpp"
#include "cpu/host_memory.hpp"
#include "scene/scene_json.hpp"
#include "source/sampled_sources.hpp"
#include "wave/placement.hpp"
#include "wave/wave_model.hpp"
#include "wavio/signal_export.hpp"

namespace ws::cli {

namespace {

struct RunOptions {
  std::string scene;
  long long steps = 0;
  double seconds = 0.0;
  std::string csv = "receivers.csv";
  std::string backend = "auto";
  std::string kernel;
  std::string precision;
  bool quiet = false;
  std::string wav;       // receivers as float WAV, one channel each
  int wav_rate_hz = 0;   // 0: the simulation rate 1 / dt_s
  bool wav_normalize = false;
  DecompArgs decomp;     // --gpus, --slabs-per-gpu; MPI ranks when started by mpirun
};

// Columns: step, time in seconds, one per receiver named "<name>_Pa" (or "<name>_scheme"
// when a source is in scheme units).
void write_csv_rows(std::ostream& out, const WaveModel& m) {
  out.precision(10);
  const std::string suffix = receiver_unit(m.scene()) == "Pa" ? "_Pa" : "_scheme";
  out << "step,time_s";
  for (const auto& r : m.scene().receivers) out << "," << r.name << suffix;
  out << "\n";
  const auto& h = m.receiver_history();
  const size_t n = h.empty() ? 0 : h[0].size();
  for (size_t s = 0; s < n; ++s) {
    out << s + 1 << "," << (s + 1) * m.grid().dt_s;
    for (const auto& r : h) out << "," << r[s];
    out << "\n";
  }
}

// Written all or nothing (util/atomic_file.hpp): a full disk leaves no truncated CSV.
void write_csv(const std::string& path, const WaveModel& m) {
  util::write_atomically(path, "CSV file", [&](std::ostream& out) { write_csv_rows(out, m); });
}

int run(RunOptions o) {
  // Under mpirun every rank runs the same loop on its slab; rank 0 alone talks and writes.
  DecompSetup decomp;
  try {
    decomp = make_decomp_setup(o.decomp, parse_backend(o.backend));
  } catch (const std::invalid_argument& e) {
    std::cerr << "wavescope run: " << e.what() << "\n";
    return 2;
  }
  if (!decomp.rank0()) o.quiet = true;
  if (const std::string why = kernel_id_error(o.kernel); !why.empty()) {
    std::cerr << "wavescope run: " << why << "\n";
    return 2;
  }
  // The outputs checked before the steps, not after them (rank 0 writes them).
  if (decomp.rank0())
    for (const auto& [path, what] : {std::pair{o.csv, "CSV file"}, std::pair{o.wav, "WAV file"}})
      if (!path.empty())
        if (const std::string why = util::output_path_error(path, what); !why.empty()) {
          std::cerr << "wavescope run: " << why << "\n";
          return 2;
        }
  WaveScene scene;
  try {
    scene = load_wave_scene(o.scene);
    audio::load_scene_signals(scene);  // WAV files and dry signals (a bad file: status 2)
    if (!o.precision.empty()) scene.precision = parse_precision(o.precision);
  } catch (const std::exception& e) {
    std::cerr << "wavescope run: " << e.what() << "\n";
    return 2;
  }
  std::unique_ptr<WaveModel> model;
  try {
    model = std::make_unique<WaveModel>(scene, parse_backend(o.backend), o.kernel.empty() ? "auto" : o.kernel, decomp.options);
  } catch (const std::invalid_argument& e) {
    std::cerr << "wavescope run: " << e.what() << "\n";
    return 2;
  } catch (const GridTooLargeError& e) {  // host or GPU memory, checked before allocating
    std::cerr << "wavescope run: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {  // past the check (another process took the memory meanwhile)
    const DerivedGrid g = derive_grid(scene);
    const HostMemory mem = available_host_memory();
    std::cerr << "wavescope run: out of memory allocating the grid " << g.nx << "x" << g.ny << "x" << g.nz << " ("
              << 2.0 * g.points() * bytes_of(scene.precision) / (1 << 30) << " GiB for two grids; "
              << mem.available_bytes / (1 << 30) << " GiB available, " << mem.limited_by
              << "); lower the sample rate or shrink the room\n";
    return 2;
  }
  const auto& g = model->grid();
  // (GPU slabs run CUDA kernels through the decomposition, which is no CudaWaveSolver itself.)
  if (!o.kernel.empty() && o.kernel != "auto" && !model->cuda() && model->solver().backend() != "cuda" && !o.quiet)
    std::cerr << "note: --kernel " << o.kernel << " selects a CUDA kernel; the CPU solver runs (" << model->backend_note()
              << ")\n";
  const long long total = o.steps > 0 ? o.steps
                                      : (long long)std::ceil((o.seconds > 0 ? o.seconds : scene.duration_s) / g.dt_s);
  if (!o.quiet)
    std::cerr << "scene '" << scene.name << "': " << g.nx << "x" << g.ny << "x" << g.nz << " points, X = "
              << g.spacing_m << " m, T = " << g.dt_s << " s, courant " << g.courant << ", " << total << " steps on "
              << model->backend_note() << "\n";
  if (!o.quiet)
    for (const auto& line : placement_report(model->scene(), g)) std::cerr << "  " << line << "\n";
  ProgressBar bar(total, !o.quiet);
  InterruptScope interrupt_scope;  // SIGINT/SIGTERM: stop after the chunk, write what was computed
  const auto t0 = std::chrono::steady_clock::now();
  long long done = 0;
  int rc = 0;
  try {
    while (done < total && !decomp.any_interrupted(interrupted())) {
      const int chunk = (int)std::min<long long>(total - done, 256);
      model->advance(chunk);
      done += chunk;
      bar.update(done);
    }
  } catch (const SolverFaultError& e) {
    // Exit status 4: the solver failed (a CUDA error); the receivers recorded so far are written.
    bar.finish();
    done = model->step();
    std::cerr << "wavescope run: " << e.what() << "\n";
    rc = 4;
  } catch (const BlowUpError& e) {
    // Exit status 3: the run stopped itself; the receivers recorded so far are still written.
    bar.finish();
    done = model->step();
    std::cerr << "wavescope run: " << e.what() << "\n";
    rc = 3;
  }
  bar.finish();
  if (decomp.any_interrupted(interrupted())) {
    std::cerr << "wavescope run: " << interrupt_name() << " at step " << done << " of " << total
              << "; writing the receivers recorded so far\n";
    rc = interrupted_exit_code();
  }
  const double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!decomp.rank0()) return rc;  // every rank holds the receivers; rank 0 writes them
  write_csv(o.csv, *model);
  if (!o.wav.empty()) {
    audio::ExportOptions wo;
    wo.rate_hz = o.wav_rate_hz;
    wo.normalize = o.wav_normalize;
    wo.unit = receiver_unit(model->scene());
    const auto ex = audio::make_export_clip(model->receiver_history(), 1.0 / g.dt_s, wo);
    audio::write_float_wav(o.wav, ex.clip, audio::export_comment(wo));
    if (!o.quiet)
      std::cerr << "wrote " << o.wav << " (" << ex.clip.channels << " channel(s), " << ex.clip.frames() << " frames, "
                << ex.note << ")\n";
  }
  if (!o.quiet)
    std::cerr << "wrote " << o.csv << " (" << done << " samples per receiver); " << sec << " s, "
              << (sec > 0 ? g.points() * (double)done / sec * 1e-9 : 0.0) << " Gpoints/s\n";
  if (const DecompGraphUse use = decomp_graph_use(model->solver()); !o.quiet && !use.note.empty())
    std::cerr << "note: " << use.note << "\n";  // the slabs ran without their step graph, and why
  return rc;
}

}  // namespace

void add_run_command(CLI::App& app) {
  auto opts = std::make_shared<RunOptions>();
  CLI::App* c = app.add_subcommand("run", "advance a scene without graphics and write receiver signals as CSV");
  c->add_option("--scene", opts->scene, "scene file (JSON)")->required();
  c->add_option("--steps", opts->steps, "number of time steps (default: the scene's duration_s)")
      ->check(at_least_one_step());
  c->add_option("--seconds", opts->seconds, "simulated time in seconds")->check(positive());
  c->add_option("--csv", opts->csv, "output CSV file")->capture_default_str();
  c->add_option("--backend", opts->backend, "auto, cpu or cuda")->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  c->add_option("--kernel", opts->kernel,
                "CUDA kernel variant id (see `wavescope kernels`) or auto (default: the fastest on this grid, "
                "measured once and cached)");
  c->add_option("--precision", opts->precision, "override the scene: float or double")
      ->check(CLI::IsMember({"float", "double"}));
  c->add_option("--wav", opts->wav, "also write the receivers as a float WAV file (one channel per receiver)");
  c->add_option("--wav-rate", opts->wav_rate_hz, "resample the WAV to this rate in Hz (default: the simulation rate)")
      ->check(CLI::Range(1000, 768000));
  c->add_flag("--wav-normalize", opts->wav_normalize, "scale the WAV to a -1 dBFS peak");
  c->add_flag("--quiet", opts->quiet, "no progress bar or summary");
  add_decomp_options(*c, opts->decomp);
  c->callback([opts] {
    try {
      exit_code() = run(*opts);
    } catch (const std::exception& e) {
      std::cerr << "wavescope run: " << e.what() << "\n";
      exit_code() = 1;
    }
  });
}

}  // namespace ws::cli
