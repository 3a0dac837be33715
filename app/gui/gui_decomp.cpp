#include "gui/gui_decomp.hpp"

#include <stdexcept>

#include "decomp/slab_plan.hpp"
#include "scene/scene_json.hpp"

namespace ws::gui {

namespace {

int parse_cpu_slabs(const std::string& s) {
  const int n = cli::parse_positive_count(s);
  if (n == 0)
    throw std::invalid_argument("--gpus '" + s + "' with --backend cpu is not allowed: a positive number of CPU slabs");
  return n;
}

}  // namespace

DecompOptions gui_decomp_options(const cli::DecompArgs& a, BackendChoice backend, const std::string& scene_path) {
  if (launched_by_mpi())
    throw std::invalid_argument("the GUI draws in one process (started by mpirun); use --gpus N for several GPUs, "
                                "or `mpirun ... wavescope run` for MPI ranks");
  if (a.gpus.empty() && a.slabs_per_gpu == 1) return {};
  DecompOptions d;
  if (backend == BackendChoice::Cpu) {
    d.slabs_per_process = (a.gpus.empty() ? 1 : parse_cpu_slabs(a.gpus)) * a.slabs_per_gpu;
  } else {
    d = cli::make_decomp_setup(a, backend).options;  // GPUs present, 'all'
  }
  const nlohmann::json j = load_json_file(scene_path);
  if (scene_model(j) != "wave3d")
    throw std::invalid_argument("--gpus applies to wave3d scenes; '" + scene_path + "' is a " + scene_model(j) +
                                " scene, which runs on one device");
  const DerivedGrid g = derive_grid(load_wave_scene(scene_path));
  const int slabs = d.devices.empty() ? d.slabs_per_process : (int)d.devices.size();
  if (slabs > 1) (void)make_slab_plan(g.nz, slabs, halo_for(g.stencil), "slabs");  // throws naming nz and the limit
  return d;
}

}  // namespace ws::gui
