#include "decomp/remote_halos.hpp"

#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <utility>

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
  std::vector<std::string> why(cuts_.size());
  // Everything that can fail here is done before the first message, and a failure makes
  // the offer an empty one: no rank leaves the others waiting.
  for (size_t i = 0; i < cuts_.size(); ++i) {
    Cut& c = cuts_[i];
    IpcOffer& o = mine[i];
    std::strncpy(o.host, host.c_str(), sizeof o.host - 1);
    if (!device_halos) why[i] = "host halos asked for";
    else if (c.device < 0) why[i] = "a slab on the CPU";
    else if (host.empty()) why[i] = "this host has no name to compare";
    if (!why[i].empty()) continue;
    try {
      CUDA_CHECK(cudaSetDevice(c.device));
      // The copies into the peer's mailbox run beside the interior's update: ahead of it.
      c.stream = std::make_unique<CudaStream>(CudaStream::highest_priority());
      c.mailbox = DeviceBuffer<unsigned char>(2 * bytes_);
      // Zeroed before it is offered: the peer's first copy into it comes after the offer.
      CUDA_CHECK(cudaMemsetAsync(c.mailbox.get(), 0, 2 * bytes_, c.stream->get()));
      CUDA_CHECK(cudaStreamSynchronize(c.stream->get()));
      CUDA_CHECK(cudaIpcGetMemHandle(&o.handle, c.mailbox.get()));
      o.has_mailbox = 1;
    } catch (const std::exception& e) {
      cudaGetLastError();
      c.mailbox = DeviceBuffer<unsigned char>();
      c.stream.reset();
      why[i] = std::string("no device mailbox here (") + e.what() + ")";
    }
  }
  for (size_t i = 0; i < cuts_.size(); ++i) {
    comm_->post_recv(cuts_[i].peer, cuts_[i].tag, &theirs[i], sizeof(IpcOffer));
    comm_->post_send(cuts_[i].peer, cuts_[i].tag, &mine[i], sizeof(IpcOffer));
  }
  comm_->wait_all();
  // Each side maps the other's mailbox; a cut goes device to device only where both did.
  std::vector<int> mapped(cuts_.size(), 0), peer_mapped(cuts_.size(), 0);
  std::vector<bool> offered(cuts_.size(), false);  // both sides offered a mailbox
  for (size_t i = 0; i < cuts_.size(); ++i) {
    Cut& c = cuts_[i];
    const IpcOffer& t = theirs[i];
    const bool valid = t.magic == IpcOffer().magic;
    offered[i] = valid && mine[i].has_mailbox && t.has_mailbox;
    if (why[i].empty()) {
      if (!valid) why[i] = "rank " + std::to_string(c.peer) + " answered with something else (ranks out of step)";
      else if (!t.has_mailbox) why[i] = "rank " + std::to_string(c.peer) + "'s slab has no device mailbox";
      else if (std::strncmp(mine[i].host, t.host, sizeof t.host) != 0) why[i] = "ranks on different hosts";
    }
    if (why[i].empty()) {
      std::string cuda;
      c.peer_mailbox = open_(t.handle, c.device, cuda);
      if (!c.peer_mailbox) why[i] = "CUDA IPC refused (" + cuda + ")";
    }
    mapped[i] = c.peer_mailbox ? 1 : 0;
    comm_->post_recv(c.peer, c.tag, &peer_mapped[i], sizeof(int));
    comm_->post_send(c.peer, c.tag, &mapped[i], sizeof(int));
  }
  comm_->wait_all();
  // Where one side mapped and the other did not, the mapping is closed and both sides say
  // so before either frees its mailbox (freeing an allocation another process still maps
  // is undefined).
  std::vector<int> closed(cuts_.size(), 1), peer_closed(cuts_.size(), 0);
  bool unwind = false;
  for (size_t i = 0; i < cuts_.size(); ++i) {
    Cut& c = cuts_[i];
    if (mapped[i] && peer_mapped[i]) continue;
    if (mapped[i]) why[i] = "rank " + std::to_string(c.peer) + " could not map this side's mailbox";
    c.peer_mailbox = IpcMapping();
    if (!offered[i]) continue;
    comm_->post_recv(c.peer, c.tag, &peer_closed[i], sizeof(int));
    comm_->post_send(c.peer, c.tag, &closed[i], sizeof(int));
    unwind = true;
  }
  if (unwind) comm_->wait_all();
  for (size_t i = 0; i < cuts_.size(); ++i) {
    Cut& c = cuts_[i];
    if (c.direct()) continue;
    if (host_reason_.empty()) host_reason_ = why[i];
    c.mailbox = DeviceBuffer<unsigned char>();
    c.stream.reset();
    stage_through_host(c);
  }
  connected_ = device_cuts() > 0;
}

void RemoteHalos::disconnect() noexcept {
  if (!connected_) return;
  connected_ = false;
  try {
    if (pending_) comm_->wait_all();
    pending_ = false;
    // Every mapping closed, and the peers told, before any mailbox is freed.
    std::vector<int> closed(cuts_.size(), 1), peer_closed(cuts_.size(), 0);
    for (size_t i = 0; i < cuts_.size(); ++i) {
      Cut& c = cuts_[i];
      if (!c.direct()) continue;
      c.peer_mailbox = IpcMapping();
      comm_->post_recv(c.peer, c.tag, &peer_closed[i], sizeof(int));
      comm_->post_send(c.peer, c.tag, &closed[i], sizeof(int));
    }
    comm_->wait_all();
    for (auto& c : cuts_) {
      c.mailbox = DeviceBuffer<unsigned char>();
      c.stream.reset();
    }
  } catch (...) {
    // The ranks are out of step (or MPI failed): leaking the mailboxes to the process's
    // end is safer than freeing memory a peer may still map.
    abandon_mailboxes();
  }
}

void RemoteHalos::abandon_mailboxes() noexcept {
  for (auto& c : cuts_) {
    c.peer_mailbox = IpcMapping();
    c.mailbox.release();
  }
}

RemoteHalos::~RemoteHalos() {
  // On the normal path every rank destroys its solver in step; while an exception unwinds
  // one rank, its peers may never come, so the mailboxes are left to the process's end.
  if (std::uncaught_exceptions() == 0) disconnect();
  else abandon_mailboxes();
}

RemoteHalos::RemoteHalos(RemoteHalos&& o) noexcept
    : comm_(o.comm_),
      bytes_(o.bytes_),
      open_(std::move(o.open_)),
      cuts_(std::move(o.cuts_)),
      pending_(std::exchange(o.pending_, false)),
      posts_(o.posts_),
      host_reason_(std::move(o.host_reason_)),
      connected_(std::exchange(o.connected_, false)) {
  o.cuts_.clear();
}

RemoteHalos& RemoteHalos::operator=(RemoteHalos&& o) noexcept {
  if (this != &o) {
    disconnect();
    comm_ = o.comm_;
    bytes_ = o.bytes_;
    open_ = std::move(o.open_);
    cuts_ = std::move(o.cuts_);
    o.cuts_.clear();
    pending_ = std::exchange(o.pending_, false);
    posts_ = o.posts_;
    host_reason_ = std::move(o.host_reason_);
    connected_ = std::exchange(o.connected_, false);
  }
  return *this;
}

int RemoteHalos::device_cuts() const {
  int n = 0;
  for (const auto& c : cuts_) n += c.direct() ? 1 : 0;
  return n;
}

std::string RemoteHalos::path() const {
  if (cuts_.empty()) return "";
  const int direct = device_cuts();
  if (direct == (int)cuts_.size()) return "device";
  if (direct > 0)
    return "mixed: " + std::to_string(direct) + " of " + std::to_string(cuts_.size()) +
           " cuts device to device, the others: " + host_reason_;
  return "host: " + host_reason_;
}

std::string halo_path_text(const std::string& path) {
  return path == "device" ? "device to device (CUDA IPC)" : path;
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
