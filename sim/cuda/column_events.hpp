#pragma once
// The nodes of a step that are not a plain interior update, arranged for kernels in
// which one thread streams a whole column (i, j) in z and finishes every node of it
// within the step (kernels/zstream_fused.cu). Host-only, tested on the CPU.
//
// Two parts:
//  - face classes: a node's class says which faces of the box it lies on (face_class:
//    none, or any of the 26 faces, edges and corners); in a room every node of a class
//    but those near an obstacle has the same boundary coefficients, so the kernel finds
//    them from its coordinates and a 27-entry table (class_bnd: the index of one boundary
//    node with the class's usual coefficients, -1 for the interior update), without a
//    per-node lookup on the walls' many nodes;
//  - events, per column in the order of k: every node the classes get wrong (a boundary
//    node with other coefficients, a face node that takes the interior update after all),
//    the solid nodes next to a node that is not solid, and the sources. The thread keeps
//    the plane of its column's next event in a register, so a plane without one costs a
//    comparison;
//  - an enclosed solid node (its six neighbours solid, no source at it or them) has no
//    event: the kernel gives it the interior update, which is exactly +0 when the node
//    and its neighbours hold +0 in u^n and the node in u^{n-1} (leapfrog(0, 0) = +0 and
//    every difference 0 - 0 = +0; exact_update.cuh). Its neighbours are held at zero by
//    their own events or by the same argument, so once both fields are zero at every
//    solid node they stay so, bit for bit as with a solid event. The solver makes that
//    hold by taking the per-step path, which zeroes every solid node, for the first two
//    steps after the fields or the walls were set from outside (cuda_solver.cu). On the
//    furnished room at 24 kHz this leaves out 119,420 of the 157,924 solid events
//    (192,186 events in all);
//  - cursors: for every column with events and every plane k, the offset of its first
//    event at k or after, so that a thread starting a z chunk (zstream_fused) finds its
//    next event with one load instead of a binary search over the column's events (a
//    column through an obstacle has one per solid node).
#include <array>
#include <cstdint>
#include <vector>

#include "core/field_layout.hpp"
#include "core/hd.hpp"

namespace ws {

// An event's code: >= 0 a boundary node (its index in the step's bnd_* arrays),
// kEventSolid a solid node (held at zero), kEventPlain a node that takes the interior
// update although its face class says otherwise, event_source_code(s) source s (its
// index in the step's source array).
constexpr int kEventSolid = -1;
constexpr int kEventPlain = -2;
WS_HD constexpr int event_source_code(int s) { return -3 - s; }
WS_HD constexpr int event_source_index(int code) { return -3 - code; }

constexpr int kFaceClasses = 27;

// fx + 3 fy + 9 fz with f = 1 on an axis's first node, 2 on its last, 0 between
// (a one-node axis counts as its first node).
WS_HD int face_class(const FieldLayout& L, int i, int j, int k) {
  const int fx = i == 0 ? 1 : i == L.nx - 1 ? 2 : 0;
  const int fy = j == 0 ? 1 : j == L.ny - 1 ? 2 : 0;
  const int fz = k == 0 ? 1 : k == L.nz - 1 ? 2 : 0;
  return fx + 3 * fy + 9 * fz;
}

struct ColumnEvents {
  std::array<int, kFaceClasses> class_bnd;
  // Column c = i + nx j holds events start[c] .. start[c+1] - 1, sorted by k; at one node
  // the boundary, solid or plain event comes first, then its sources in their order.
  // Listed per group of g > 1 columns (group_column_events; a thread of zstream_fused_vec
  // holds g points of a row), "column" c = i / g + ceil(nx / g) j is the g columns from
  // i = g (c mod ceil(nx / g)) together, and lane[e] = i mod g says which one event e is
  // at; at one plane a group's events come by lane, each lane's in its column's order.
  int group = 1;
  std::vector<int> start;  // columns + 1 entries
  std::vector<int> k;
  std::vector<int> code;
  std::vector<uint8_t> lane;  // empty when group == 1
  // Column c's cursor row (cursor_columns of them, in the order of c) or -1 for a column
  // without events; first_at[k * cursor_columns + row]: start[c] plus it is c's first
  // event at plane k or after (k < nz). Empty (and every row -1) when a column holds more
  // than kMaxCursorOffset events: kernels then search ev_k.
  std::vector<int> cursor_row;
  std::vector<uint16_t> first_at;
  int cursor_columns = 0;
};

constexpr int kMaxCursorOffset = 65535;

// The cursors of `ev` (start, k) over planes 0 .. nz - 1 (make_column_events calls it).
void make_event_cursors(ColumnEvents& ev, int64_t columns, int nz);

// `bnd`, `solid`, `src`: the nodes of the step's boundary nodes, solid nodes and sources
// (enclosed solid nodes get no event, above),
// each in the order of its device array (the codes index them); `bnd_coeffs[r]` says which
// boundary nodes share coefficients (equal ids: the same mask, fixed count and
// coefficients). Throws std::invalid_argument naming the index for a node that is not an
// interior point, or a node that is both a boundary node and a solid.
ColumnEvents make_column_events(const FieldLayout& L, const std::vector<int64_t>& bnd,
                                const std::vector<int>& bnd_coeffs, const std::vector<int64_t>& solid,
                                const std::vector<int64_t>& src);

// The events `ev` (listed per column of an nx x ny x nz grid) listed per group of `group`
// columns (2 to 255; ColumnEvents::group), with their cursors.
ColumnEvents group_column_events(const ColumnEvents& ev, int nx, int ny, int nz, int group);

}  // namespace ws
