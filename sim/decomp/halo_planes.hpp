#pragma once
// The four blocks of planes a slab exchanges, as byte addresses in its padded array
// (z outermost, so each block is `halo` whole planes, contiguous), and the copy of
// one block between host memory and a device.
#include <cstddef>
#include <vector>

#include "core/field_layout.hpp"
#include "core/precision.hpp"

namespace ws {

inline size_t halo_bytes(const FieldLayout& L, Precision p) { return (size_t)L.halo * L.plane * bytes_of(p); }

struct SlabField {
  void* data = nullptr;  // u^n, padded array
  FieldLayout layout;
  int device = -1;       // CUDA device holding it, -1: host memory
  int elem_bytes = 4;

  // First byte of interior plane k (k in [-halo, nz + halo)).
  void* plane(int k) const {
    return (char*)data + (size_t)(k + layout.halo) * layout.plane * elem_bytes;
  }
  void* halo_below() const { return plane(-layout.halo); }
  void* bottom_planes() const { return plane(0); }
  void* top_planes() const { return plane(layout.nz - layout.halo); }
  void* halo_above() const { return plane(layout.nz); }
};

// Copies `bytes` between host memory and a device (-1: host), synchronously: the
// staging of MPI messages. Copies between slabs on devices are queued by the
// decomposed solver on its copy streams (halo_copy.hpp, or cudaMemcpyPeerAsync).
void copy_planes(void* dst, int dst_device, const void* src, int src_device, size_t bytes);

// Peer access between every pair of these devices that supports it (NVLink or PCIe),
// so that copies between their slabs go device to device (and copy kernels may store
// into the peer); a pair without it still copies, through the host. Leaves another
// device current.
void enable_peer_access(const std::vector<int>& devices);

}  // namespace ws
