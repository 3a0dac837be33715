#include "gui/soak.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "cuda/cuda_solver.hpp"
#include "cuda/device_info.hpp"
#include "cuda/kernel_registry.hpp"
#include "gui/gui_context.hpp"
#include "wave/wave_model.hpp"

namespace ws::gui {

namespace {

long long resident_kib() {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("VmRSS:", 0) == 0) return std::atoll(line.c_str() + 6);
  return -1;
}

}  // namespace

void soak_step(GuiContext& ctx, SoakScript& soak, long long frame) {
  if (soak.every_frames <= 0 || frame % soak.every_frames != 0 || !ctx.session) return;
  WaveModel& m = ctx.model();
  // The state the previous change left: errors, memory, the field.
  if (!ctx.stencil_error.empty() || !ctx.action_error.empty()) {
    ++soak.failures;
    std::cerr << "wavescope: soak cycle " << soak.cycle << " failed: " << ctx.stencil_error << ctx.action_error
              << "\n";
    ctx.stencil_error.clear();
    ctx.action_error.clear();
  }
  if (!ctx.blowup.empty()) {
    ++soak.failures;
    std::cerr << "wavescope: soak stopped at cycle " << soak.cycle << ", step " << m.step() << ": " << ctx.blowup
              << "\n";
    soak.every_frames = 0;
    return;
  }
  const CudaDeviceInfo dev = m.cuda() ? query_cuda_device() : CudaDeviceInfo{};
  const FieldStats f = m.solver().field_stats();
  std::cerr << "wavescope: soak cycle " << soak.cycle << " frame " << frame << " step " << m.step() << ": "
            << m.grid().stencil.name << ", " << to_string(m.solver().precision())
            << (m.cuda() ? ", kernel " + m.cuda()->kernel().id : std::string()) << ", rss " << resident_kib() / 1024
            << " MiB";
  if (m.cuda()) std::cerr << ", device used " << (dev.total_bytes - dev.free_bytes) / (1 << 20) << " MiB";
  std::cerr << ", peak |u| " << f.peak << "\n";

  // The next change of the rotation, as the panel would queue it.
  static const char* const kinds[] = {"precision", "stencil", "kernel"};
  int kind = (int)(soak.cycle++ % 3);
  for (int tries = 0; tries < 3 && soak.switches.find(kinds[kind]) == std::string::npos; ++tries) kind = (kind + 1) % 3;
  if (soak.switches.find(kinds[kind]) == std::string::npos) return;
  switch (kind) {
    case 0:
      ctx.pending.precision = m.solver().precision() == Precision::Float ? Precision::Double : Precision::Float;
      break;
    case 1:
      // Names are canonical once parsed (7pt runs as leggy:1): compare with the second.
      ctx.pending.stencil = m.grid().stencil.name == soak.stencil_b ? soak.stencil_a : soak.stencil_b;
      break;
    default:
      if (CudaWaveSolver* cuda = m.cuda()) {
        auto variants = KernelRegistry::instance().supporting(m.grid().stencil, cuda->precision());
        const FieldLayout& L = cuda->layout();
        variants.erase(std::remove_if(variants.begin(), variants.end(),
                                      [&](const KernelVariant* v) {
                                        return v != &cuda->kernel() && v->grid_error &&
                                               !v->grid_error(L.nx, L.ny, L.nz, cuda->precision()).empty();
                                      }),
                       variants.end());
        for (size_t i = 0; i < variants.size(); ++i) {
          if (variants[i]->id != cuda->kernel().id) continue;
          const KernelVariant* next = variants[(i + 1) % variants.size()];
          LaunchOptions o = cuda->launch_options();
          o.block = preferred_block(*next, m.grid().stencil, cuda->precision());
          ctx.pending.kernel = std::make_pair(next->id, o);
          break;
        }
      }
  }
}

}  // namespace ws::gui
