// Temporal blocking with 16-byte vectors: temporal_2step's two steps per pass over DRAM
// for the 7-point stencil, each thread owning N consecutive x points of one row (4
// floats or 2 doubles) and moving them with one 16-byte access.
//
// A pass reads u^n (A) and u^{n-1} (B) once and writes u^{n+1} (D) and u^{n+2} (C),
// out of place (temporal_pass.cuh). The block is 32 x by threads; a warp is one row of
// the tile grown by one point on every side, 32 N points wide, of which the inner 30 N
// are the block's output (the grown columns are whole vectors: the first level is
// recomputed on N extra columns per side, 7% of a row, instead of one). Each thread
// streams its column of vectors through a chunk of z planes; for plane k it computes
// u^{n+1} and then u^{n+2} at plane k - 1:
//   - first level: u^n's z neighbours from the thread's own queue of planes k - 1, k,
//     k + 1, its y neighbours as two vector loads of the rows above and below (L1),
//     its x neighbours inside the vector or, for the vector's first and last point,
//     from the next lanes of the warp (shuffles);
//   - second level: u^{n+1}'s z neighbours from the thread's own queue of first-level
//     planes, its x neighbours again through shuffles, and only its y neighbours from
//     shared memory, which holds two planes of the first level (the one written this
//     iteration and the one read).
// The plane read at k - 1 was written in the iteration before, whose barrier orders it;
// the plane written at k overwrites k - 2, which every thread finished reading before
// that same barrier: one barrier per plane.
//
// The stepping loop has no branch on the position: a thread whose vector holds no
// interior point loads the first interior vector instead and its results are replaced
// by the halo's 0 (a select per point), loads beyond the halo planes are clamped to
// them, and the source search is compiled into a second copy of the loop that only the
// blocks holding a source run. On the H200 this form ran 3% faster in float and 6% in
// double than one with a branch per point (docs/benchmarks.md).
//
// The arithmetic of every point is the single-step 7-point update's
// (exact_update.cuh: seven_point_update, in the same order of arguments), so the
// passes give the bits of any 7-point kernel. Sources are added to u^{n+1} by every
// block that computes the node and to u^{n+2} by its owner; receivers are read after
// each pass.
//
// Walls of every kind (the boundary nodes on the box's faces, boundary_node.cuh) cost
// the stepping loop as little as they can: the loop neither runs a general boundary update
// at every face point (registers: fewer warps) nor looks each face point's node up (two
// dependent loads a plane; docs/benchmarks.md has both). The walls are whole faces
// (KernelVariant::MultiWalls::WholeFaces: each face's points are all boundary nodes or
// none, TiledStepData::wall_faces), so a point's position tells whether it is one.
//   - An x face's nodes off the y and z faces (one point in a row of the face, strided in
//     memory: outside the pass each would cost whole 32-byte sectors) take the boundary
//     update in the pass, from the neighbours it holds, with the face's shared
//     coefficients (XWallCoeffs: five air neighbours, so boundary_value's mask is a
//     constant and needs no lookup).
//   - Every other boundary node (the y and z faces and the x faces' edges, contiguous in
//     memory) has its two levels written around the pass: walls_level (level 0) writes its
//     u^{n+1} (with that step's sources) from u^n and u^{n-1}, the two fields the pass
//     reads, into D at the node; the pass takes it from there, loaded beside the y
//     neighbours, instead of the interior update (and adds no source: D has it), and the
//     owner stores the same value back; its second level gets the interior update, which
//     no point of the pass reads, and walls_level (level 1) then overwrites it from the
//     pass's u^{n+1} (D, now whole) and u^n, with that step's sources.
// Each node's two values come from boundary_value, the arithmetic of every kernel's
// walls, so the passes keep the step path's bits.
//
// Alignment: interior rows start on 128-byte lines (layout x0 >= N), pitch and plane
// are multiples of 32 elements and each thread's first x is a multiple of N, so every
// vector is 16-byte aligned. The last interior vector of a row may pass nx: its loads
// stay inside the padded row and only points below nx are stored.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "cuda/kernels/leggy_vec.cuh"
#include "cuda/kernels/temporal_pass.cuh"

namespace ws {

namespace {

using namespace temporal;

template <class T>
constexpr int kN = 16 / (int)sizeof(T);
constexpr const char* kId = "temporal_2step_vec";  // the registry id, for the messages
constexpr int kWarpX = 32;  // block.x: a warp is one row of the grown tile
// z chunks of at least 8 planes, enough of them for 4 waves of resident blocks. A chunk
// recomputes the first level on 2 extra planes (25% at 8), but grids below ~300^3 have
// too few xy tiles of 120 x 6 points to fill the GPU otherwise (H200, float, against
// chunks of at least 32 planes and 2 waves: 130^3 61 -> 129, 194^3 148 -> 257, 258^3
// 268 -> 295 Gpoints/s, 514^3 unchanged; docs/benchmarks.md).
constexpr int kTargetWaves = 4;
constexpr int kMinChunkPlanes = 8;
constexpr int kMaxThreads = 512;
// At least two blocks of 512 threads per SM (64 registers): the passes are bound by
// latency and issue, and more warps hide more of both.
constexpr int kMinBlocks = 2;

template <class T>
using VPack = lv::Pack<T, kN<T>>;

template <class T>
__device__ __forceinline__ VPack<T> zero_pack() {
  VPack<T> p;
#pragma unroll
  for (int l = 0; l < kN<T>; ++l) p.v[l] = T(0);
  return p;
}

// The wall faces (TiledStepData::wall_faces' bits) that row j's vector x = i .. i + n - 1
// lies on, whatever its plane: a column of boundary nodes at every plane.
__device__ __forceinline__ bool on_wall_column(const FieldLayout& L, int faces, int i, int n, int j) {
  return (i == 0 && (faces & 1)) || (i + n >= L.nx && (faces & 2)) || (j == 0 && (faces & 4)) ||
         (j == L.ny - 1 && (faces & 8));
}

// Whether interior point (x, j, k) is a boundary node: (box_faces_of & faces) != 0, in
// the short-circuit form, with which the stepping loop spills 20 bytes less in double.
__device__ __forceinline__ bool wall_point(const FieldLayout& L, int faces, int x, int j, int k) {
  return (x == 0 && (faces & 1)) || (x == L.nx - 1 && (faces & 2)) || (j == 0 && (faces & 4)) ||
         (j == L.ny - 1 && (faces & 8)) || (k == 0 && (faces & 16)) || (k == L.nz - 1 && (faces & 32));
}

// The walls a pass runs: the wall faces' bits (TiledStepData::wall_faces) and the x faces'
// shared coefficients (XWallCoeffs), by value.
template <class T>
struct VecWalls {
  int faces = 0;
  XWallCoeffs<T> x[2];
};

// The boundary update of an x face's node off the y and z faces (XWallCoeffs): its five
// other neighbours are air and none is fixed, so boundary_value's mask is a constant
// (all but -x on face 0, all but +x on face 1) and the same bits come out.
// (The coefficients are selected, not indexed by the face: a parameter indexed at run
// time would be copied to local memory.)
template <class T>
__device__ __forceinline__ T x_wall_value(int face, T u, const T (&nb)[6], T u_prev, const VecWalls<T>& vw) {
  return face == 0 ? boundary_value(u, nb, u_prev, uint8_t(0x3e), uint8_t(0), vw.x[0].cd, vw.x[0].cl)
                   : boundary_value(u, nb, u_prev, uint8_t(0x3d), uint8_t(0), vw.x[1].cd, vw.x[1].cl);
}

// Which x face's shared coefficients update point (x, j, k), a boundary node, in the pass
// (0 or 1), or -1: the others take both levels from walls_level.
// (x_face_off_yz's test, as split_x_walls makes it on the host, written out: through the
// shared function the stepping loop ran 4-9% slower on the H200.)
template <class T>
__device__ __forceinline__ int in_pass_face(const VecWalls<T>& vw, const FieldLayout& L, int x, int j, int k) {
  if (j < 1 || j > L.ny - 2 || k < 1 || k > L.nz - 2) return -1;
  if (x == 0 && vw.x[0].on) return 0;
  if (x == L.nx - 1 && vw.x[1].on) return 1;
  return -1;
}

// One pass of the block's chunk. SRC: the block's grown tile holds a source. WALLS: the
// box has wall faces: the x faces' nodes off the y and z faces take the boundary update
// here (in_pass_face), every other boundary node its first level from D and its second
// from walls_level.
template <class T, bool SRC, bool WALLS>
__device__ __forceinline__ void vec_pass(T* __restrict__ c_out, T* __restrict__ d_out, const T* __restrict__ a,
                                         const T* __restrict__ b, const FieldLayout& L, T w, int chunk,
                                         const PassSources<T>& s, const VecWalls<T>& vw) {
  const int faces = vw.faces;
  constexpr int N = kN<T>;
  const int tx = (int)threadIdx.x, ty = (int)threadIdx.y, by = (int)blockDim.y;
  const int i = ((int)blockIdx.x * (kWarpX - 2) + tx - 1) * N;  // the vector's first x
  const int j = (int)blockIdx.y * (by - 2) + ty - 1;
  const int k0 = (int)blockIdx.z * chunk, k1 = min(k0 + chunk, L.nz);
  const bool loads = j >= 0 && j < L.ny && i >= 0 && i < L.nx;  // a vector holding interior points
  const bool owner = loads && tx >= 1 && tx < kWarpX - 1 && ty >= 1 && ty < by - 1;
  const bool full = i + N <= L.nx;
  const int nin = loads ? min(N, L.nx - i) : 0;  // the vector's interior points
  // A thread without interior points reads the first interior vector instead (every load
  // stays inside the field, no branch); its results are replaced by the halo's 0 below,
  // and its neighbours take 0 for its points (left_ok, right_ok).
  const int64_t col = loads ? L.index(i, j, 0) : L.index(0, 0, 0);
  const bool left_ok = i > 0, right_ok = i + N < L.nx;
  const bool wall_col = WALLS && loads && on_wall_column(L, faces, i, N, j);
  // A column on an x wall face, and whether all its x-face points are updated here (off
  // the y and z faces).
  const bool x_col = WALLS && loads && ((i == 0 && (faces & 1)) || (i + N >= L.nx && (faces & 2)));
  const bool x_col_in_pass =
      x_col && (i != 0 || !(faces & 1) || vw.x[0].on) && (i + N < L.nx || !(faces & 2) || vw.x[1].on);
  T* ring = shared_tile<T>();  // two planes of the first level, by rows of 32 N values
  const int row = kWarpX * N, plane = by * row;
  const int e = ty * row + tx * N;
  // Planes -1 and nz are the fixed halo (0 in memory); the queue's loads beyond them are
  // clamped to them. The loop steps one offset by an int plane (checked by the launcher)
  // and clamps only the look-ahead loads, with fewer live registers and address
  // instructions than a clamped 64-bit product per load (docs/benchmarks.md).
  const int fplane = (int)L.plane;
  auto at_plane = [&](int z) { return (int64_t)min(max(z, -1), L.nz) * fplane; };
  const int kfirst = k0 - 1, klast = k1 + 1;  // the first level's planes [kfirst, klast)
  // qa[m]: u^n at plane k - 1 + m; l1[m]: u^{n+1} at plane k - 2 + m; pa, pb: u^n at
  // k + 2 and u^{n-1} at k + 1, one plane of loads in flight behind the one computed.
  VPack<T> qa[3], l1[3];
  qa[0] = lv::ldg<T, N>(a + col + at_plane(kfirst - 1));
  qa[1] = lv::ldg<T, N>(a + col + at_plane(kfirst));
  VPack<T> pa = lv::ldg<T, N>(a + col + at_plane(kfirst + 1)), pb = lv::ldg<T, N>(b + col + at_plane(kfirst));
  l1[1] = zero_pack<T>();
  l1[2] = zero_pack<T>();
  int64_t q = col + at_plane(kfirst);  // plane k's offset: -1 <= k <= nz, never clamped
  for (int k = kfirst; k < klast; ++k, q += fplane) {
    qa[2] = pa;
    const VPack<T> bk = pb;
    pa = lv::ldg<T, N>(a + q + min(2, L.nz - k) * fplane);
    pb = lv::ldg<T, N>(b + q + min(1, L.nz - k) * fplane);
    // First level: u^{n+1} at plane k (0 outside the interior: the fixed halo).
    const T sl = __shfl_up_sync(0xffffffffu, qa[1].v[N - 1], 1);
    const T sr = __shfl_down_sync(0xffffffffu, qa[1].v[0], 1);
    const T left_a = left_ok ? sl : T(0), right_a = right_ok ? sr : T(0);
    const VPack<T> ym = lv::ldg<T, N>(a + q - L.pitch), yp = lv::ldg<T, N>(a + q + L.pitch);
    const int lim = k >= 0 && k < L.nz ? nin : 0;
    // A plane of boundary nodes for this thread; those not updated here take their first
    // level from D (written by walls_level), loaded with the y neighbours (the
    // owner's store below writes back the same bits). An x face's column needs it only
    // on the y and z faces.
    const bool wall_plane =
        WALLS && lim > 0 && (wall_col || (k == 0 && (faces & 16)) || (k == L.nz - 1 && (faces & 32)));
    const bool from_d = wall_plane && !(x_col_in_pass && j >= 1 && j <= L.ny - 2 && k >= 1 && k <= L.nz - 2);
    VPack<T> dw;
    if (WALLS && from_d) dw = lv::ldg<T, N>(d_out + q);
    VPack<T> v;
    unsigned walled = 0;  // bit l: point l took its first level from D
#pragma unroll
    for (int l = 0; l < N; ++l) {
      const T xm = l > 0 ? qa[1].v[l - 1] : left_a;
      const T xp = l < N - 1 ? qa[1].v[l + 1] : right_a;
      T u1 = ex::seven_point_update(qa[1].v[l], bk.v[l], xm, xp, ym.v[l], yp.v[l], qa[0].v[l], qa[2].v[l], w);
      // The walls inside the per-point loop: a separate copy of the loop for the planes
      // of boundary nodes would keep more values live across it (slower, docs/benchmarks.md).
      if constexpr (WALLS)
        if (wall_plane && l < lim && wall_point(L, faces, i + l, j, k)) {
          const int f = in_pass_face(vw, L, i + l, j, k);
          if (f >= 0) {
            const T nb[6] = {xm, xp, ym.v[l], yp.v[l], qa[0].v[l], qa[2].v[l]};
            u1 = x_wall_value(f, qa[1].v[l], nb, bk.v[l], vw);
          } else {
            u1 = dw.v[l];
            walled |= 1u << l;
          }
        }
      v.v[l] = l < lim ? u1 : T(0);
    }
    if constexpr (SRC)
#pragma unroll
      for (int l = 0; l < N; ++l)
        if (l < lim && !((walled >> l) & 1u)) v.v[l] = add_sources(v.v[l], q + l, s, 0);
    lv::store<T, N>(ring + (k & 1) * plane + e, v.v, 0, N, true);
    l1[0] = l1[1];
    l1[1] = l1[2];
    l1[2] = v;
    // Second level: u^{n+2} at plane kk = k - 1, from the first level at kk - 1 .. k.
    const int kk = k - 1;
    const T left_1 = __shfl_up_sync(0xffffffffu, l1[1].v[N - 1], 1);
    const T right_1 = __shfl_down_sync(0xffffffffu, l1[1].v[0], 1);
    if (owner && kk >= k0) {
      const T* mid = ring + (kk & 1) * plane + e;
      const VPack<T> ym2 = lv::ld<T, N>(mid - row), yp2 = lv::ld<T, N>(mid + row);
      const int64_t q2 = q - fplane;
      T u2[N];
#pragma unroll
      for (int l = 0; l < N; ++l) {
        const T xm = l > 0 ? l1[1].v[l - 1] : left_1;
        const T xp = l < N - 1 ? l1[1].v[l + 1] : right_1;
        u2[l] = ex::seven_point_update(l1[1].v[l], qa[0].v[l], xm, xp, ym2.v[l], yp2.v[l], l1[0].v[l], l1[2].v[l], w);
        // The x faces' nodes updated here; the others' second level is walls_level's.
        if constexpr (WALLS)
          if (x_col) {
            const int f = l < nin ? in_pass_face(vw, L, i + l, j, kk) : -1;
            if (f >= 0) {
              const T nb[6] = {xm, xp, ym2.v[l], yp2.v[l], l1[0].v[l], l1[2].v[l]};
              u2[l] = x_wall_value(f, l1[1].v[l], nb, qa[0].v[l], vw);
            }
          }
      }
      if constexpr (SRC)
#pragma unroll
        for (int l = 0; l < N; ++l)
          if (l < nin) u2[l] = add_sources(u2[l], q2 + l, s, 1);
      lv::store<T, N>(d_out + q2, l1[1].v, i, L.nx, full);
      lv::store<T, N>(c_out + q2, u2, i, L.nx, full);
    }
    __syncthreads();
    qa[0] = qa[1];
    qa[1] = qa[2];
  }
}

// The stepping loop compiled twice: with the sources for the blocks whose grown tile holds
// one, without them for every other block (whose loop then keeps its registers).
template <class T, bool SRC, bool WALLS>
__global__ void __launch_bounds__(kMaxThreads, kMinBlocks)
    temporal_vec_kernel(T* __restrict__ c_out, T* __restrict__ d_out, const T* __restrict__ a,
                        const T* __restrict__ b, FieldLayout L, T w, int chunk, PassSources<T> s, VecWalls<T> vw) {
  pdl_launch_dependents();
  pdl_wait();
  constexpr int N = kN<T>;
  const int by = (int)blockDim.y;
  const int k0 = (int)blockIdx.z * chunk, k1 = min(k0 + chunk, L.nz);
  if (SRC && sources_in_block(s, L, ((int)blockIdx.x * (kWarpX - 2) - 1) * N, (int)blockIdx.y * (by - 2) - 1,
                              kWarpX * N, by, k0 - 1, k1 + 1))
    vec_pass<T, true, WALLS>(c_out, d_out, a, b, L, w, chunk, s, vw);
  else
    vec_pass<T, false, WALLS>(c_out, d_out, a, b, L, w, chunk, s, vw);
}

// One level of the boundary nodes the pass does not update itself (rest[r] indexes the
// bnd_* arrays, node[] gives its index): out = the boundary update from u (the node and
// its neighbours) and `older` (the node two steps back), with the sources of the pass's
// step `level`. Before the pass (level 0) u^{n+1} from u^n and u^{n-1} into D, where the
// pass reads it; after it (level 1) u^{n+2} from D and u^n into C, over the interior
// update the pass left there.
template <class T>
__global__ void walls_level(const int* __restrict__ rest, int n, const int64_t* __restrict__ node, PassWalls<T> w,
                            FieldLayout L, const T* __restrict__ u, const T* __restrict__ older, T* __restrict__ out,
                            PassSources<T> s, int level) {
  pdl_launch_dependents();
  pdl_wait();
  const int r = (int)(blockIdx.x * blockDim.x + threadIdx.x);
  if (r >= n) return;
  const int bi = rest[r];
  const int64_t q = node[bi];
  out[q] = add_sources(boundary_node_value(u, older[q], q, w.mask[bi], w.nfixed[bi], w.cd[bi], w.cl[bi], L), q, s,
                       level);
}

// The block is 32 x by threads: a warp per row of the grown tile, by - 2 output rows.
std::string block_error_vec(const Stencil&, Precision, const BlockShape& b) {
  if (b.x != kWarpX || b.y < 3 || b.x * b.y > kMaxThreads)
    return "block " + std::to_string(b.x) + "x" + std::to_string(b.y) +
           " is not allowed: 32 x 3 .. 32 x 16 (a warp per row of the output tile grown by one point on every "
           "side, at most " +
           std::to_string(kMaxThreads) + " threads)";
  return "";
}

bool supports_vec(const Stencil& s) { return s.is_seven_point(); }

template <class T>
int run_vec_passes(const MultiStepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream, const LeggyCoeffs<T>& c) {
  constexpr int N = kN<T>;
  const FieldLayout& L = a.layout;
  const TiledStepData<T>* io = a.io;
  const bool src = io && io->nsrc > 0;
  const bool wl = io && io->bnd_count > 0;
  PassWalls<T> walls;
  if (wl) walls = PassWalls<T>{io->face_node, io->bnd_mask, io->bnd_nfixed, io->bnd_cd, io->bnd_cl};
  const int by = o.block.y;
  const size_t smem = (size_t)2 * by * kWarpX * N * sizeof(T);
  const int ox = (kWarpX - 2) * N, oy = by - 2;  // the output tile
  const long long xy = (long long)((L.nx + ox - 1) / ox) * ((L.ny + oy - 1) / oy);
  using Kernel = void (*)(T*, T*, const T*, const T*, FieldLayout, T, int, PassSources<T>, VecWalls<T>);
  const Kernel kfn = src ? (wl ? temporal_vec_kernel<T, true, true> : temporal_vec_kernel<T, true, false>)
                         : (wl ? temporal_vec_kernel<T, false, true> : temporal_vec_kernel<T, false, false>);
  allow_dynamic_smem((const void*)kfn, smem, kId);
  const int resident = resident_blocks_per_sm((const void*)kfn, kWarpX * by, smem) * device_sm_count();
  const int chunks = z_chunks_for(xy, resident, L.nz, kTargetWaves, kMinChunkPlanes);
  const int chunk = (L.nz + chunks - 1) / chunks;
  const dim3 grid = checked_grid((L.nx + ox - 1) / ox, (L.ny + oy - 1) / oy, (L.nz + chunk - 1) / chunk, kId);
  const T w = c.w[1];
  VecWalls<T> vw;
  if (wl) {
    vw.faces = io->wall_faces;
    vw.x[0] = io->xwall[0];
    vw.x[1] = io->xwall[1];
  }
  const int nrest = wl ? io->wall_rest_count : 0;
  const unsigned wall_blocks = (unsigned)((nrest + 255) / 256);
  return run_pass_pairs<T, 1>(a, o, stream, c, walls, kId,
                              [&](T* out_cur, T* out_prev, const T* in_cur, const T* in_prev, const PassSources<T>& s) {
    // Each kernel a programmatic dependent of the one before (dependent_launch.cuh).
    auto walls_at = [&](const T* u, const T* older, T* out, int level) {
      launch_dependent(walls_level<T>, dim3(wall_blocks), dim3(256), 0, stream, (const int*)io->wall_rest, nrest,
                       (const int64_t*)io->bnd_node, walls, L, u, older, out, s, level);
    };
    if (nrest > 0) walls_at(in_cur, in_prev, out_prev, 0);
    launch_dependent(kfn, grid, dim3(kWarpX, by), smem, stream, out_cur, out_prev, in_cur, in_prev, L, w, chunk, s,
                     vw);
    if (nrest == 0) return 1;
    walls_at(out_prev, in_cur, out_cur, 1);
    return 3;
  });
}

// The stencil and block the launches accept (set_kernel refuses others before a launch).
void check_stencil_and_block(const Stencil& st, Precision p, const BlockShape& b) {
  if (!supports_vec(st))
    throw std::invalid_argument(std::string("kernel '") + kId + "' runs the 7-point stencil, not '" + st.name + "'");
  const std::string why = block_error_vec(st, p, b);
  if (!why.empty()) throw std::invalid_argument(std::string("kernel '") + kId + "': " + why);
}

template <class T>
int launch_multi(const MultiStepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  if (a.steps <= 0) return 0;
  check_stencil_and_block(*a.stencil, precision_of<T>(), o.block);
  check_pass_args(a, kId);
  check_int_plane(a.layout, kId);
  if (a.io && a.io->bnd_count > 0 && a.io->wall_faces < 0)
    throw std::invalid_argument(std::string("kernel '") + kId +
                                "' runs walls that cover whole faces of the box; the solver steps other scenes singly");
  return run_vec_passes<T>(a, o, stream, pass_coeffs<T>(*a.stencil, a.lambda2, a.layout, kId));
}

template <class T>
void launch_one(const StepArgs<T>& a, const LaunchOptions& o, cudaStream_t stream) {
  check_stencil_and_block(*a.stencil, precision_of<T>(), o.block);
  launch_single<T, 1>(a.u_next, a.u_cur, a.layout, pass_coeffs<T>(*a.stencil, a.lambda2, a.layout, kId), o, stream,
                      kId);
}

}  // namespace

void register_temporal_2step_vec_kernels(KernelRegistry& r) {
  KernelVariant v;
  v.id = kId;
  v.name = "temporal blocking with 16-byte vectors, two steps per pass over DRAM (7pt)";
  v.family = "ours";
  v.stencils = "7pt";
  v.supports = supports_vec;
  // 32 x 8 (6 output rows): on the H200 at 512^3 within 2% of the fastest block (32 x 6
  // in float, 32 x 8 in double), at 256^3 17% faster than 32 x 6 in float; 32 x 16
  // recomputes less but 16 warps wait at each barrier (docs/benchmarks.md).
  v.default_block = {32, 8, 1};
  v.block_error = block_error_vec;
  v.block_uses_z = false;
  v.has_readonly_toggle = false;
  v.graph_capturable = true;  // its single steps (with walls) replay in the step graph
  v.launch_float = launch_one<float>;
  v.launch_double = launch_one<double>;
  v.multi_float = launch_multi<float>;
  v.multi_double = launch_multi<double>;
  v.multi_scratch_fields = 2;
  v.multi_walls = KernelVariant::MultiWalls::WholeFaces;
  r.add(v);
}

}  // namespace ws
