#pragma once
// Which CUDA kernels can update a z-slab and answer bit for bit what they answer on
// the whole grid (the decomposed solver's choice, the CLI's and benchmarks' checks).
#include <string>

#include "core/precision.hpp"
#include "stencil/stencil.hpp"

namespace ws {

// Whether a CUDA kernel reads the halo planes from memory. A kernel that takes the
// halo from elsewhere (ztma_leggy: the tensor memory accelerator's zero fill past
// the interior) would see zeros instead of the neighbouring slab.
bool kernel_reads_halo(const std::string& kernel_id);
// Whether a kernel's arithmetic depends on where its z chunks start (zsweep_box and
// compact_tiled shift the field by a reference value read at the start of each chunk,
// sim/cuda/kernels/exact_update.cuh): on slabs the chunks start elsewhere, so the
// answer would differ from one grid's in the last bits. Such kernels are refused.
bool kernel_sums_follow_z_chunks(const std::string& kernel_id);
// The kernel a slab runs: `requested` when it can (std::invalid_argument with the
// alternatives otherwise), else the first registered one that supports the stencil and
// precision and can. `several_devices` (the slabs of this process sit on more than one
// GPU) no longer narrows the choice: the kernels' constant tables are uploaded per device.
std::string slab_kernel(const Stencil& stencil, Precision precision, const std::string& requested,
                        bool several_devices = false);

}  // namespace ws
