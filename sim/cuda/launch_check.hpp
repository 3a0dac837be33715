#pragma once
// Whether a kernel of the registry may run a solver's grid with the given launch options:
// checked when the kernel is chosen, so that a refused choice leaves the running kernel in
// place instead of failing at the next launch.
#include "core/field_layout.hpp"
#include "core/precision.hpp"
#include "cuda/kernel_registry.hpp"

namespace ws {

// Throws std::invalid_argument naming the kernel, the value refused and what is allowed.
void check_kernel_launch(const KernelVariant& v, const Stencil& st, Precision p, const FieldLayout& L,
                         const LaunchOptions& o);

}  // namespace ws
