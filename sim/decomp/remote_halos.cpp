#include "decomp/remote_halos.hpp"

#include "core/cuda_check.hpp"

namespace ws {

void RemoteHalos::add(int local, int device, bool up, int peer, int tag) {
  Cut c;
  c.local = local;
  c.device = device;
  c.up = up;
  c.peer = peer;
  c.tag = tag;
  if (device >= 0 && !comm_->device_buffers()) {
    CUDA_CHECK(cudaSetDevice(device));
    c.send = PinnedBuffer<unsigned char>(bytes_);
    c.recv = PinnedBuffer<unsigned char>(bytes_);
  }
  cuts_.push_back(std::move(c));
}

void RemoteHalos::post(const FieldOf& field) {
  if (cuts_.empty()) return;
  for (auto& c : cuts_) {
    const SlabField f = field(c.local);
    void* out = c.up ? f.top_planes() : f.bottom_planes();
    void* in = c.up ? f.halo_above() : f.halo_below();
    if (f.device >= 0 && c.send.get()) {
      copy_planes(c.send.get(), -1, out, f.device, bytes_);
      out = c.send.get();
      in = c.recv.get();
    }
    comm_->post_recv(c.peer, c.tag, in, bytes_);
    comm_->post_send(c.peer, c.tag, out, bytes_);
  }
  pending_ = true;
}

void RemoteHalos::finish(const FieldOf& field, const StreamOf& stream_of) {
  if (!pending_) return;
  comm_->wait_all();
  pending_ = false;
  for (auto& c : cuts_) {
    if (c.device < 0 || !c.recv.get()) continue;
    const SlabField f = field(c.local);
    void* halo = c.up ? f.halo_above() : f.halo_below();
    if (stream_of) {
      CUDA_CHECK(cudaSetDevice(f.device));
      CUDA_CHECK(cudaMemcpyAsync(halo, c.recv.get(), bytes_, cudaMemcpyHostToDevice, stream_of(c.local)));
    } else {
      copy_planes(halo, f.device, c.recv.get(), -1, bytes_);
    }
  }
}

}  // namespace ws
