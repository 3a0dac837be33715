#include "decomp/remote_halos.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>

#include "core/cuda_check.hpp"
#include "decomp/halo_copy.hpp"

namespace ws {

namespace {

// What one side of a cut offers the other in connect(): its host and, where its slab is
// on a device, the IPC handle of its mailbox.
struct IpcOffer {
  uint32_t magic = 0x50494357u;  // "WCIP": a wavescope offer, not a stray message
  int32_t has_mailbox = 0;
  char host[64] = {};
  cudaIpcMemHandle_t handle{};
};

std::string host_name() {
  char h[64] = {};
  if (gethostname(h, sizeof h - 1) != 0) return "";
  return h;
}

}  // namespace

void RemoteHalos::add(int local, int device, bool up, int peer, int tag) {
  Cut c;
  c.local = local;
  c.device = device;
  c.up = up;
  c.peer = peer;
  c.tag = tag;
  stage_through_host(c);
  cuts_.push_back(std::move(c));
}

void RemoteHalos::stage_through_host(Cut& c) {
  if (c.device >= 0 && !comm_->device_buffers() && !c.send.get()) {
    CUDA_CHECK(cudaSetDevice(c.device));
    c.send = PinnedBuffer<unsigned char>(bytes_);
    c.recv = PinnedBuffer<unsigned char>(bytes_);
  }
}

void RemoteHalos::connect(bool device_halos) {
  if (cuts_.empty()) return;
  const std::string host = host_name();
  std::vector<IpcOffer> mine(cuts_.size()), theirs(cuts_.size());
  for (size_t i = 0; i < cuts_.size(); ++i) {
    Cut& c = cuts_[i];
    IpcOffer& o = mine[i];
    std::strncpy(o.host, host.c_str(), sizeof o.host - 1);
    if (device_halos && c.device >= 0 && !host.empty()) {
      CUDA_CHECK(cudaSetDevice(c.device));
      c.stream = std::make_unique<CudaStream>();
      c.mailbox = DeviceBuffer<unsigned char>(2 * bytes_);
      // Zeroed before it is offered: the peer's first copy into it comes after the offer.
      CUDA_CHECK(cudaMemsetAsync(c.mailbox.get(), 0, 2 * bytes_, c.stream->get()));
      CUDA_CHECK(cudaStreamSynchronize(c.stream->get()));
      const cudaError_t e = cudaIpcGetMemHandle(&o.handle, c.mailbox.get());
      if (e == cudaSuccess) o.has_mailbox = 1;
      else cudaGetLastError();
    }
    comm_->post_recv(c.peer, c.tag, &theirs[i], sizeof(IpcOffer));
    comm_->post_send(c.peer, c.tag, &o, sizeof(IpcOffer));
  }
  comm_->wait_all();
  // Each side maps the other's mailbox; a cut goes device to device only where both did.
  std::vector<int> mapped(cuts_.size(), 0), peer_mapped(cuts_.size(), 0);
  for (size_t i = 0; i < cuts_.size(); ++i) {
    Cut& c = cuts_[i];
    const IpcOffer& t = theirs[i];
    if (t.magic != IpcOffer().magic)
      throw std::runtime_error("remote halos: rank " + std::to_string(c.peer) +
                               " answered the device-halo offer of cut " + std::to_string(c.tag) +
                               " with something else (ranks out of step)");
    std::string why;
    if (!device_halos) why = "host halos asked for";
    else if (c.device < 0) why = "a slab on the CPU";
    else if (!mine[i].has_mailbox || !t.has_mailbox) why = "a slab without a device mailbox (on the CPU, or IPC refused)";
    else if (std::strncmp(mine[i].host, t.host, sizeof t.host) != 0) why = "ranks on different hosts";
    if (why.empty()) {
      c.peer_mailbox = IpcMapping::open(t.handle, c.device, why);
      if (c.peer_mailbox) why.clear();
      else why = "CUDA IPC refused (" + why + ")";
    }
    if (!why.empty() && host_reason_.empty()) host_reason_ = why;
    mapped[i] = c.peer_mailbox ? 1 : 0;
    comm_->post_recv(c.peer, c.tag, &peer_mapped[i], sizeof(int));
    comm_->post_send(c.peer, c.tag, &mapped[i], sizeof(int));
  }
  comm_->wait_all();
  for (size_t i = 0; i < cuts_.size(); ++i) {
    Cut& c = cuts_[i];
    if (c.peer_mailbox && peer_mapped[i]) {
      c.send = PinnedBuffer<unsigned char>();
      c.recv = PinnedBuffer<unsigned char>();
      continue;
    }
    if (c.peer_mailbox && host_reason_.empty()) host_reason_ = "the peer could not map this side's mailbox";
    c.peer_mailbox = IpcMapping();
    c.mailbox = DeviceBuffer<unsigned char>();
    c.stream.reset();
    stage_through_host(c);
  }
}

int RemoteHalos::device_cuts() const {
  int n = 0;
  for (const auto& c : cuts_) n += c.direct() ? 1 : 0;
  return n;
}

void RemoteHalos::post(const FieldOf& field) {
  if (cuts_.empty()) return;
  const size_t half = (size_t)(posts_ % 2) * bytes_;
  // The device-to-device copies first, all queued before any is waited for.
  for (auto& c : cuts_) {
    if (!c.direct()) continue;
    const SlabField f = field(c.local);
    CUDA_CHECK(cudaSetDevice(c.device));
    // A kernel storing into the peer's memory, as between the GPUs of one process
    // (halo_copy.hpp): no copy engine's start-up on the exchange's path.
    copy_planes_by_kernel((char*)c.peer_mailbox.get() + half, c.up ? f.top_planes() : f.bottom_planes(), bytes_,
                          c.stream->get());
  }
  for (auto& c : cuts_) {
    if (c.direct()) {
      // The planes are in the peer's mailbox before the message that says so leaves.
      CUDA_CHECK(cudaSetDevice(c.device));
      CUDA_CHECK(cudaStreamSynchronize(c.stream->get()));
      c.seq_out = posts_;
      c.seq_in = -1;
      comm_->post_recv(c.peer, c.tag, &c.seq_in, sizeof c.seq_in);
      comm_->post_send(c.peer, c.tag, &c.seq_out, sizeof c.seq_out);
      continue;
    }
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
  ++posts_;
  pending_ = true;
}

void RemoteHalos::finish(const FieldOf& field, const StreamOf& stream_of) {
  if (!pending_) return;
  comm_->wait_all();
  pending_ = false;
  const size_t half = (size_t)((posts_ - 1) % 2) * bytes_;
  for (auto& c : cuts_) {
    const bool direct = c.direct();
    if (direct && c.seq_in != c.seq_out)
      throw std::runtime_error("remote halos: rank " + std::to_string(c.peer) + " sent exchange " +
                               std::to_string(c.seq_in) + " of cut " + std::to_string(c.tag) + " where " +
                               std::to_string(c.seq_out) + " was due (ranks out of step)");
    if (c.device < 0 || (!direct && !c.recv.get())) continue;
    const SlabField f = field(c.local);
    void* halo = c.up ? f.halo_above() : f.halo_below();
    const void* from = direct ? (const void*)(c.mailbox.get() + half) : (const void*)c.recv.get();
    if (direct) {
      CUDA_CHECK(cudaSetDevice(f.device));
      const cudaStream_t s = stream_of ? stream_of(c.local) : c.stream->get();
      copy_planes_by_kernel(halo, from, bytes_, s);
      if (!stream_of) CUDA_CHECK(cudaStreamSynchronize(s));
    } else if (stream_of) {
      CUDA_CHECK(cudaSetDevice(f.device));
      CUDA_CHECK(cudaMemcpyAsync(halo, from, bytes_, cudaMemcpyHostToDevice, stream_of(c.local)));
    } else {
      copy_planes(halo, f.device, from, -1, bytes_);
    }
  }
}

}  // namespace ws
