#pragma once
// The sediment model's own small table of CUDA kernels: the h- and s-kernels
// of Su et al. in the paper's four versions (Baseline, OPT-1 read-only cache,
// OPT-2 shared memory, OPT-3 halo threads), float and double. Same shape as
// the wave registry (sim/cuda/kernel_registry.hpp): the model's dropdown, the
// benchmark and the tests iterate it.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "cuda/kernel_registry.hpp"  // BlockShape
#include "sediment/sediment_layout.hpp"
#include "sediment/sediment_scheme.hpp"

namespace ws {

// One application of a kernel. h-kernel: reads alpha, beta, s (= s^l), h (= h^l),
// writes h_new (h^{l+1}). s-kernel: reads alpha, beta, s (= s^l), h_new
// (h^{l+1}, ghosts filled), writes s_new (s^{l+1}). Only interior cells are written.
template <class T>
struct SedimentArgs {
  const T* alpha = nullptr;
  const T* beta = nullptr;
  const T* s = nullptr;
  const T* h = nullptr;
  T* h_new = nullptr;
  T* s_new = nullptr;
  SedimentLayout layout;
  SedimentCoeffs<T> k;
};

// block: the CUDA thread block. For OPT-3 it includes the halo threads: a
// 34x6 block updates a 32x4 tile (the paper's BLOCK_X+HALO x BLOCK_Y+HALO).
template <class T>
using SedimentLaunchFn = void (*)(const SedimentArgs<T>&, BlockShape block, cudaStream_t);

enum class SedimentKernelKind { H, S };
inline const char* to_string(SedimentKernelKind k) { return k == SedimentKernelKind::H ? "h" : "s"; }

struct SedimentKernel {
  std::string id;        // "h-baseline", "h-opt1", ..., "s-opt3"
  std::string name;      // for people
  SedimentKernelKind kind = SedimentKernelKind::H;
  std::string version;   // "Baseline", "OPT-1", "OPT-2", "OPT-3" (the paper's names)
  BlockShape default_block;  // the paper's: 32x4, OPT-3 34x6
  bool halo_threads = false; // block includes a one-thread halo on each side (OPT-3)
  int shared_arrays = 0;     // per-cell intermediates kept in shared memory (h: as, bm; s: gamma)
  SedimentLaunchFn<float> launch_float = nullptr;
  SedimentLaunchFn<double> launch_double = nullptr;

  // The tile of cells one block updates.
  BlockShape tile(BlockShape block) const {
    return halo_threads ? BlockShape{block.x - 2, block.y - 2, 1} : block;
  }
  // Throws std::invalid_argument naming the block and what is allowed.
  void check_block(BlockShape block) const;
};

class SedimentKernelRegistry {
 public:
  static const SedimentKernelRegistry& instance();
  const std::vector<SedimentKernel>& all() const { return kernels_; }
  const SedimentKernel* find(const std::string& id) const;
  const SedimentKernel& at(const std::string& id) const;  // std::invalid_argument listing the ids
  std::vector<const SedimentKernel*> of_kind(SedimentKernelKind k) const;
  void add(SedimentKernel k);

 private:
  std::vector<SedimentKernel> kernels_;
};

// Registration hooks, one per kernel file (explicit calls: see kernel_registry.hpp).
void register_sediment_h_kernels(SedimentKernelRegistry& r);
void register_sediment_s_kernels(SedimentKernelRegistry& r);

// The ghost kernel: fills the ghost h (and s) of the perimeter before each
// kernel (see sediment_boundary.hpp); `q` is a device array of 2 (nx + ny).
template <class T>
void launch_sediment_ghosts(T* h, T* s, const T* alpha, const T* beta, const SedimentLayout& L,
                            const SedimentCoeffs<T>& k, const T* q_m2_s, const T s_in[4], double dx_m, double dy_m,
                            bool write_s, cudaStream_t stream);

}  // namespace ws
