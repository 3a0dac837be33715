#include <stdexcept>

#include "sediment/sediment_kernels.hpp"

namespace ws {

void SedimentKernel::check_block(BlockShape b) const {
  const int min_side = halo_threads ? 3 : 1;
  if (b.x < min_side || b.y < min_side || b.z != 1 || b.threads() > 1024)
    throw std::invalid_argument("block " + std::to_string(b.x) + "x" + std::to_string(b.y) + "x" +
                                std::to_string(b.z) + " is not allowed for " + id + ": x, y >= " +
                                std::to_string(min_side) + (halo_threads ? " (one halo thread on each side)" : "") +
                                ", z = 1, at most 1024 threads");
}

const SedimentKernelRegistry& SedimentKernelRegistry::instance() {
  static const SedimentKernelRegistry reg = [] {
    SedimentKernelRegistry r;
    register_sediment_h_kernels(r);
    register_sediment_s_kernels(r);
    return r;
  }();
  return reg;
}

void SedimentKernelRegistry::add(SedimentKernel k) {
  if (find(k.id)) throw std::logic_error("sediment kernel id registered twice: " + k.id);
  kernels_.push_back(std::move(k));
}

const SedimentKernel* SedimentKernelRegistry::find(const std::string& id) const {
  for (const auto& k : kernels_)
    if (k.id == id) return &k;
  return nullptr;
}

const SedimentKernel& SedimentKernelRegistry::at(const std::string& id) const {
  if (const auto* k = find(id)) return *k;
  std::string list;
  for (const auto& k : kernels_) list += (list.empty() ? "" : ", ") + k.id;
  throw std::invalid_argument("unknown sediment kernel '" + id + "'; allowed: " + list);
}

std::vector<const SedimentKernel*> SedimentKernelRegistry::of_kind(SedimentKernelKind kind) const {
  std::vector<const SedimentKernel*> out;
  for (const auto& k : kernels_)
    if (k.kind == kind) out.push_back(&k);
  return out;
}

}  // namespace ws
