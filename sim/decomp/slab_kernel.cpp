#include "decomp/slab_kernel.hpp"

#include <stdexcept>

#include "cuda/kernel_registry.hpp"

namespace ws {

bool kernel_reads_halo(const std::string& id) {
  return id != "ztma_leggy" && id != "cluster_onchip" && id != "spread_onchip" && id != "brick_onchip";
}

bool kernel_sums_follow_z_chunks(const std::string& id) { return id == "zsweep_box" || id == "compact_tiled"; }

std::string slab_kernel(const Stencil& st, Precision p, const std::string& requested, bool /*several_devices*/) {
  auto usable = [&](const std::string& id) { return kernel_reads_halo(id) && !kernel_sums_follow_z_chunks(id); };
  const auto supporting = KernelRegistry::instance().supporting(st, p);
  if (!requested.empty()) {
    if (usable(requested)) return requested;
    std::string others;
    for (const auto* v : supporting)
      if (usable(v->id)) others += (others.empty() ? "" : ", ") + v->id;
    const std::string why = requested == "cluster_onchip" || requested == "spread_onchip" || requested == "brick_onchip"
                                ? "it holds the whole grid in shared memory with a zero halo, not "
                                  "the neighbouring slab's planes"
                            : !kernel_reads_halo(requested)
                                ? "it takes its halo from the tensor memory accelerator's zero fill, not from the "
                                  "neighbouring slab"
                                : "it shifts the field by a reference value taken where its z sweep starts, so its "
                                  "rounding, and the last bits of the answer, follow where the grid is cut";
    throw std::invalid_argument("kernel '" + requested + "' cannot run on slabs: " + why + "; for stencil '" +
                                st.name + "' use one of: " + (others.empty() ? std::string("(none)") : others));
  }
  for (const auto* v : supporting)
    if (usable(v->id)) return v->id;
  throw std::invalid_argument("no CUDA kernel that can run on slabs supports stencil '" + st.name + "' in " +
                              to_string(p));
}

}  // namespace ws
