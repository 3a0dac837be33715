#pragma once
// The run loop shared by the kernels that do a room's whole step in one launch
// (zstream_fused.cu, zstream_fused_vec.cu): per run of up to kSourceValueSteps steps,
// one small kernel for the sources' values of the run, one launch of the step kernel per
// step, and one small kernel for the receivers of the run's last step (the step kernel
// reads the receivers of the step before it, whose u^{n+1} nobody writes any more).
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "boundary/boundary_node.cuh"
#include "core/cuda_check.hpp"
#include "cuda/column_events.hpp"
#include "cuda/kernels/dependent_launch.cuh"
#include "cuda/kernels/launch_geometry.hpp"
#include "cuda/kernels/load.cuh"
#include "cuda/kernel_registry.hpp"
#include "cuda/step_io.hpp"
#include "cuda/tiled_step.hpp"

namespace ws {

// Programmatic dependent launch (sm_90 and later). Step n + 1's launch carries
// cudaLaunchAttributeProgrammaticStreamSerialization, and every block of step n lets it
// start as soon as it runs itself (fused_launch_next_step): the next step's blocks are
// then dispatched onto the SMs that step n's last blocks leave idle, and do their set-up
// (indices, the search for their columns' first events) there, instead of after a launch
// gap behind step n's tail. Before touching a field or the receivers they wait for step n
// to have completed with its writes visible (fused_wait_previous_step), so the in-place
// update is ordered exactly as with ordinary launches. Without the attribute (or before
// sm_90) both are no-ops.
__device__ __forceinline__ void fused_launch_next_step() { pdl_launch_dependents(); }
__device__ __forceinline__ void fused_wait_previous_step() { pdl_wait(); }

// The receivers of a run's last step (u^{n+1} in `un`) into slot `rec_slot` (an offset
// from the counter's slot when there is one).
template <class T>
__global__ void fused_run_taps_kernel(const T* un, TiledStepData<T> io, long long rec_slot) {
  pdl_launch_dependents();
  pdl_wait();  // the run's last step has finished writing un
  const long long slot = (io.counter ? io.counter->slot : 0) + rec_slot;
  for (int q = threadIdx.x; q < io.nrec; q += blockDim.x)
    io.rec_buf[slot * io.nrec + q] = receiver_sample(un, io.taps, io.tap_start, q);
}

// The previous step's receivers from u^n, by one block of a step kernel (`rec_slot` < 0:
// none, the first step of a run).
template <class T>
__device__ __forceinline__ void fused_previous_taps(const T* uc, const TiledStepData<T>& io, long long rec_slot) {
  if (rec_slot >= 0) {
    const long long slot = (io.counter ? io.counter->slot : 0) + rec_slot;
    for (int q = threadIdx.x + blockDim.x * threadIdx.y; q < io.nrec; q += blockDim.x * blockDim.y)
      io.rec_buf[slot * io.nrec + q] = receiver_sample(uc, io.taps, io.tap_start, q);
  }
}

// A step kernel: u^{n+1} into `un` (holding u^{n-1}) from u^n in `uc`, the step's walls,
// events and sources from `io` and `src_value` (this step's values), the receivers of the
// previous step into `rec_slot`.
template <class T>
using FusedStepKernel = void (*)(T* __restrict__, const T* __restrict__, FieldLayout, T, int, TiledStepData<T>,
                                 const T*, long long);

// The step data travels by value in the kernels' parameters (its face-class table too):
// with the other parameters, each aligned to its size, it must stay within the 4 KB every
// CUDA device accepts (16 bytes per parameter bounds the alignment's padding).
static_assert(2 * sizeof(double*) + sizeof(FieldLayout) + sizeof(double) + sizeof(int) +
                      sizeof(TiledStepData<double>) + sizeof(const double*) + sizeof(long long) + 8 * 16 <=
                  4096,
              "the step data outgrew the kernel parameters");

// The neighbour weight lambda^2 w_1 of the 7-point stencil, the only one these kernels run.
template <class T>
T fused_weight(const Stencil* st, double lambda2, const char* kernel) {
  if (!st->is_seven_point())
    throw std::invalid_argument(std::string(kernel) + " runs the 7-point stencil only, not '" + st->name + "'");
  return T(lambda2 * st->axis_weight(1));
}

// Whether the current device supports programmatic dependent launch (sm_90 and later).
inline bool fused_steps_overlap() {
  int dev = 0, major = 0;
  CUDA_CHECK(cudaGetDevice(&dev));
  CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
  return major >= 9;
}

// Whether the step has obstacles (solid nodes, or boundary nodes off the box's faces):
// their surfaces put many events in a few columns, whose threads then do most of the work.
template <class T>
bool fused_step_has_obstacles(const TiledStepData<T>* io) {
  return io && (io->solid_count > 0 || (io->bnd_count > 0 && io->face_node == nullptr));
}

// One step kernel's launch, as a programmatic dependent of the kernel before it when `overlap`.
template <class T>
void launch_fused_step(FusedStepKernel<T> kernel, dim3 grid, dim3 block, bool overlap, cudaStream_t stream, T* un,
                       const T* uc, const FieldLayout& L, T w, int chunk, const TiledStepData<T>& io,
                       const T* src_value, long long rec_slot) {
  launch_maybe_dependent(overlap, kernel, grid, block, 0, stream, un, uc, L, w, chunk, io, src_value, rec_slot);
}

// Launches `steps` steps on `stream`, the first producing u^{n+1} into `prev`, with the
// step data `io` (nullptr: the bare interior through `bare`). Returns the launches.
template <class T>
int launch_fused_steps(FusedStepKernel<T> with_io, FusedStepKernel<T> bare, dim3 grid, dim3 block, int chunk, T* cur,
                       T* prev, int steps, const FieldLayout& L, T w, const TiledStepData<T>* io,
                       cudaStream_t stream) {
  const bool overlap = fused_steps_overlap();
  int launches = 0;
  for (int s0 = 0; s0 < steps; s0 += io ? io->src_value_steps : steps) {
    const int run = io ? std::min(steps - s0, io->src_value_steps) : steps;
    if (io && io->nsrc > 0) {
      const int n = io->nsrc * run;
      launch_maybe_dependent(overlap, source_values_kernel<T>, dim3((unsigned)((n + 255) / 256)), dim3(256), 0, stream,
                             io->src, io->nsrc, io->counter ? (const long long*)&io->counter->step : nullptr,
                             (long long)(io->step0 + s0), run, io->dt, io->src_value);
      ++launches;
    }
    for (int s = s0; s < s0 + run; ++s) {
      T* un = s % 2 == 0 ? prev : cur;
      const T* uc = s % 2 == 0 ? cur : prev;
      if (io)
        launch_fused_step<T>(with_io, grid, block, overlap, stream, un, uc, L, w, chunk, *io,
                             io->src_value + (size_t)(s - s0) * io->nsrc, io->nrec > 0 && s > s0 ? io->slot0 + s - 1 : -1);
      else
        launch_fused_step<T>(bare, grid, block, overlap, stream, un, uc, L, w, chunk, TiledStepData<T>{}, nullptr, -1);
      ++launches;
    }
    if (io && io->nrec > 0) {  // the run's last step: its u^{n+1} is in the field the last launch wrote
      const T* last = (s0 + run - 1) % 2 == 0 ? prev : cur;
      launch_maybe_dependent(overlap, fused_run_taps_kernel<T>, dim3(1), dim3(128), 0, stream, last, *io,
                             (long long)(io->slot0 + s0 + run - 1));
      ++launches;
    }
  }
  return launches;
}

// The registry's launchers for a fused kernel described by K:
//   template <class T, bool IO> static FusedStepKernel<T> kernel();   (IO: the room's step; else bare)
//   static const char* name();
//   template <class T> static int x_per_thread();                     (points of a row per thread)
//   template <class T> static int min_chunk_planes(const TiledStepData<T>* io);
//   template <class T> static int event_group();                      (1: per column; n: per group of n)
//   static bool plane_records();     (a group's events as TiledStepData::planes' records, else as grp's events)
// A thread streams its column(s) through z chunks of at least min_chunk_planes planes,
// enough chunks for kFusedTargetWaves waves of resident blocks where the grid allows (or
// LaunchOptions::z_waves: `--kernel auto` times a room at other waves too, room_z_waves).
constexpr int kFusedTargetWaves = 6;

template <class K, class T>
int fused_launch_steps(T* cur, T* prev, int steps, const FieldLayout& L, const Stencil* st, double lambda2,
                       const TiledStepData<T>* io, const LaunchOptions& o, cudaStream_t stream) {
  const T w = fused_weight<T>(st, lambda2, K::name());
  check_int_plane(L, K::name());
  if (io && K::template event_group<T>() > 1) {
    const int listed = K::plane_records() ? io->planes.width : io->grp.width;
    if (listed != K::template event_group<T>() || (K::plane_records() ? !io->planes.start : !io->grp.start))
      throw std::logic_error(std::string(K::name()) + " reads its events per group of " +
                             std::to_string(K::template event_group<T>()) + " columns" +
                             (K::plane_records() ? " as plane records" : "") + "; the step data lists them per " +
                             std::to_string(listed));
  }
  const dim3 block(o.block.x, o.block.y, 1);
  const long long gx = ceil_div(ceil_div(L.nx, K::template x_per_thread<T>()), o.block.x);
  const long long gy = ceil_div(L.ny, o.block.y);
  const FusedStepKernel<T> with_io = K::template kernel<T, true>(), bare = K::template kernel<T, false>();
  const int resident = resident_blocks_per_sm((const void*)(io ? with_io : bare), block.x * block.y, 0) * device_sm_count();
  if (const std::string why = z_waves_error(o.z_waves); !why.empty())
    throw std::invalid_argument(std::string("kernel '") + K::name() + "': " + why);
  const int waves = o.z_waves > 0 ? o.z_waves : kFusedTargetWaves;
  const int chunks = z_chunks_for(gx * gy, resident, L.nz, waves, K::template min_chunk_planes<T>(io));
  const int chunk = (L.nz + chunks - 1) / chunks;
  const dim3 grid = checked_grid(gx, gy, (L.nz + chunk - 1) / chunk, K::name());
  return launch_fused_steps<T>(with_io, bare, grid, block, chunk, cur, prev, steps, L, w, io, stream);
}

// KernelVariant::multi_float / multi_double.
template <class K, class T>
int fused_launch_multi(const MultiStepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  return fused_launch_steps<K, T>(a.cur, a.prev, a.steps, a.layout, a.stencil, a.lambda2, a.io, o, stream);
}

// KernelVariant::launch_float / launch_double: one bare step.
template <class K, class T>
void fused_launch_one(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  (void)fused_launch_steps<K, T>(const_cast<T*>(a.u_cur), a.u_next, 1, a.layout, a.stencil, a.lambda2, nullptr, o,
                                 stream);
}

// One event of a node applied to its value v (v_int: its interior update; nb: its six
// neighbours, -x, +x, -y, +y, -z, +z): `code` as in column_events.hpp, and for a boundary
// node `coeffs()` its boundary coefficients (read only then).
template <class T>
struct EventCoeffs {
  uint8_t mask, n_fixed;
  T cd, cl;
};
template <class T, class Coeffs>
__device__ __forceinline__ T apply_event(int code, T v, T v_int, T u, const T (&nb)[6], T u_prev, const T* src_value,
                                         Coeffs coeffs) {
  if (code >= 0) {
    const EventCoeffs<T> c = coeffs();
    return boundary_value(u, nb, u_prev, c.mask, c.n_fixed, c.cd, c.cl);
  }
  if (code == kEventSolid) return T(0);
  if (code == kEventPlain) return v_int;
  return v + src_value[event_source_index(code)];
}

// Event e's record (EventRecord) through the read-only path: one 16-byte load in float,
// the coefficients and the code's word issued together in double.
static_assert(sizeof(EventRecord<float>) == 16 && offsetof(EventRecord<float>, code) == 8, "EventRecord<float> layout");
static_assert(sizeof(EventRecord<double>) == 32 && offsetof(EventRecord<double>, code) == 16,
              "EventRecord<double> layout");
template <class T>
__device__ __forceinline__ EventRecord<T> load_event_record(const EventRecord<T>* p) {
  EventRecord<T> r;
  if constexpr (sizeof(T) == 4) {
    const float4 v = __ldg(reinterpret_cast<const float4*>(p));
    r.cd = v.x;
    r.cl = v.y;
    r.code = __float_as_int(v.z);
    r.flags = __float_as_int(v.w);
  } else {
    const double2 v = __ldg(reinterpret_cast<const double2*>(p));
    const int2 f = __ldg(reinterpret_cast<const int2*>(p) + 2);
    r.cd = v.x;
    r.cl = v.y;
    r.code = f.x;
    r.flags = f.y;
  }
  return r;
}

// A group's plane record (plane_events.hpp): two 16-byte loads issued together.
__device__ __forceinline__ PlaneRecord load_plane_record(const PlaneRecord* p) {
  const int4 a = __ldg(reinterpret_cast<const int4*>(p));
  const int4 b = __ldg(reinterpret_cast<const int4*>(p) + 1);
  PlaneRecord r;
  r.next_k = a.x;
  r.src = a.y;
  r.lane[0] = (uint32_t)b.x;
  r.lane[1] = (uint32_t)b.y;
  r.lane[2] = (uint32_t)b.z;
  r.lane[3] = (uint32_t)b.w;
  return r;
}

// Pair `id` of an array of pairs (a plane listing's (cd, cl)), in one load.
template <class T>
struct Pair {
  T a, b;
};
template <class T>
__device__ __forceinline__ Pair<T> load_pair(const T* pairs, uint32_t id) {
  if constexpr (sizeof(T) == 4) {
    const float2 v = __ldg(reinterpret_cast<const float2*>(pairs) + id);
    return {v.x, v.y};
  } else {
    const double2 v = __ldg(reinterpret_cast<const double2*>(pairs) + id);
    return {v.x, v.y};
  }
}

// The events of one node at plane k applied to its value v, from the events' records
// (zstream_fused: the code and the coefficients in one load); advances e past them.
template <class T>
__device__ __forceinline__ T apply_event_records(T v, T v_int, T u, const T (&nb)[6], T u_prev, int k, int& e,
                                                 int e_end, const TiledStepData<T>& io, const T* src_value) {
  do {
    const EventRecord<T> r = load_event_record(io.cols.rec + e);
    v = apply_event(r.code, v, v_int, u, nb, u_prev, src_value, [&] {
      return EventCoeffs<T>{(uint8_t)(r.flags & 0xff), (uint8_t)((r.flags >> 8) & 0xff), r.cd, r.cl};
    });
    ++e;
  } while (e < e_end && __ldg(io.cols.k + e) == k);
  return v;
}

// A face class's record (ClassCoeffs) through the read-only path, for spread_onchip's copy
// into shared memory: the two coefficients in one load, the flags' word in another, issued
// together (one 16-byte load in float would fill a register with the padding as well).
static_assert(sizeof(ClassCoeffs<float>) == 16 && offsetof(ClassCoeffs<float>, mask) == 8, "ClassCoeffs<float> layout");
static_assert(sizeof(ClassCoeffs<double>) == 32 && offsetof(ClassCoeffs<double>, mask) == 16,
              "ClassCoeffs<double> layout");
template <class T>
__device__ __forceinline__ ClassCoeffs<T> load_class_coeffs(const ClassCoeffs<T>* p) {
  ClassCoeffs<T> c;
  int flags;
  if constexpr (sizeof(T) == 4) {
    const float2 v = __ldg(reinterpret_cast<const float2*>(p));
    c.cd = v.x;
    c.cl = v.y;
    flags = __ldg(reinterpret_cast<const int*>(p) + 2);
  } else {
    const double2 v = __ldg(reinterpret_cast<const double2*>(p));
    c.cd = v.x;
    c.cl = v.y;
    flags = __ldg(reinterpret_cast<const int*>(p) + 4);
  }
  c.mask = (uint8_t)(flags & 0xff);  // the bytes mask, n_fixed, on (little-endian)
  c.n_fixed = (uint8_t)((flags >> 8) & 0xff);
  c.on = (uint8_t)((flags >> 16) & 0xff);
  c.pad = 0;
  return c;
}

// The first of column events [e, e_end) at plane k0 or after (a binary search: a column
// next to an obstacle may have many).
__device__ __forceinline__ int first_event_from(const int* ev_k, int e, int e_end, int k0) {
  int hi = e_end;
  while (e < hi) {
    const int mid = (e + hi) / 2;
    if (__ldg(ev_k + mid) < k0) e = mid + 1;
    else hi = mid;
  }
  return e;
}

// Listed column (or group) col's events: [e, e_end), `e` its first at plane k or after
// (0 <= k < nz). Where the step has cursors, a column without events costs one load (its
// cursor row, -1), and one with events three more issued together (its range and its
// cursor at k); a binary search is a chain of about five dependent loads on a column
// through an obstacle, which a thread starting a 2-plane chunk cannot hide
// (docs/benchmarks.md).
template <class View>
__device__ __forceinline__ void listed_events_at(const View& v, int col, int k, int& e, int& e_end) {
  if (v.first_at) {
    const int row = __ldg(v.cursor_row + col);
    e = e_end = 0;
    if (row >= 0) {
      e = __ldg(v.start + col) + (int)__ldg(v.first_at + (int64_t)k * v.cursor_columns + row);
      e_end = __ldg(v.start + col + 1);
    }
  } else {
    e_end = __ldg(v.start + col + 1);
    e = first_event_from(v.k, __ldg(v.start + col), e_end, k);
  }
}

}  // namespace ws
