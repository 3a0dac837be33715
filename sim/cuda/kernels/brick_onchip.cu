// brick_onchip's registry entry and launches: the grid's cut (brick_layout.hpp, cached per
// grid, device and room), a launch's memory besides the fields (the faces' mailboxes, the
// receivers' tap values, the events form's scratch), the form each room needs, and the
// receivers' sums after each run. The kernel and its design are in brick_kernel.cuh, its
// events form in brick_events.cuh.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>

#include "core/cuda_check.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/brick_kernel.cuh"
#include "cuda/kernels/brick_layout.hpp"
#include "cuda/kernels/multi_step_one.hpp"
#include "cuda/kernels/onchip_planes.cuh"
#include "cuda/kernels/seven_point.hpp"
#include "cuda/kernels/tagged_mailbox.cuh"
#include "cuda/step_graph.hpp"
#include "cuda/step_io.hpp"
#include "cuda/tiled_step.hpp"

namespace ws {

namespace {

using namespace brick;
using onchip::DeviceFacts;
using onchip::TaggedWord;

// Receiver q's sample of step s of the run into slot slot0 + s: its taps' values summed in
// tap order in double, as receiver_sample (step_io.hpp) sums them from the field.
template <class T>
__global__ void brick_tap_sums_kernel(const T* tap_value, int run, int ntaps, const DeviceTap* taps,
                                      const int* tap_start, int nrec, T* rec_buf, long long slot0,
                                      const StepCounter* counter) {
  const long long slot = (counter ? counter->slot : 0) + slot0;
  for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < run * nrec; x += blockDim.x * gridDim.x) {
    const int s = x / nrec, q = x % nrec;
    const T* u = tap_value + (size_t)s * ntaps;
    double v = 0.0;
    for (int e = tap_start[q]; e < tap_start[q + 1]; ++e) v += taps[e].weight * (double)u[e];
    rec_buf[(slot + s) * nrec + q] = T(v);
  }
}

// A launch's memory besides the fields (onchip::LaunchScratch): both parities of every
// brick's faces in tagged words and a run's tap values.
constexpr int kScratchFields = 2;  // KernelVariant::multi_scratch_fields

template <class T>
struct BrickScratch {
  // node_events: the events form's (BrickEvents), else 0: its counter, the inner columns'
  // masks where shared memory has no room for them, and a global slot for every event.
  // nsrc: the sources whose values a run of up to kTapRunSteps steps adds (the step data's
  // own buffer holds kSourceValueSteps steps of them, and each launch loads the bricks and
  // lists their events again: the model advances this kernel in chunks of
  // Watchdog::kLongRunInterval steps, KernelVariant::multi_long_runs).
  BrickScratch(const MultiStepArgs<T>& a, const BrickGrid& g, int ntaps, int nsrc, bool events, int node_events,
               cudaStream_t stream)
      : mem(a.scratch, kScratchFields * (size_t)a.layout.total * sizeof(T),
            {mail_bytes(g), (size_t)kTapRunSteps * ntaps * sizeof(T), events ? event_bytes(g, node_events) : 0,
             (size_t)kTapRunSteps * nsrc * sizeof(T)},
            stream),
        mail(mem.part<Word>(0)),
        tap_value(mem.part<T>(1)),
        src_value(mem.part<T>(3)) {
    if (!events) return;
    unsigned char* p = mem.part<unsigned char>(2);
    counter = reinterpret_cast<int*>(p);
    masks = reinterpret_cast<unsigned*>(p + 256);
    const size_t n = (size_t)node_events;
    slots.cd = reinterpret_cast<T*>(p + 256 + masks_bytes(g));
    slots.cl = slots.cd + n;
    slots.node = reinterpret_cast<int*>(slots.cl + n);
  }

  using Word = typename TaggedWord<T>::Word;
  static size_t mail_bytes(const BrickGrid& g) { return 2 * (size_t)g.blocks() * 6 * g.face_max * sizeof(Word); }
  static size_t masks_bytes(const BrickGrid& g) { return (size_t)g.blocks() * brick_mask_bytes(g); }
  static size_t event_bytes(const BrickGrid& g, int node_events) {
    return 256 + masks_bytes(g) + (size_t)node_events * kEventSlotBytes<T> + 16;
  }

  onchip::LaunchScratch mem;
  Word* mail;
  T* tap_value;
  T* src_value;
  int* counter = nullptr;
  unsigned* masks = nullptr;
  EventSlots<T> slots{};
};

std::string block_error_brick(const Stencil&, Precision, const BlockShape& b) {
  if (b.x != 32 || b.y != 32 || b.z != 1)
    return "block " + std::to_string(b.x) + "x" + std::to_string(b.y) + "x" + std::to_string(b.z) +
           " is not allowed: brick_onchip runs blocks of 32x32x1 (1024 threads; the bricks, not the block, shape "
           "its work)";
  return "";
}

std::string grid_error_brick(int nx, int ny, int nz, Precision p) {
  try {
    const DeviceFacts dev = onchip::device_facts();
    FieldLayout L;
    L.nx = nx, L.ny = ny, L.nz = nz;
    (void)brick_layout(L, p, dev.sms, dev.smem_optin);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}


// brick_layout's cut, found once per grid, precision, device and room (the listing of its
// slots, 0 for none), and the slots of its fullest brick: the search goes over every cut of
// up to one brick per SM, and a launch comes with every advance (each frame of the GUI's
// loop). A grid no cut holds throws each time, uncached.
struct BrickCut {
  BrickGrid g;
  int most_slots = 0;
};
BrickCut cached_layout(const FieldLayout& L, Precision p, const DeviceFacts& dev, long long listing_id = 0,
                       const BrickSlots* slots = nullptr) {
  static std::mutex m;
  static std::map<std::tuple<int, int, int, int, int, size_t, long long>, BrickCut> cache;
  const auto key = std::make_tuple(L.nx, L.ny, L.nz, (int)p, dev.sms, dev.smem_optin, slots ? listing_id : 0LL);
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find(key);
  if (it == cache.end()) {
    BrickCut c;
    c.g = brick_layout(L, p, dev.sms, dev.smem_optin, slots);
    if (slots) c.most_slots = most_slots_in_a_brick(c.g, *slots);
    if (cache.size() >= 64) cache.erase(cache.begin());
    it = cache.emplace(key, c).first;
  }
  return it->second;
}

// Queues the runs of `a` with one form of the kernel: its shared memory set, its residency
// checked, the mailboxes' words zeroed before each run (no tag left from before), the sources' values before it and the taps'
// sums after it. Returns the launches queued.
template <class T, class Kernel, class Classes, class Events>
int run_bricks(Kernel kernel_fn, const Classes& classes, Events events, const MultiStepArgs<T>& a,
               const TiledStepData<T>& io, const BrickCut& cut, T w, bool values, int ntaps, const DeviceFacts& dev,
               cudaStream_t stream) {
  const BrickGrid& g = cut.g;
  const void* kernel = (const void*)kernel_fn;
  constexpr bool kEvents = !std::is_empty_v<Events>;
  size_t smem = brick_smem_bytes(g, (int)sizeof(T));
  if constexpr (kEvents) {
    // In the shared memory the brick leaves (BrickEvents): the inner columns' masks, then
    // as many slots as fit.
    size_t offset = (smem + 15) / 16 * 16;
    events.mask_words = brick_mask_words(g);
    const size_t masks = brick_mask_bytes(g);
    if (offset + masks <= dev.smem_optin) {
      events.masks_offset = (int)offset;
      offset += masks;
      smem = offset;
    }
    const size_t room = dev.smem_optin > offset ? dev.smem_optin - offset : 0;
    const size_t most = (size_t)cut.most_slots;
    int cap = (int)std::min<size_t>(std::min<size_t>(kMaxListedEvents, (most + 7) / 8 * 8), room / kEventSlotBytes<T>) & ~7;
    // A test's bound on the slots in shared memory (brick_onchip_gpu_test.cpp), so that a
    // small grid's bricks take their slots from the global region too.
    if (const char* c = std::getenv("WS_BRICK_SMEM_EVENT_SLOTS")) cap = std::min(cap, std::max(0, std::atoi(c))) & ~7;
    events.cap = cap;
    events.smem_offset = (int)offset;
    if (cap > 0) smem = offset + (size_t)cap * kEventSlotBytes<T>;
  }
  onchip::ensure_resident(kernel, g.threads, smem, g.blocks(), dev, "brick_onchip");
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeCooperative;
  attr[0].val.cooperative = 1;
  cudaLaunchConfig_t cfg{};
  cfg.gridDim = dim3((unsigned)g.blocks());
  cfg.blockDim = dim3((unsigned)g.threads);
  cfg.dynamicSmemBytes = smem;
  cfg.stream = stream;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  const BrickScratch<T> parts(a, g, ntaps, values ? io.nsrc : 0, kEvents, kEvents ? io.node_events : 0, stream);
  if constexpr (kEvents) {
    events.counter = parts.counter;
    events.masks = parts.masks;
    events.global = parts.slots;
  }
  // Runs of at most kTapRunSteps steps (the scratch holds a run's tap values and sources'
  // values).
  int launches = 0;
  for (int s0 = 0; s0 < a.steps; s0 += kTapRunSteps) {
    MultiStepArgs<T> part = a;
    part.steps = std::min(kTapRunSteps, a.steps - s0);
    if (s0 % 2) std::swap(part.cur, part.prev);  // kTapRunSteps is even: never
    TiledStepData<T> d = io;
    d.step0 = io.step0 + s0;
    d.slot0 = io.slot0 + s0;
    if (values) {
      d.src_value = parts.src_value;
      d.src_value_steps = kTapRunSteps;
    }
    launches += onchip::launch_source_runs(part, d, values, stream, [&](const TiledStepData<T>& rd, T* c, T* p,
                                                                        int run) {
      CUDA_CHECK(cudaMemsetAsync(parts.mail, 0, BrickScratch<T>::mail_bytes(g), stream));
      if (kEvents) CUDA_CHECK(cudaMemsetAsync(parts.counter, 0, sizeof(int), stream));
      BrickIo<T> bio;
      bio.src = rd.src;
      bio.src_value = rd.src_value;
      bio.nsrc = values ? rd.nsrc : 0;
      bio.taps = rd.taps;
      bio.ntaps = ntaps;
      bio.tap_value = parts.tap_value;
      CUDA_CHECK(cudaLaunchKernelEx(&cfg, kernel_fn, c, p, run, a.layout, w, g, bio, classes, events, parts.mail));
      if (ntaps > 0) {
        const int n = run * rd.nrec;
        brick_tap_sums_kernel<T><<<std::min((n + 255) / 256, 1024), 256, 0, stream>>>(
            parts.tap_value, run, ntaps, rd.taps, rd.tap_start, rd.nrec, rd.rec_buf, rd.slot0, rd.counter);
        CUDA_CHECK_LAUNCH();
      }
    });
  }
  return launches;
}

template <class T>
int launch_multi(const MultiStepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  if (a.steps <= 0) return 0;
  const std::string why = block_error_brick(*a.stencil, precision_of<T>(), o.block);
  if (!why.empty()) throw std::invalid_argument("kernel 'brick_onchip': " + why);
  const DeviceFacts dev = onchip::device_facts();
  const T w = seven_point_coeffs(StepArgs<T>{a.prev, a.cur, a.layout, a.stencil, a.lambda2}).neighbour;
  TiledStepData<T> io;
  if (a.io) io = *a.io;
  const bool values = io.nsrc > 0;
  if (values && (!io.src_value || io.src_value_steps <= 0))
    throw std::invalid_argument("kernel 'brick_onchip': the step data has no room for the sources' values");
  const int ntaps = io.nrec > 0 ? io.ntaps : 0;
  if (io.nrec > 0 && ntaps <= 0)
    throw std::invalid_argument("kernel 'brick_onchip': the step data's receivers do not say how many taps they have");
  // Walls by face class; with events where the classes get nodes wrong (obstacles, walls
  // whose classes' nodes differ), on a cut that spreads their slots.
  const bool walls = a.io && (a.io->bnd_count > 0 || a.io->solid_count > 0);
  const bool events = walls && io.node_events > 0;
  if (events && !io.cols.start)
    throw std::invalid_argument("kernel 'brick_onchip': the step data has no column events for the room's obstacles");
  const std::shared_ptr<const BrickSlots> slots = events ? room_slots(io.cols, io.listing_id, a.layout) : nullptr;
  const BrickCut cut = cached_layout(a.layout, precision_of<T>(), dev, io.listing_id, slots.get());
  const BrickGrid& g = cut.g;
  if ((long long)g.blocks() * 6 * g.face_max >= (1LL << kFaceShift))
    throw std::invalid_argument("kernel 'brick_onchip': " + std::to_string(g.blocks()) + " bricks' mailboxes of " +
                                std::to_string(g.face_max) + " points a face pass its offsets' bits");
  BrickClasses<T, true> classes;
  if (walls)
    for (int c = 0; c < kFaceClasses; ++c) classes.table[c] = io.class_table[c];
  BrickEvents<T, true> ev;
  ev.cols = io.cols;
  // The form the bricks need (large, small, small at half the threads), without walls, with
  // them by face class, or with events as well.
  auto run_form = [&](auto no_walls, auto with_walls, auto with_events) {
    if (events) return run_bricks(with_events, classes, ev, a, io, cut, w, values, ntaps, dev, stream);
    if (walls) return run_bricks(with_walls, classes, BrickEvents<T, false>{}, a, io, cut, w, values, ntaps, dev, stream);
    return run_bricks(no_walls, BrickClasses<T, false>{}, BrickEvents<T, false>{}, a, io, cut, w, values, ntaps, dev,
                      stream);
  };
  if (g.large)
    return run_form(brick_onchip_kernel<T, kBrickThreads, kLarge.shell, kLarge.cols, kLarge.faces, false, false>,
                    brick_onchip_kernel<T, kBrickThreads, kLarge.shell, kLarge.cols, kLarge.faces, true, false>,
                    brick_onchip_kernel<T, kBrickThreads, kLarge.shell, kLarge.cols, kLarge.faces, true, true>);
  if (g.threads == kBrickFewThreads)
    return run_form(brick_onchip_kernel<T, kBrickFewThreads, kSmall.shell, kSmall.cols, kSmall.faces, false, false>,
                    brick_onchip_kernel<T, kBrickFewThreads, kSmall.shell, kSmall.cols, kSmall.faces, true, false>,
                    brick_onchip_kernel<T, kBrickFewThreads, kSmall.shell, kSmall.cols, kSmall.faces, true, true>);
  return run_form(brick_onchip_kernel<T, kBrickThreads, kSmall.shell, kSmall.cols, kSmall.faces, false, false>,
                  brick_onchip_kernel<T, kBrickThreads, kSmall.shell, kSmall.cols, kSmall.faces, true, false>,
                  brick_onchip_kernel<T, kBrickThreads, kSmall.shell, kSmall.cols, kSmall.faces, true, true>);
}

}  // namespace

void register_brick_onchip_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "brick_onchip";
  v.name = "persistent, the grid in bricks in the shared memory of every SM, brick faces through L2";
  v.family = "ours";
  v.stencils = "7pt";
  v.supports = supports_seven_point;
  v.default_block = {32, 32, 1};
  v.block_error = block_error_brick;
  v.grid_error = grid_error_brick;
  v.block_uses_z = false;
  v.has_readonly_toggle = false;
  v.graph_capturable = false;  // it replaces the step graph: a launch is already many steps
  v.launch_float = one_step_through_multi<float, launch_multi<float>>;
  v.launch_double = one_step_through_multi<double, launch_multi<double>>;
  v.multi_float = launch_multi<float>;
  v.multi_double = launch_multi<double>;
  v.multi_scratch_fields = kScratchFields;
  v.multi_walls = KernelVariant::MultiWalls::All;
  v.multi_uses_tiles = false;
  v.multi_uses_column_events = true;  // enclosed solid nodes take the interior update
  v.multi_long_runs = true;           // runs of up to kTapRunSteps steps a launch
  r.add(v);
}

}  // namespace ws
