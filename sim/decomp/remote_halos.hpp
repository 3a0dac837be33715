#pragma once
// The halo planes one process exchanges with other MPI ranks: a message each way per cut
// between a local slab and a slab of another rank. A slab on a device goes through
// pinned host buffers unless the MPI library takes device pointers. The decomposed
// solver posts them after its edge slabs' update and finishes them after the rest.
#include <cstddef>
#include <functional>
#include <vector>

#include "cuda/device_buffer.hpp"
#include "decomp/halo_planes.hpp"
#include "decomp/slab_comm.hpp"

namespace ws {

class RemoteHalos {
 public:
  // The u^n of local slab `local` (an index of the caller's).
  using FieldOf = std::function<SlabField(int local)>;

  RemoteHalos(SlabComm* comm, size_t halo_bytes) : comm_(comm), bytes_(halo_bytes) {}

  // The cut between local slab `local` (on `device`, -1: the host) and rank `peer`'s slab
  // above it (up) or below it; both ranks name it by the same `tag`.
  void add(int local, int device, bool up, int peer, int tag);
  size_t size() const { return cuts_.size(); }
  bool pending() const { return pending_; }

  // Posts every cut's receive into the halo and send of the planes next to it (staged
  // copies are made here, synchronously: the edge slabs' streams are idle by now).
  void post(const FieldOf& field);
  // Lets the posted messages move while the interior runs (SlabComm::progress).
  void progress() { comm_->progress(); }
  // Waits for the messages and copies the staged halos onto their devices: at once, or
  // queued on stream_of(local) (from pinned buffers; the next post() comes after the
  // caller has waited for that stream, so the buffers are not reused before).
  using StreamOf = std::function<cudaStream_t(int local)>;
  void finish(const FieldOf& field, const StreamOf& stream_of = nullptr);

 private:
  struct Cut {
    int local = 0, device = -1;
    bool up = false;
    int peer = 0, tag = 0;
    PinnedBuffer<unsigned char> send, recv;  // host staging (empty: posted from the field itself)
  };
  SlabComm* comm_;
  size_t bytes_;
  std::vector<Cut> cuts_;
  bool pending_ = false;
};

}  // namespace ws
