// The whole step in one launch, with 16-byte vectors: zstream_vec's z streaming (each
// thread owns N consecutive x points of a row, 4 floats or 2 doubles, moved with one
// 16-byte load or store; u^n's z neighbours in a register queue, the rows above and below
// through L1) with the room's walls, obstacles, sources and receivers inside the same
// launch, as zstream_fused does them for one point per thread:
//  - a node on a face of the box takes its face class's boundary coefficients from the
//    27-entry table in the kernel's parameters (TiledStepData::class_table); a thread's
//    N points share their y and z faces, and only its first and last lanes can lie on an
//    x face, so a thread off every face (most of them) pays one test per plane;
//  - the other nodes (near obstacles, solids next to air, sources) are events of the group
//    of N columns a thread holds, one record per plane with events that says what each
//    lane takes (plane_events.hpp, TiledStepData::planes). The thread finds its group's
//    first record in its z chunk through the group's cursor and keeps the plane of the
//    next one in a register, as zstream_fused does for a column's events; each record
//    names the plane of the one after it, so a plane with events costs one 32-byte load
//    and its lanes are finished side by side, not one event after another.
// Each node's arithmetic is zstream_fused's and the per-step path's (boundary_node.cuh,
// exact_update.cuh): the same bits. Receivers and sources as in fused_steps.cuh.
//
// Alignment as zstream_vec: interior rows start on 128-byte lines, pitch and plane are
// multiples of 32 elements; a row's last vector may pass nx inside the padded row (its
// loads read the zero halo and padding, only the lanes below nx are stored).
#include <climits>
#include <string>

#include "boundary/boundary_node.cuh"
#include "cuda/kernel_registry.hpp"
#include "cuda/kernels/exact_update.cuh"
#include "cuda/kernels/fused_steps.cuh"
#include "cuda/kernels/kernel_common.cuh"
#include "cuda/kernels/launch_geometry.hpp"
#include "cuda/kernels/leggy_vec.cuh"
#include "cuda/kernels/seven_point.hpp"

namespace ws {

namespace {

// z chunks of at least 2 planes, six waves: a vector thread covers N columns, so a plane
// holds N times fewer threads than zstream_fused's, and the rooms heard live are small
// grids whose extra end planes per chunk are L2 hits (24 kHz shoebox on the H200: +13%
// against 4 planes, the same at 32 and 48 kHz; docs/benchmarks.md).
constexpr int kMinChunkPlanes = 2;

template <class T> constexpr int kLanes = 16 / (int)sizeof(T);

// Blocks of at most 256 threads, three resident per SM: 72 registers in float (78 in
// double), which the room's loop needs without spilling; a bound of 1024 threads leaves 64,
// where it spills and the rooms run slower (docs/benchmarks.md).
constexpr int kMaxThreads = 256;

template <class T, bool IO>
__global__ void __launch_bounds__(kMaxThreads, 3)
    zstream_fused_vec_kernel(T* __restrict__ un, const T* __restrict__ uc, FieldLayout L, T w, int chunk,
                             TiledStepData<T> io, const T* src_value, long long rec_slot) {
  constexpr int N = kLanes<T>;
  fused_launch_next_step();
  if constexpr (IO) {  // the previous step's receivers, from u^n (read-only in this step)
    if (blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0) {
      fused_wait_previous_step();
      fused_previous_taps(uc, io, rec_slot);
    }
  }
  const int i = (blockIdx.x * blockDim.x + threadIdx.x) * N;  // the first of this thread's N points
  const int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= L.nx || j >= L.ny) return;  // no barriers below: threads outside the interior may leave
  const int lanes = min(N, L.nx - i);
  const bool full = lanes == N;
  const int k0 = blockIdx.z * chunk;
  const int k1 = min(L.nz, k0 + chunk);
  const int pitch = (int)L.pitch;
  // Both fields are addressed from one offset p (the pointers formed in the loop) and an
  // int plane (the launcher checks it fits), not two 64-bit pointers and a 64-bit plane:
  // fewer registers in the room form's loop, which measured 3-4% faster on the shoebox
  // (docs/benchmarks.md).
  const int plane = (int)L.plane;
  int64_t p = L.index(i, j, k0);
  // The y face class (3 fy, shared by the lanes), whether a lane lies on an x or y face,
  // and the group's next plane record e (its first at or after k0), at plane next_k.
  int fy3 = 0, next_k = INT_MAX, e = 0;
  bool side_face = false;
  if constexpr (IO) {
    fy3 = 3 * (j == 0 ? 1 : j == L.ny - 1 ? 2 : 0);
    side_face = fy3 != 0 || i == 0 || i + lanes == L.nx;
    int e_end = 0;
    listed_events_at(io.planes, i / N + (L.nx + N - 1) / N * j, k0, e, e_end);
    if (e < e_end) next_k = __ldg(io.planes.k + e);
  }
  fused_wait_previous_step();  // the previous step has finished with the fields: only now are they touched

  // z queue below/centre/above = u^n(k-1, k, k+1), prev = u^{n-1}(k); the next plane's
  // loads are issued before this plane's store.
  lv::Pack<T, N> below = lv::ldg<T, N>(uc + p - plane), centre = lv::ldg<T, N>(uc + p),
                 above = lv::ldg<T, N>(uc + p + plane);
  lv::Pack<T, N> prev = lv::ld<T, N>(un + p);
  for (int k = k0; k < k1; ++k) {
    const bool more = k + 1 < k1;
    lv::Pack<T, N> ahead, prev_next;
    const T* c = uc + p;
    T* o = un + p;
    if (more) {
      ahead = lv::ldg<T, N>(c + 2 * plane);
      prev_next = lv::ld<T, N>(o + plane);
    }
    const lv::Pack<T, N> north = lv::ldg<T, N>(c - pitch), south = lv::ldg<T, N>(c + pitch);
    const T west = __ldg(c - 1), east = __ldg(c + N);
    // The six neighbours of lane q: -x, +x, -y, +y, -z, +z.
    auto neighbours = [&](int q, T (&nb)[6]) {
      nb[0] = q == 0 ? west : centre.v[q - 1];
      nb[1] = q == N - 1 ? east : centre.v[q + 1];
      nb[2] = north.v[q];
      nb[3] = south.v[q];
      nb[4] = below.v[q];
      nb[5] = above.v[q];
    };
    T out[N];
#pragma unroll
    for (int q = 0; q < N; ++q) {
      T nb[6];
      neighbours(q, nb);
      out[q] = ex::seven_point_update(centre.v[q], prev.v[q], nb[0], nb[1], nb[2], nb[3], nb[4], nb[5], w);
    }
    if constexpr (IO) {
      const int fz9 = k == 0 ? 9 : k == L.nz - 1 ? 18 : 0;
      if (side_face || fz9 != 0) {
#pragma unroll
        for (int q = 0; q < N; ++q) {
          const int cls = (i + q == 0 ? 1 : i + q == L.nx - 1 ? 2 : 0) + fy3 + fz9;  // as face_class
          if (q < lanes && cls != 0) {
            const ClassCoeffs<T> cc = io.class_table[cls];
            if (cc.on) {
              T nb[6];
              neighbours(q, nb);
              out[q] = boundary_value(centre.v[q], nb, prev.v[q], cc.mask, cc.n_fixed, cc.cd, cc.cl);
            }
          }
        }
      }
      if (k == next_k) {
        // The plane's record: a boundary lane's value from the same neighbours and
        // u^{n-1} as the interior update (boundary_node.cuh), a solid lane's +0, a plain
        // lane's interior update recomputed (the same arithmetic, the same bits) rather
        // than kept in registers through every plane; then the lanes' sources.
        const PlaneRecord pr = load_plane_record(io.planes.rec + e);
        ++e;
        next_k = pr.next_k;
#pragma unroll
        for (int q = 0; q < N; ++q) {
          const uint32_t wq = pr.lane[q];
          if (lane_kind(wq) == kLaneNone) continue;
          T nb[6];
          neighbours(q, nb);
          if (lane_kind(wq) == kLaneBoundary) {
            const Pair<T> cdl = load_pair(io.planes.coeff, lane_coeff_id(wq));
            out[q] = boundary_value(centre.v[q], nb, prev.v[q], (uint8_t)lane_mask(wq), (uint8_t)lane_fixed(wq),
                                    cdl.a, cdl.b);
          } else if (lane_kind(wq) == kLaneSolid) {
            out[q] = T(0);
          } else {
            out[q] = ex::seven_point_update(centre.v[q], prev.v[q], nb[0], nb[1], nb[2], nb[3], nb[4], nb[5], w);
          }
        }
        if (pr.src >= 0) {
          for (int s = pr.src;; ++s) {
            const EventRecord<T> r = load_event_record(io.planes.src + s);
            const int lane = (r.flags >> 16) & 0xff;
#pragma unroll
            for (int q = 0; q < N; ++q)
              if (q == lane) out[q] += src_value[event_source_index(r.code)];
            if (r.flags & kEventPlaneEnd) break;
          }
        }
      }
    }
    lv::store<T, N>(o, out, i, L.nx, full);
    below = centre;
    centre = above;
    if (more) {
      above = ahead;
      prev = prev_next;
    }
    p += plane;
  }
}

std::string block_error_fused_vec(const Stencil&, Precision, const BlockShape& b) {
  // The block's z is not used (a thread streams z).
  if (b.x < 1 || b.y < 1 || (long long)b.x * b.y > kMaxThreads)
    return "block " + std::to_string(b.x) + "x" + std::to_string(b.y) + " is not allowed: x and y >= 1, at most " +
           std::to_string(kMaxThreads) + " threads (x times y)";
  return "";
}

struct FusedVec {
  template <class T, bool IO>
  static FusedStepKernel<T> kernel() { return zstream_fused_vec_kernel<T, IO>; }
  static const char* name() { return "zstream_fused_vec"; }
  template <class T>
  static int x_per_thread() { return kLanes<T>; }
  template <class T>
  static int min_chunk_planes(const TiledStepData<T>*) { return kMinChunkPlanes; }
  template <class T>
  static int event_group() { return kLanes<T>; }
  static bool plane_records() { return true; }
};

}  // namespace

void register_zstream_fused_vec_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = "zstream_fused_vec";
  v.name = "z streaming with 16-byte vectors, the whole step (walls, obstacles, sources, receivers) in one launch";
  v.family = "ours";
  v.stencils = "7pt";
  v.supports = supports_seven_point;
  // Threads of N points each: 16 threads cover 64 floats of a row. On a room `auto` times
  // the blocks that measured best on the shoebox (H200, runs 131-138): 16x8 at 32 kHz,
  // 8x16 at 24 kHz (10% above 16x8 there), 16x16 at 48 kHz; 8x32 came close at 24 kHz.
  v.default_block = {16, 8, 1};
  v.room_blocks = {{16, 8, 1}, {8, 16, 1}, {8, 32, 1}, {16, 16, 1}};
  v.block_error = block_error_fused_vec;
  // Chunks for 2 waves besides its 6: on the H200 the 32 kHz shoebox runs 4% faster with
  // them, the 48 kHz one 10% slower, the 24 kHz one the same (docs/benchmarks.md).
  v.multi_uses_tiles = false;  // column events and face classes only
  v.multi_uses_column_events = true;
  v.multi_event_vector_bytes = 16;  // its events per thread's N columns,
  v.multi_plane_records = true;     // one record per group and plane (TiledStepData::planes)
  v.room_z_waves = {2};
  v.block_uses_z = false;
  v.has_readonly_toggle = false;
  v.graph_capturable = false;  // run through multi_float/multi_double, whose runs the solver replays itself
  v.multi_replayable = true;   // step index and receiver slot from TiledStepData::counter when set
  v.launch_float = fused_launch_one<FusedVec, float>;
  v.launch_double = fused_launch_one<FusedVec, double>;
  v.multi_float = fused_launch_multi<FusedVec, float>;
  v.multi_double = fused_launch_multi<FusedVec, double>;
  r.add(v);
}

}  // namespace ws
