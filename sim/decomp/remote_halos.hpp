#pragma once
// The halo planes one process exchanges with other MPI ranks: a message each way per cut
// between a local slab and a slab of another rank. The decomposed solver posts them after
// its edge slabs' update and finishes them after the rest.
//
// Between two slabs on devices of one host the planes go device to device (connect()):
// each side maps the other's mailbox (two halos' worth on the receiving device, one per
// parity of the exchange) through CUDA IPC, copies its edge planes straight into it, and
// only a sequence number travels as an MPI message, to say they are there. Elsewhere (a
// slab on the host, another host, IPC refused) the planes themselves are the messages,
// staged through pinned host buffers unless the MPI library takes device pointers.
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cuda/device_buffer.hpp"
#include "decomp/halo_planes.hpp"
#include "decomp/ipc_mapping.hpp"
#include "decomp/slab_comm.hpp"

namespace ws {

class RemoteHalos {
 public:
  // The u^n of local slab `local` (an index of the caller's).
  using FieldOf = std::function<SlabField(int local)>;

  RemoteHalos(SlabComm* comm, size_t halo_bytes) : comm_(comm), bytes_(halo_bytes) {}
  // Unmaps the peers' mailboxes and, once every peer has said it unmapped this side's,
  // frees them (disconnect); while an exception unwinds, leaves them to the process's end.
  ~RemoteHalos();
  RemoteHalos(RemoteHalos&& o) noexcept;
  RemoteHalos& operator=(RemoteHalos&& o) noexcept;
  RemoteHalos(const RemoteHalos&) = delete;
  RemoteHalos& operator=(const RemoteHalos&) = delete;

  // The cut between local slab `local` (on `device`, -1: the host) and rank `peer`'s slab
  // above it (up) or below it; both ranks name it by the same `tag`.
  void add(int local, int device, bool up, int peer, int tag);
  size_t size() const { return cuts_.size(); }
  bool pending() const { return pending_; }

  // Pairs every cut with its peer's: device to device where both slabs are on devices of
  // this host, `device_halos` is set on both sides and each maps the other's mailbox
  // (CUDA IPC); else through messages. Collective over the cuts' peers: every rank calls
  // it once, after its add()s and before the first post(); it throws only for MPI errors.
  void connect(bool device_halos);
  // How connect() maps a peer's mailbox: IpcMapping::open unless replaced (before
  // connect()), as the tests do to refuse one side's mapping and not the other's.
  using IpcOpener = std::function<IpcMapping(const cudaIpcMemHandle_t& handle, int device, std::string& why)>;
  void set_ipc_opener(IpcOpener open) { open_ = std::move(open); }
  // Undoes connect() for the device-to-device cuts, collectively like it (the destructor).
  void disconnect() noexcept;
  // How the cuts' planes travel: "" (no cut), "device" (every cut device to device),
  // "host: " and why, or "mixed: " with how many cuts go which way
  // (DecompProbe::remote_halo_path).
  std::string path() const;

  // Posts every cut's exchange: the receive into the halo and the send of the planes next
  // to it, or, device to device, the planes copied into the peer's mailbox and a sequence
  // number each way (staged and device copies are made here, synchronously: the edge
  // slabs' streams are idle by now).
  void post(const FieldOf& field);
  // Lets the posted messages move while the interior runs (SlabComm::progress).
  void progress() { comm_->progress(); }
  // Waits for the messages and copies the staged or delivered halos into the slabs: at
  // once, or queued on stream_of(local) (the next post() comes after the caller has waited
  // for that stream, so neither a pinned buffer nor a mailbox's parity is reused before).
  using StreamOf = std::function<cudaStream_t(int local)>;
  void finish(const FieldOf& field, const StreamOf& stream_of = nullptr);

 private:
  struct Cut {
    int local = 0, device = -1;
    bool up = false;
    int peer = 0, tag = 0;
    PinnedBuffer<unsigned char> send, recv;  // host staging (empty: posted from the field itself)
    // Device to device: this side's mailbox (the peer writes parity p at p * bytes), the
    // peer's mapped here, a stream for the copies into it, and the exchange's sequence
    // numbers (the messages' only content).
    DeviceBuffer<unsigned char> mailbox;
    IpcMapping peer_mailbox;
    std::unique_ptr<CudaStream> stream;
    long long seq_out = 0, seq_in = -1;
    bool direct() const { return (bool)peer_mailbox; }
  };
  void stage_through_host(Cut& c);
  int device_cuts() const;  // cuts whose planes go device to device
  // Unmaps the peers' mailboxes and leaves this side's allocated to the process's end: for
  // when the peers cannot be told (ranks out of step, an exception unwinding).
  void abandon_mailboxes() noexcept;
  SlabComm* comm_;
  size_t bytes_;
  IpcOpener open_ = &IpcMapping::open;
  std::vector<Cut> cuts_;
  bool pending_ = false;
  long long posts_ = 0;  // exchanges posted (the sequence number; its parity picks the mailbox half)
  std::string host_reason_;  // why a cut takes the host path (the first cut's reason)
  bool connected_ = false;  // some cut goes device to device (disconnect() has work)
};

// path() as a phrase for the solver's description and the benchmark's header.
std::string halo_path_text(const std::string& path);

}  // namespace ws
