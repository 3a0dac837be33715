#pragma once
// A slab's planes copied into a neighbour's halo by a kernel on the source's device,
// which stores straight into the destination: the neighbour's memory on another GPU
// (through peer access, over NVLink or PCIe) or on its own. In the slabs' step graph
// it is a kernel node, started by the graph as soon as what it waits for is done; a
// copy engine's memcpy node adds the engine's own start-up to every copy on the
// step's critical path. The bytes are the same either way.
#include <cstddef>

#include <cuda_runtime.h>

namespace ws {

// Queues the copy of `bytes` from `src` to `dst` on `stream` (of the current device,
// which holds `src` and may write `dst`).
void copy_planes_by_kernel(void* dst, const void* src, size_t bytes, cudaStream_t stream);

}  // namespace ws
