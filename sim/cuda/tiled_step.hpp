#pragma once
// Everything a step does besides the interior update, laid out for a kernel in which
// each block owns one tile of the grid for a whole step and runs many steps per launch
// (kernels/persistent_l2.cu): the boundary nodes (coefficients as DeviceBoundary's),
// the solid nodes and the source nodes grouped by tile (tile_groups.hpp), and the
// receivers' taps. A block updates its tile's interior points, then its boundary nodes
// (computed before the interior write, since u^{n+1} overwrites u^{n-1} in place), then
// zeroes its solids and adds its sources: each node is finished by the block that owns
// it, so a step ends with one grid-wide barrier, after which the receivers are read.
#include <array>
#include <cstdint>
#include <vector>

#include "boundary/boundary_plan.hpp"
#include "cuda/column_events.hpp"
#include "cuda/device_buffer.hpp"
#include "cuda/kernel_registry.hpp"
#include "cuda/plane_events.hpp"
#include "cuda/step_graph.hpp"
#include "cuda/step_io.hpp"
#include "cuda/tile_groups.hpp"

namespace ws {

// The coefficients shared by every boundary node of an x face off the y and z faces
// (1 <= j <= ny - 2, 1 <= k <= nz - 2), when they are shared and each of those nodes has
// every neighbour but the wall's in the air and none fixed (on): a kernel that holds such
// a node's neighbours in registers updates it without looking anything up
// (kernels/temporal_2step_vec.cu).
template <class T>
struct XWallCoeffs {
  int on = 0;
  T cd = T(0), cl = T(0);
};

// A face class's usual boundary coefficients in one aligned record, for kernels that
// update the walls by face class (zstream_fused*.cu): every thread holding a lane on an x
// face reads its class's record on every plane, so the coefficients are one load (two,
// issued together) after the class, not an index and then four arrays. `on` 0: the class
// takes the interior update.
template <class T>
struct alignas(16) ClassCoeffs {
  T cd, cl;
  uint8_t mask, n_fixed, on, pad;
};

// The records of the 27 face classes from column_events.hpp's class_bnd (an index into the
// bnd_* arrays' mask, nf, cd and cl, or -1).
template <class T>
std::array<ClassCoeffs<T>, kFaceClasses> class_coeffs_table(const std::array<int, kFaceClasses>& class_bnd,
                                                            const std::vector<uint8_t>& mask,
                                                            const std::vector<uint8_t>& nf, const std::vector<T>& cd,
                                                            const std::vector<T>& cl);

// Bit 24 of an EventRecord's flags in a plane listing's sources (PlaneListView::src): the
// last source event of its group at its plane.
constexpr int kEventPlaneEnd = 1 << 24;

// A column event with what applying it needs, in one aligned record (zstream_fused): the
// event's code (column_events.hpp) and, for a boundary node, its coefficients and the
// mask | fixed count << 8 of its bnd_* entry (| lane << 16 in a listing per group of
// columns, | kEventPlaneEnd in a plane listing's sources). One load (float; two issued
// together in double) where the code and then four arrays were two levels of dependent
// loads.
template <class T>
struct alignas(16) EventRecord {
  T cd, cl;
  int code, flags;
};

// The records of events `code` (ColumnEvents::code) from the bnd_* arrays they index;
// `lane` (ColumnEvents::lane, empty for none) goes into bits 16-23 of each record's flags.
template <class T>
std::vector<EventRecord<T>> event_records(const std::vector<int>& code, const std::vector<uint8_t>& mask,
                                          const std::vector<uint8_t>& nf, const std::vector<T>& cd,
                                          const std::vector<T>& cl, const std::vector<uint8_t>& lane = {});

// One listing of a step's column events, as a kernel reads it (ColumnEvents on the
// device): listed column (or group) c holds events start[c] .. start[c+1] - 1, each with
// its plane k[e] and its record rec[e] (code and coefficients). Where c's events resume at
// plane k: its first event at k or after is start[c] + first_at[k * cursor_columns +
// cursor_row[c]]; first_at is null when a column has too many events for 16-bit offsets,
// and kernels then search. `width`: the columns listed together (1: per column; 0: no
// listing).
template <class T>
struct EventListView {
  int width = 0;
  const int* start = nullptr;
  const int* k = nullptr;
  const EventRecord<T>* rec = nullptr;
  const int* cursor_row = nullptr;
  const uint16_t* first_at = nullptr;
  int cursor_columns = 0;
};

// The plane records of a listing per group (plane_events.hpp) as zstream_fused_vec reads
// them: start, k and the cursors as EventListView's, over records rather than events; the
// sources' events (code, lane << 16 | kEventPlaneEnd on a plane's last) and the (cd, cl)
// pairs the records' coefficient ids index.
template <class T>
struct PlaneListView {
  int width = 0;
  const int* start = nullptr;
  const int* k = nullptr;
  const PlaneRecord* rec = nullptr;
  const int* cursor_row = nullptr;
  const uint16_t* first_at = nullptr;
  int cursor_columns = 0;
  const EventRecord<T>* src = nullptr;
  const T* coeff = nullptr;
};

// Plain pointers for the kernel (owned by DeviceTiledStep and the solver).
template <class T>
struct TiledStepData {
  TileGrid tiles;
  // Boundary nodes of tile t: bnd_start[t] .. bnd_start[t+1].
  const int* bnd_start = nullptr;
  const int64_t* bnd_node = nullptr;
  const uint8_t* bnd_mask = nullptr;
  const uint8_t* bnd_nfixed = nullptr;
  const T* bnd_cd = nullptr;
  const T* bnd_cl = nullptr;
  T* side = nullptr;  // one value per boundary node, written and read by the owning block within a step
  int bnd_count = 0, solid_count = 0, nsrc = 0;  // totals (src[0 .. nsrc) is every source, in tile order)
  // Boundary nodes by position on the box's six faces (box_face_slot), the value the index
  // into the bnd_* arrays or -1; null unless every boundary node lies on a face of the box
  // and there are no solid nodes (walls only, no obstacles).
  const int* face_node = nullptr;
  // Bit f (faces -x, +x, -y, +y, -z, +z) set: every point of face f is a boundary node;
  // -1 unless the boundary nodes are exactly the points of the faces whose bits are set
  // (box_wall_faces).
  int wall_faces = -1;
  // x_min, x_max (when wall_faces >= 0), and the indices into the bnd_* arrays of every
  // other boundary node, by node index: wall_rest[0 .. wall_rest_count).
  XWallCoeffs<T> xwall[2];
  const int* wall_rest = nullptr;
  int wall_rest_count = 0;
  // Solid nodes (held at zero) of tile t: solid_start[t] .. solid_start[t+1].
  const int* solid_start = nullptr;
  const int64_t* solid = nullptr;
  // The walls by face class and the rest as events sorted by k (column_events.hpp):
  // class_coeffs[face_class(i, j, k)], and the events per column c = i + nx j (cols) and,
  // when the step was built with them, per group of grp.width columns (ColumnEvents::group:
  // g = i / width + ceil(nx / width) j, each record's lane in bits 16-23 of its flags), for
  // spread_onchip, whose vectors hold grp.width points of a row.
  const ClassCoeffs<T>* class_coeffs = nullptr;
  // The same 27 records by value, in the kernel's parameters: read through the constant
  // cache, which the fields streaming through L1 do not evict (zstream_fused and
  // zstream_fused_vec).
  ClassCoeffs<T> class_table[kFaceClasses] = {};
  EventListView<T> cols, grp;
  // The events of `cols` that are not a source's (boundary, solid and plain ones): 0 when
  // the face classes alone finish every node of the step (brick_onchip then runs its form
  // without events).
  int node_events = 0;
  // Which DeviceTiledStep built the listings (distinct for every one built in the process),
  // for what a kernel's launch derives from them on the host once (brick_onchip's nodes
  // that take slots, and the cut that spreads them).
  long long listing_id = 0;
  // The group listing as plane records (plane_events.hpp), when the step was built with
  // them, for zstream_fused_vec, whose thread holds planes.width points of a row.
  PlaneListView<T> planes;
  // Source nodes of tile t: src_start[t] .. src_start[t+1].
  const int* src_start = nullptr;
  const DeviceSource* src = nullptr;
  // src_value_steps * nsrc values a kernel may fill with the sources' additions of that
  // many steps (source_values_kernel: gain times injection, src's order), so that its main
  // kernel reads them instead of computing them.
  T* src_value = nullptr;
  int src_value_steps = 0;
  // Receivers: sample of step s goes to rec_buf[(slot0 + s) * nrec + q].
  const DeviceTap* taps = nullptr;
  const int* tap_start = nullptr;
  int nrec = 0;
  int tap_planes = 0;  // the most z planes one receiver's taps span (1 nearest, 2 trilinear)
  int ntaps = 0;       // taps in all: tap_start[nrec]
  T* rec_buf = nullptr;
  long long step0 = 0, slot0 = 0;  // the launch's first step (the one producing u^{step0+1}) and slot
  // For a launch captured in a graph and replayed (kernels whose multi-step launch is
  // multi_replayable): step0 and slot0 are then offsets from the counter's step and slot.
  const StepCounter* counter = nullptr;
  double dt = 0.0;
};

// The slot in face_node of interior point (i, j, k) on the first face it lies on, or -1
// for a point on no face. The faces' entries follow one another: x_min, x_max (ny * nz
// each, j + ny k), y_min, y_max (nx * nz, i + nx k), z_min, z_max (nx * ny, i + nx j).
WS_HD int64_t box_face_slot(const FieldLayout& L, int i, int j, int k) {
  const int64_t yz = (int64_t)L.ny * L.nz, xz = (int64_t)L.nx * L.nz, xy = (int64_t)L.nx * L.ny;
  if (i == 0) return j + (int64_t)L.ny * k;
  if (i == L.nx - 1) return yz + j + (int64_t)L.ny * k;
  if (j == 0) return 2 * yz + i + (int64_t)L.nx * k;
  if (j == L.ny - 1) return 2 * yz + xz + i + (int64_t)L.nx * k;
  if (k == 0) return 2 * yz + 2 * xz + i + (int64_t)L.nx * j;
  if (k == L.nz - 1) return 2 * yz + 2 * xz + xy + i + (int64_t)L.nx * j;
  return -1;
}

// The faces of the box interior point (i, j, k) lies on, as bits (f = 0..5: -x, +x, -y,
// +y, -z, +z; box_wall_faces).
WS_HD int box_faces_of(const FieldLayout& L, int i, int j, int k) {
  return (i == 0 ? 1 : 0) | (i == L.nx - 1 ? 2 : 0) | (j == 0 ? 4 : 0) | (j == L.ny - 1 ? 8 : 0) | (k == 0 ? 16 : 0) |
         (k == L.nz - 1 ? 32 : 0);
}

// The x face (0: i = 0, then 1: i = nx - 1) of a point on one off the y and z faces, or -1:
// the nodes XWallCoeffs covers, the same test on the host (split_x_walls) and in a kernel.
WS_HD int x_face_off_yz(const FieldLayout& L, int i, int j, int k) {
  if (j < 1 || j > L.ny - 2 || k < 1 || k > L.nz - 2) return -1;
  return i == 0 ? 0 : i == L.nx - 1 ? 1 : -1;
}

// The number of slots of the six faces (face_node's length).
int64_t box_face_slots(const FieldLayout& L);

// Whether every boundary node of `plan` lies on a face of the box and no node is solid:
// the walls of a room without obstacles.
bool plan_on_box_faces(const BoundaryPlan& plan, const FieldLayout& L);

// The faces of the box whose every point is a boundary node, as bits (f = 0..5: -x, +x,
// -y, +y, -z, +z), when the plan's boundary nodes are exactly the points of those faces and
// no node is solid (the walls of a room without obstacles, fixed faces leaving no bit);
// else -1. A kernel can then tell a boundary node by its position alone.
int box_wall_faces(const BoundaryPlan& plan, const FieldLayout& L);

// Whether the plan's walls are whole faces (box_wall_faces >= 0) whose nodes of each face
// class (column_events.hpp's face_class: which faces of the box a node lies on) share their
// air mask, count and admittance sum, so that a kernel can update every boundary node
// from its face class's coefficients alone (TiledStepData::class_table). An empty plan
// has none to share: true.
bool box_wall_classes(const BoundaryPlan& plan, const FieldLayout& L);

// The narrowest KernelVariant::MultiWalls class whose kernels run this plan in their
// whole-step launch (the solver's choice of path and the room tune's candidates): None for
// no plan or an empty one, ClassFaces, WholeFaces, BoxFaces, else All.
KernelVariant::MultiWalls plan_walls_class(const BoundaryPlan* plan, const FieldLayout& L);

// The x faces' shared coefficients and the other boundary nodes, for a kernel that
// updates the x faces' nodes off the y and z faces itself (TiledStepData::xwall,
// wall_rest): from the boundary nodes in the bnd_* arrays' order (node, mask, n_fixed,
// cd, cl) and box_wall_faces' bits. x[f].on when face f is a wall face and all its nodes
// off the y and z faces share cd and cl, have every neighbour but the wall's in the air
// and none fixed; rest: the indices of every node not so covered, by node index.
template <class T>
struct XWallSplit {
  XWallCoeffs<T> x[2];
  std::vector<int> rest;
};
template <class T>
XWallSplit<T> split_x_walls(const FieldLayout& L, int wall_faces, const std::vector<int64_t>& node,
                            const std::vector<uint8_t>& mask, const std::vector<uint8_t>& nf, const std::vector<T>& cd,
                            const std::vector<T>& cl);

// face_node's host array for `nodes` (the boundary nodes in the order of the bnd_* arrays).
std::vector<int> box_face_nodes(const FieldLayout& L, const std::vector<int64_t>& nodes);

// The steps of source values DeviceTiledStep holds room for.
// 256: a frame of the GUI (rate / 60 steps: 400 at 24 kHz) is then three graph replays,
// each a full dependency on the device, and few host launches.
constexpr int kSourceValueSteps = 256;

// One listing of a step's column events on the device (ColumnEvents and their records).
template <class T>
struct DeviceEventListing {
  DeviceBuffer<int> start, k, cursor_row;
  DeviceBuffer<uint16_t> first_at;
  DeviceBuffer<EventRecord<T>> rec;
  int cursor_columns = 0;
  EventListView<T> view(int width) const {
    return {width, start.get(), k.get(), rec.get(), cursor_row.get(), first_at.get(), cursor_columns};
  }
};

// The plane records on the device (PlaneEvents).
template <class T>
struct DevicePlaneListing {
  DeviceBuffer<int> start, k, cursor_row;
  DeviceBuffer<uint16_t> first_at;
  DeviceBuffer<PlaneRecord> rec;
  DeviceBuffer<EventRecord<T>> src;
  DeviceBuffer<T> coeff;
  int cursor_columns = 0;
  PlaneListView<T> view(int width) const {
    return {width,          start.get(),    k.get(), rec.get(), cursor_row.get(), first_at.get(),
            cursor_columns, src.get(), coeff.get()};
  }
};

template <class T>
class DeviceTiledStep {
 public:
  DeviceTiledStep() = default;
  // `plan` may be empty (fixed walls, no obstacles); `sources` in the solver's order;
  // `event_group` > 1: the column events are also listed per group of that many columns,
  // per event (TiledStepData::grp) or, with `plane_records`, as one record per group and
  // plane (TiledStepData::planes; groups of 2 to kPlaneLanes columns, else
  // std::invalid_argument).
  DeviceTiledStep(const FieldLayout& L, const TileShape& shape, const BoundaryPlan& plan,
                  const std::vector<DeviceSource>& sources, int event_group = 1, bool plane_records = false);

  // The kernel's view; the receivers and the step are filled in by the caller.
  TiledStepData<T> data() const;
  const TileGrid& tiles() const { return tiles_; }
  // Whether it holds what a kernel reads: its tiles of `tiles` (null: the kernel does not
  // read the grouping by tiles) and, for `event_group` > 1, that listing per group (as
  // plane records or event by event). A listing per column is always there.
  bool serves(const TileShape* tiles, int event_group, bool plane_records) const {
    const TileShape& built = tiles_.shape;
    if (tiles && (built.x != tiles->x || built.y != tiles->y || built.z != tiles->z)) return false;
    return event_group <= 1 || (event_group_ == event_group && plane_records_ == plane_records);
  }

 private:
  TileGrid tiles_;
  DeviceBuffer<int> bnd_start_, solid_start_, src_start_, face_node_;
  DeviceEventListing<T> columns_, groups_;
  DevicePlaneListing<T> planes_;
  int event_group_ = 1;
  bool plane_records_ = false;
  int node_events_ = 0;
  long long listing_id_ = 0;
  DeviceBuffer<ClassCoeffs<T>> class_coeffs_;
  std::array<ClassCoeffs<T>, kFaceClasses> class_host_{};
  DeviceBuffer<int64_t> bnd_node_, solid_;
  DeviceBuffer<uint8_t> bnd_mask_, bnd_nfixed_;
  DeviceBuffer<T> bnd_cd_, bnd_cl_, side_, src_value_;
  DeviceBuffer<DeviceSource> src_;
  int wall_faces_ = -1;
  XWallCoeffs<T> xwall_[2];
  DeviceBuffer<int> wall_rest_;
};

}  // namespace ws
