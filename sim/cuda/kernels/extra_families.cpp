// The list of kernel families beyond the first (3-D tiling). A new family adds
// one call here and one file under sim/cuda/kernels/.
#include "cuda/kernel_registry.hpp"

namespace ws {

void register_extra_kernel_families(KernelRegistry& /*r*/) {}

}  // namespace ws
