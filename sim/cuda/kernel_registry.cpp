#include "cuda/kernel_registry.hpp"

#include <stdexcept>

namespace ws {

const KernelRegistry& KernelRegistry::instance() {
  static const KernelRegistry reg = [] {
    KernelRegistry r;
    register_tiling3d_kernels(r);
    register_extra_kernel_families(r);
    return r;
  }();
  return reg;
}

void KernelRegistry::add(KernelVariant v) {
  if (find(v.id)) throw std::logic_error("kernel id registered twice: " + v.id);
  variants_.push_back(std::move(v));
}

const KernelVariant* KernelRegistry::find(const std::string& id) const {
  for (const auto& v : variants_)
    if (v.id == id) return &v;
  return nullptr;
}

const KernelVariant& KernelRegistry::at(const std::string& id) const {
  if (const auto* v = find(id)) return *v;
  std::string list;
  for (const auto& v : variants_) list += (list.empty() ? "" : ", ") + v.id;
  throw std::invalid_argument("unknown kernel '" + id + "'; allowed: " + list);
}

BlockShape preferred_block(const KernelVariant& v, const Stencil& s, Precision p) {
  return v.block_for ? v.block_for(s, p) : v.default_block;
}

BlockShape block_after_switch(const KernelVariant& v, const Stencil& s, Precision p, const BlockShape& current) {
  if (v.block_error && !v.block_error(s, p, current).empty()) return preferred_block(v, s, p);
  return current;
}

std::vector<const KernelVariant*> KernelRegistry::supporting(const Stencil& s, Precision p) const {
  std::vector<const KernelVariant*> out;
  for (const auto& v : variants_)
    if (v.has_precision(p) && v.supports(s)) out.push_back(&v);
  return out;
}

}  // namespace ws
