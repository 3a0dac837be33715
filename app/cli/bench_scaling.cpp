// `wavescope bench scaling`: weak and strong scaling of the z-slab decomposition over
// 1..N GPUs in this process (--gpus), or over the ranks of `mpirun -np N` (one GPU
// each); --backend cpu runs CPU slabs instead (a check of the machinery, not of GPUs).
// Prints a table and optionally writes the records as JSON.
#include <iomanip>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "atomic_file.hpp"
#include "bench/roofline.hpp"
#include "cli/commands.hpp"
#include "cli/option_checks.hpp"
#include "cli/decomp_setup.hpp"
#include "cli/interrupt.hpp"
#include "core/cuda_check.hpp"
#include "cuda/device_info.hpp"
#include "decomp/remote_halos.hpp"
#include "decomp/scaling_bench.hpp"

namespace ws::cli {

namespace {

struct ScalingArgs {
  std::string mode = "both";
  int side = 256;
  std::vector<int> grid{512, 512, 512};
  std::string gpus = "all";
  std::string backend = "cuda";
  std::string stencil = "7pt";
  std::string precision = "float";
  std::string kernel;
  int steps = 50, warmup = 5, reps = 3;
  std::string edge_priority = "on";
  SlabStepArgs slab_steps;
  std::string json_path;
};

// The device's own copy bandwidth (one GPU's, measured in the same run) is the roofline
// each part is held to: a part's rate over copy / bytes per point.
struct DeviceRoofline {
  double copy_gbs = 0.0, bytes_per_point = 0.0;
  double fraction(const ScalingRecord& r) const {
    return copy_gbs > 0 ? r.gpoints_per_s_per_part / bench::roofline_gpoints(copy_gbs, bytes_per_point) : 0.0;
  }
};

nlohmann::json to_json(const ScalingRecord& r, const DeviceRoofline& roof) {
  return {{"device_copy_gbs", roof.copy_gbs}, {"roofline_fraction_per_part", roof.fraction(r)},
          {"mode", r.mode}, {"parts", r.parts}, {"ranks", r.ranks}, {"slabs", r.slabs},
          {"nx", r.nx}, {"ny", r.ny}, {"nz", r.nz}, {"steps", r.steps}, {"seconds", r.seconds},
          {"gpoints_per_s", r.gpoints_per_s}, {"gpoints_per_s_per_part", r.gpoints_per_s_per_part},
          {"efficiency", r.efficiency}, {"halo_s_per_step", r.halo_s_per_step},
          {"exposed_halo_s_per_step", r.exposed_s_per_step}, {"hidden_fraction", r.hidden_fraction},
          {"copy_gbs", r.copy_gbs}, {"backend", r.backend}, {"kernel", r.kernel}, {"mpi_halos", r.mpi_halos}};
}

void print_table(const std::vector<ScalingRecord>& recs, const std::string& what, const DeviceRoofline& roof) {
  std::cout << std::left << std::setw(8) << "mode" << std::setw(7) << what << std::setw(7) << "slabs"
            << std::setw(18) << "grid" << std::right << std::setw(10) << "Gpts/s" << std::setw(12) << "per part"
            << std::setw(11) << "efficiency" << std::setw(11) << "halo ms" << std::setw(12) << "exposed ms"
            << std::setw(9) << "hidden" << std::setw(10) << "GB/s";
  if (roof.copy_gbs > 0) std::cout << std::setw(10) << "of roof";
  std::cout << "\n";
  for (const auto& r : recs) {
    const std::string grid = std::to_string(r.nx) + "x" + std::to_string(r.ny) + "x" + std::to_string(r.nz);
    std::cout << std::left << std::setw(8) << r.mode << std::setw(7) << r.parts << std::setw(7) << r.slabs
              << std::setw(18) << grid << std::right << std::fixed << std::setprecision(3) << std::setw(10)
              << r.gpoints_per_s << std::setw(12) << r.gpoints_per_s_per_part << std::setprecision(1)
              << std::setw(10) << 100.0 * r.efficiency << "%" << std::setprecision(4) << std::setw(11)
              << 1e3 * r.halo_s_per_step << std::setw(12) << 1e3 * r.exposed_s_per_step << std::setprecision(1)
              << std::setw(8) << 100.0 * r.hidden_fraction << "%" << std::setprecision(1) << std::setw(10)
              << r.copy_gbs;
    if (roof.copy_gbs > 0) std::cout << std::setw(9) << 100.0 * roof.fraction(r) << "%";
    std::cout << "\n";
  }
}

int run_scaling(const ScalingArgs& a) {
  const BackendChoice backend = parse_backend(a.backend);
  if (backend != BackendChoice::Cpu) {  // as the other benchmarks: no GPU is status 1, not bad input
    const CudaDeviceInfo dev = query_cuda_device();
    if (!dev.usable) {
      std::cerr << "bench scaling needs a CUDA GPU (or --backend cpu): " << dev.reason << "\n";
      return 1;
    }
  }
  ScalingOptions o;
  DecompSetup setup;
  try {
    o.stencil = a.stencil;
    o.precision = parse_precision(a.precision);
    o.kernel = a.kernel;
    o.side = a.side;
    if (a.grid.size() != 3)
      throw std::invalid_argument("--grid takes three sizes NX NY NZ (got " + std::to_string(a.grid.size()) + ")");
    o.nx = a.grid[0];
    o.ny = a.grid[1];
    o.nz = a.grid[2];
    o.steps = a.steps;
    o.warmup = a.warmup;
    o.reps = a.reps;
    o.slab_steps.prioritize_edges = a.edge_priority == "on";
    a.slab_steps.apply(o.slab_steps);
    DecompArgs d;
    if (backend != BackendChoice::Cpu && !launched_by_mpi()) d.gpus = a.gpus;
    setup = make_decomp_setup(d, backend);
  } catch (const std::invalid_argument& e) {
    std::cerr << "bench scaling: " << e.what() << "\n";
    return 2;
  }
  o.comm = setup.options.comm;
  int parts = 1;
  if (backend == BackendChoice::Cpu) {
    // CPU slabs: --gpus counts slabs ("all": 4).
    size_t used = 0;
    try {
      parts = a.gpus == "all" ? 4 : std::stoi(a.gpus, &used);
    } catch (const std::exception&) {
      parts = 0;
    }
    if (parts < 1 || (a.gpus != "all" && used != a.gpus.size())) {
      std::cerr << "bench scaling: --gpus '" << a.gpus << "' is not allowed: a positive number of slabs or 'all'\n";
      return 2;
    }
  } else {
    o.devices = setup.options.devices;
    if (o.devices.empty()) o.devices = {0};  // --gpus 1
    parts = (int)o.devices.size();
  }
  for (int p = 1; p <= parts; ++p) o.parts.push_back(p);
  InterruptScope interrupt_scope;
  o.stop_requested = [&] { return setup.any_interrupted(interrupted()); };
  std::vector<ScalingRecord> recs;
  try {
    for (const char* mode : {"weak", "strong"}) {
      if (a.mode != "both" && a.mode != mode) continue;
      o.weak = std::string(mode) == "weak";
      const auto r = run_scaling_bench(o);
      recs.insert(recs.end(), r.begin(), r.end());
    }
  } catch (const std::invalid_argument& e) {
    std::cerr << "bench scaling: " << e.what() << "\n";
    return 2;
  }
  if (!setup.rank0()) return 0;
  // After the timed runs, so the copies do not warm or cool anything the parts measure;
  // by the rank that prints, on its own GPU.
  DeviceRoofline roof;
  if (backend != BackendChoice::Cpu && !interrupted()) {
    CUDA_CHECK(cudaSetDevice(o.devices[0]));
    roof.copy_gbs = bench::measure_copy_bandwidth_gbs();
    roof.bytes_per_point = scheme_bytes_per_point(o.precision);
  }
  const std::string what = setup.ranks() > 1 ? "ranks" : backend == BackendChoice::Cpu ? "parts" : "GPUs";
  std::cout << "z-slab scaling, stencil " << o.stencil << ", " << a.precision << ", the median of " << o.reps
            << " runs of " << o.steps << " steps; efficiency against one undecomposed part; halo: one exchange alone; "
               "hidden: the part of it the overlap hides; GB/s: that exchange's";
  const DecompOptions& steps = o.slab_steps;
  if (!steps.prioritize_edges) std::cout << "; edge slabs at the default stream priority";
  if (!steps.step_graph) std::cout << "; no step graph on the slabs";
  if (!steps.copy_by_kernel) std::cout << "; halo copies by the copy engines";
  if (!steps.flag_sync) std::cout << "; GPUs ordered by the graph's edges";
  for (const auto& r : recs)
    if (!r.mpi_halos.empty()) {
      std::cout << "; halos between ranks: " << halo_path_text(r.mpi_halos);
      break;
    }
  if (roof.copy_gbs > 0)
    std::cout << "; of roof: a part's rate against one GPU's copy roofline (" << std::fixed << std::setprecision(1)
              << roof.copy_gbs << " GB/s device-to-device, this run, GPU " << o.devices[0] << ": "
              << bench::roofline_gpoints(roof.copy_gbs, roof.bytes_per_point) << " Gpoints/s at "
              << std::setprecision(0) << roof.bytes_per_point << " B a point)";
  std::cout << "\n";
  print_table(recs, what, roof);
  if (!a.json_path.empty()) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& r : recs) j.push_back(to_json(r, roof));
    util::write_atomically(a.json_path, "JSON file", [&](std::ostream& out) { out << j.dump(2) << "\n"; });
    std::cout << "wrote " << recs.size() << " records to " << a.json_path << "\n";
  }
  return interrupted() ? interrupted_exit_code() : 0;
}

}  // namespace

void add_bench_scaling(CLI::App& bench) {
  auto a = std::make_shared<ScalingArgs>();
  CLI::App* c = bench.add_subcommand("scaling", "weak and strong scaling of the z-slab decomposition over GPUs or MPI ranks");
  c->add_option("--mode", a->mode, "weak, strong or both")->check(CLI::IsMember({"weak", "strong", "both"}));
  c->add_option("--side", a->side, "weak: points per GPU = side^3")->check(CLI::Range(8, 4096));
  c->add_option("--grid", a->grid, "strong: the grid NX NY NZ")->expected(3)->check(CLI::Range(8, 1 << 20));
  c->add_option("--gpus", a->gpus, "up to N GPUs of this machine, or all (under mpirun: one per rank); "
                                   "with --backend cpu: CPU slabs")->capture_default_str();
  c->add_option("--backend", a->backend, "cuda, or cpu (slabs on the CPU)")->check(CLI::IsMember({"cuda", "cpu"}));
  c->add_option("--stencil", a->stencil, "stencil name (see `wavescope stencil list`)")->capture_default_str();
  c->add_option("--precision", a->precision, "float or double")->check(CLI::IsMember({"float", "double"}));
  c->add_option("--kernel", a->kernel, "CUDA kernel id (default: the first that can run on a slab)");
  c->add_option("--steps", a->steps, "timed steps per configuration")->check(CLI::Range(1, 100000));
  c->add_option("--warmup", a->warmup, "untimed steps first")->check(CLI::Range(0, 100000));
  c->add_option("--reps", a->reps, "timed runs of --steps per configuration (the median is reported)")
      ->check(CLI::Range(1, 1000));
  c->add_option("--edge-priority", a->edge_priority,
                "on: the edge slabs' updates at the device's greatest stream priority (the default); off: at the "
                "default priority, for comparison")
      ->check(CLI::IsMember({"on", "off"}));
  add_slab_step_options(*c, a->slab_steps);
  c->add_option("--json", a->json_path, "also write the records as JSON to FILE")->check(writable_output("JSON file"));
  c->callback([a] {
    try {
      exit_code() = run_scaling(*a);
    } catch (const std::invalid_argument& e) {
      std::cerr << "bench scaling: " << e.what() << "\n";
      exit_code() = 2;
    } catch (const std::exception& e) {
      std::cerr << "bench scaling failed: " << e.what() << "\n";
      exit_code() = 1;
    }
  });
}

}  // namespace ws::cli
