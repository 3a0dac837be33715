#include "cuda/launch_check.hpp"

#include <stdexcept>
#include <string>

#include "cuda/z_waves.hpp"

namespace ws {

void check_kernel_launch(const KernelVariant& v, const Stencil& st, Precision p, const FieldLayout& L,
                         const LaunchOptions& o) {
  if (!v.has_precision(p))
    throw std::invalid_argument("kernel '" + v.id + "' has no " + to_string(p) + " version");
  if (!v.supports(st))
    throw std::invalid_argument("kernel '" + v.id + "' does not run stencil '" + st.name + "'; it runs " + v.stencils);
  if (o.block.x < 1 || o.block.y < 1 || o.block.z < 1 || o.block.threads() > 1024)
    throw std::invalid_argument("block " + std::to_string(o.block.x) + "x" + std::to_string(o.block.y) + "x" +
                                std::to_string(o.block.z) + " is not allowed: each side >= 1, at most 1024 threads");
  if (const std::string why = z_waves_error(o.z_waves); !why.empty()) throw std::invalid_argument(why);
  if (v.block_error) {
    const std::string why = v.block_error(st, p, o.block);
    if (!why.empty()) throw std::invalid_argument("kernel '" + v.id + "': " + why);
  }
  if (v.grid_error) {  // a kernel bounded by on-chip memory and this grid
    const std::string why = v.grid_error(L.nx, L.ny, L.nz, p);
    if (!why.empty()) throw std::invalid_argument(why);
  }
}

}  // namespace ws
