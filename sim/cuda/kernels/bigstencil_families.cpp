// The large-stencil kernel families (Hamilton et al.; FDTD3d generalised; the
// CUDA Fortran pencils), registered in the order the registry lists them.
#include "cuda/kernel_registry.hpp"

namespace ws {

void register_general_stencil_kernels(KernelRegistry& r);     // general_stencil.cu  (KernelA)
void register_leggy_kernels(KernelRegistry& r);               // leggy.cu            (KernelB)
void register_regqueue_leggy_kernels(KernelRegistry& r);      // register_queue_leggy.cu
void register_pencil_kernels(KernelRegistry& r);              // pencils.cu
void register_compact_tiled_kernels(KernelRegistry& r);       // compact_tiled.cu
void register_zsweep_leggy_kernels(KernelRegistry& r);        // zsweep_leggy.cu
void register_zsweep_box_kernels(KernelRegistry& r);          // zsweep_box.cu
void register_zvec_leggy_kernels(KernelRegistry& r);          // zvec_leggy.cu
void register_ztile_leggy_kernels(KernelRegistry& r);         // ztile_leggy.cu
void register_ztma_leggy_kernels(KernelRegistry& r);          // ztma_leggy.cu

void register_bigstencil_kernels(KernelRegistry& r) {
  // The first variant that supports a stencil is the solver's default, so the
  // order follows the H200 measurements (`wavescope bench stencils --all-kernels`,
  // issue 4): ztma_leggy is the fastest leggy kernel for every M in float (it
  // needs TMA, compute capability 9.0, which the build targets), then ztile_leggy
  // and zvec_leggy (KernelB and regqueue_leggy were before them), the z sweep with
  // mirror-class sums the fastest for box / compact stencils (it also accepts leggy
  // ones, where it is slow: the leggy kernels must come first). KernelA last.
  register_ztma_leggy_kernels(r);
  register_ztile_leggy_kernels(r);
  register_zvec_leggy_kernels(r);
  register_leggy_kernels(r);
  register_zsweep_box_kernels(r);
  register_regqueue_leggy_kernels(r);
  register_zsweep_leggy_kernels(r);
  register_compact_tiled_kernels(r);
  register_pencil_kernels(r);
  register_general_stencil_kernels(r);
}

}  // namespace ws
