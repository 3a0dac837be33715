// The decomposed solver's state, receivers, statistics and display slices, written to
// and gathered from its slabs (every rank takes part under MPI).
#include "decomp/decomposed_solver_impl.hpp"

#include <algorithm>

namespace ws {
namespace decomp_impl {

void DecomposedSolver::write_state(const std::vector<double>& uc, const std::vector<double>& up, long long step) {
  const CurrentDeviceScope keep(on_devices_);
  if ((int64_t)uc.size() != layout_.total || (int64_t)up.size() != layout_.total)
    throw std::invalid_argument("write_state: arrays must have layout().total elements");
  for (auto& l : locals_) {
    const Slab& sl = plan_.slabs[l.s];
    // The slab's planes with both halos: [z0 - halo, z0 + nz + halo) of the grid.
    const int64_t first = (int64_t)sl.z0 * layout_.plane;
    const int64_t count = on(l).solver->layout().total;
    std::vector<double> c(uc.begin() + first, uc.begin() + first + count);
    std::vector<double> p(up.begin() + first, up.begin() + first + count);
    l.solver->write_state(c, p, step);
  }
  steps_since_take_ = 0;
}

std::vector<std::vector<double>> DecomposedSolver::take_receiver_samples() {
  const CurrentDeviceScope keep(on_devices_);
  std::vector<std::vector<std::vector<double>>> per_slab(plan_.size());
  for (auto& l : locals_) per_slab[l.s] = on(l).solver->take_receiver_samples();
  const long long n = steps_since_take_;
  steps_since_take_ = 0;
  if (comm_ && comm_->size() > 1) {
    // Every rank contributes its slabs' samples in slab order; ranks own ascending
    // slab ranges, so the concatenation is in slab order and each list is n long.
    std::vector<double> mine;
    for (const auto& l : locals_)
      for (const auto& r : per_slab[l.s]) {
        if ((long long)r.size() != n) throw std::logic_error("slab receivers out of step");
        mine.insert(mine.end(), r.begin(), r.end());
      }
    const std::vector<double> all = comm_->allgather(mine);
    size_t at = 0;
    for (int s = 0; s < plan_.size(); ++s) {
      per_slab[s].assign(routing_.per_slab[s].size(), {});
      for (auto& r : per_slab[s]) {
        r.assign(all.begin() + at, all.begin() + at + n);
        at += n;
      }
    }
    if (at != all.size()) throw std::logic_error("gathered receiver samples do not match the slabs");
  }
  const TapSum how = backend() == "cpu" ? TapSum::Host
                     : precision_ == Precision::Float ? TapSum::DeviceFloat
                                                      : TapSum::DeviceDouble;
  return combine_receivers(routing_, per_slab, how);
}

FieldStats DecomposedSolver::field_stats() {
  const CurrentDeviceScope keep(on_devices_);
  return grid_stats([&](LocalSlab& l) { return on(l).solver->field_stats(); }, true);
}

FieldStats DecomposedSolver::queued_field_stats(int slot) {
  return grid_stats([slot](LocalSlab& l) { return l.cuda->queued_field_stats(slot); }, false);
}

FieldStats DecomposedSolver::grid_stats(const std::function<FieldStats(LocalSlab&)>& slab_stats, bool all_ranks) {
  double sum = 0.0, peak = 0.0;
  bool finite = true;
  for (auto& l : locals_) {
    const FieldStats f = slab_stats(l);
    sum += f.mean * (double)l.solver->layout().interior_points();
    peak = std::max(peak, f.peak);
    finite = finite && f.finite;
  }
  if (all_ranks && comm_) comm_->allreduce_stats(sum, peak, finite);
  FieldStats f;
  f.finite = finite;
  f.mean = sum / (double)layout_.interior_points();
  f.peak = finite ? peak : std::numeric_limits<double>::infinity();
  return f;
}

FieldView DecomposedSolver::current_field() const {
  const CurrentDeviceScope keep(on_devices_);
  auto* self = const_cast<DecomposedSolver*>(this);
  std::vector<double> uc;
  self->gather_state(uc, nullptr);
  if (precision_ == Precision::Float) {
    self->view_f_.assign(uc.begin(), uc.end());
    return {view_f_.data(), precision_, layout_, false};
  }
  self->view_d_ = std::move(uc);
  return {view_d_.data(), precision_, layout_, false};
}

FieldView DecomposedSolver::slice_field(int i, int j, int k) const {
  const SliceAt at = clamp_slice(layout_, SliceAt{i, j, k});
  const bool all_on_devices = std::all_of(locals_.begin(), locals_.end(), [](const LocalSlab& l) { return l.cuda; });
  if (all_on_devices && !(comm_ && comm_->size() > 1)) return const_cast<DecomposedSolver*>(this)->slices_on_device(at);
  const CurrentDeviceScope keep(on_devices_);
  auto* self = const_cast<DecomposedSolver*>(this);
  std::vector<double> mine;
  for (auto& l : self->locals_) {
    self->on(l);
    if (l.cuda) l.cuda->synchronize();
    pack_slab_slices(l.solver->current_field(), plan_.slabs[l.s], at, mine);
  }
  if (comm_ && comm_->size() > 1) mine = comm_->allgather(mine);
  void* out = nullptr;
  if (precision_ == Precision::Float) {
    if ((int64_t)view_f_.size() != layout_.total) self->view_f_.assign(layout_.total, 0.0f);
    out = self->view_f_.data();
  } else {
    if ((int64_t)view_d_.size() != layout_.total) self->view_d_.assign(layout_.total, 0.0);
    out = self->view_d_.data();
  }
  size_t used = 0;
  for (const Slab& s : plan_.slabs) {
    if (used + slab_slice_values(layout_, s, at) > mine.size())
      throw std::logic_error("gathered slices do not match the slabs");
    used += unpack_slab_slices(mine.data() + used, layout_, s, at, precision_, out);
  }
  if (used != mine.size()) throw std::logic_error("gathered slices do not match the slabs");
  return {out, precision_, layout_, false};
}

// Every slab on a device, one process: each slab packs its slice points on its GPU behind
// its steps and copies them to the caller's device (the display's), where they are
// scattered into a grid array that keeps its zero halo; the view is that device array.
// Nothing waits on the host: the scatter runs on the display device's legacy stream (the
// views' stream for slabs) after the slabs' copies, and each slab's next pack waits for
// the views' reads of the previous slices, queued on that stream before this call.
FieldView DecomposedSolver::slices_on_device(const SliceAt& at) {
  int display = 0;
  CUDA_CHECK(cudaGetDevice(&display));
  const CurrentDeviceScope keep(on_devices_);
  const size_t elem = precision_ == Precision::Float ? sizeof(float) : sizeof(double);
  std::vector<size_t> offset(locals_.size() + 1, 0);
  for (size_t q = 0; q < locals_.size(); ++q)
    offset[q + 1] = offset[q] + slab_slice_values(layout_, plan_.slabs[locals_[q].s], at) * elem;
  CUDA_CHECK(cudaSetDevice(display));
  if (slice_device_ != display || slice_grid_.size() < (size_t)layout_.total * elem ||
      slice_packed_.size() < offset.back()) {
    CUDA_CHECK(cudaDeviceSynchronize());  // the views may still read the old arrays
    slice_grid_ = DeviceBuffer<unsigned char>((size_t)layout_.total * elem);
    CUDA_CHECK(cudaMemset(slice_grid_.get(), 0, slice_grid_.size()));  // the halo stays zero
    slice_packed_ = DeviceBuffer<unsigned char>(offset.back() + (size_t)layout_.plane * elem);  // room for plane k
    slice_read_ = std::make_unique<CudaEvent>();
    slice_device_ = display;
  }
  slice_read_->record(cudaStreamLegacy);  // behind the views' reads of the last slices
  for (size_t q = 0; q < locals_.size(); ++q) {
    LocalSlab& l = locals_[q];
    on(l);
    const size_t bytes = offset[q + 1] - offset[q];
    if (l.slice_packed.size() < bytes) l.slice_packed = DeviceBuffer<unsigned char>(bytes + (size_t)layout_.plane * elem);
    if (!l.slice_copied) l.slice_copied = std::make_unique<CudaEvent>();
    const cudaStream_t st = l.cuda->stream();
    CUDA_CHECK(cudaStreamWaitEvent(st, slice_read_->get(), 0));
    pack_slab_slices_on_device(l.solver->current_field(), plan_.slabs[l.s], at, l.slice_packed.get(), st);
    CUDA_CHECK(cudaMemcpyPeerAsync(slice_packed_.get() + offset[q], display, l.slice_packed.get(), l.device, bytes, st));
    l.slice_copied->record(st);
  }
  CUDA_CHECK(cudaSetDevice(display));
  for (const auto& l : locals_) CUDA_CHECK(cudaStreamWaitEvent(cudaStreamLegacy, l.slice_copied->get(), 0));
  for (size_t q = 0; q < locals_.size(); ++q)
    unpack_slab_slices_on_device(slice_packed_.get() + offset[q], layout_, plan_.slabs[locals_[q].s], at, precision_,
                                 slice_grid_.get(), cudaStreamLegacy);
  return {slice_grid_.get(), precision_, layout_, true};
}

void DecomposedSolver::gather_state(std::vector<double>& uc, std::vector<double>* up) {
  std::vector<double> mine_c, mine_p;
  for (auto& l : locals_) {
    std::vector<double> c, p;
    on(l).solver->read_state(c, p);
    const int64_t from = (int64_t)layout_.halo * layout_.plane;
    const int64_t count = (int64_t)plan_.slabs[l.s].nz * layout_.plane;
    mine_c.insert(mine_c.end(), c.begin() + from, c.begin() + from + count);
    if (up) mine_p.insert(mine_p.end(), p.begin() + from, p.begin() + from + count);
  }
  if (comm_ && comm_->size() > 1) {
    mine_c = comm_->allgather(mine_c);
    if (up) mine_p = comm_->allgather(mine_p);
  }
  const int64_t at = (int64_t)layout_.halo * layout_.plane;
  uc.assign(layout_.total, 0.0);
  std::copy(mine_c.begin(), mine_c.end(), uc.begin() + at);
  if (up) {
    up->assign(layout_.total, 0.0);
    std::copy(mine_p.begin(), mine_p.end(), up->begin() + at);
  }
}

}  // namespace decomp_impl
}  // namespace ws
