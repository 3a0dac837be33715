#pragma once
// Hopper's tensor memory accelerator (TMA) for the z-streaming kernels: a 3-D
// tensor map over a field's interior (host side) and the PTX a kernel needs to load
// an xy box of one plane into shared memory, completing on an mbarrier.
//
// One thread issues a whole box (cp.async.bulk.tensor): the copy costs no
// per-thread address arithmetic and no registers, where cp.async costs a few
// instructions per 16-byte chunk in every thread. The arriving bytes are counted
// by a transaction-count mbarrier, so consumers wait on the barrier's phase.
#include <cuda.h>  // CUtensorMap and its enums (types only; the driver entry point is fetched at run time)
#include <cuda_runtime.h>

#include <cstdint>

#include "core/field_layout.hpp"

namespace ws {

// True when the current device has TMA (compute capability 9.0 or newer).
bool device_has_tma();

// A tiled tensor map over the interior of `L` (x, y, z = interior coordinates,
// which a box may leave: the TMA fills what lies outside with zeros, the value
// of the halo) with a box of box_x x box_y x 1 elements. Throws
// std::invalid_argument naming the box when the driver refuses it (box sides
// <= 256, box_x * element size a multiple of 16 bytes).
CUtensorMap make_interior_box_map(const void* base, int element_bytes, const FieldLayout& L, int box_x, int box_y);

// The same map from a small per-thread cache keyed by (base, layout, box): a
// solver alternates two arrays, so encoding (a driver call) happens once per
// array instead of on every step.
const CUtensorMap& cached_interior_box_map(const void* base, int element_bytes, const FieldLayout& L, int box_x,
                                        int box_y);

#if defined(__CUDACC__)
namespace tma {

__device__ __forceinline__ void mbar_init(uint32_t bar, uint32_t arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(arrivals) : "memory");
}
// Makes the initialised barriers visible to the async proxy (TMA) before use.
__device__ __forceinline__ void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
}
// Orders this thread's earlier shared-memory accesses before later async-proxy
// writes (a TMA refilling a slot the block has just finished reading).
__device__ __forceinline__ void fence_proxy_async() { asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory"); }
// The producer's arrival: the barrier's phase completes once `bytes` have landed.
__device__ __forceinline__ void mbar_arrive_expect_tx(uint32_t bar, uint32_t bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_wait_parity(uint32_t bar, uint32_t parity) {
  uint32_t done;
  do {
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.b32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(bar), "r"(parity)
        : "memory");
  } while (!done);
}
// Box at element coordinates (x, y, z) of `map` -> shared memory at `dst`
// (128-byte aligned), completing on the mbarrier at `bar`.
__device__ __forceinline__ void load_box_3d(uint32_t dst, const CUtensorMap* map, int x, int y, int z, uint32_t bar) {
  asm volatile(
      "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], "
      "[%5];\n" ::"r"(dst),
      "l"(reinterpret_cast<uint64_t>(map)), "r"(x), "r"(y), "r"(z), "r"(bar)
      : "memory");
}

}  // namespace tma
#endif

}  // namespace ws
