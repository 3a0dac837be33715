#pragma once
// A group's column events at one plane in one record, for zstream_fused_vec (a thread
// holds the N points of a group of N columns, column_events.hpp's group listing).
//
// In the group listing a plane with events is a loop over its events, one record load
// and one branch on the lane per event: a y face of an obstacle puts an event on every
// lane at every plane of the face, a floor-facing surface one on every lane at one plane,
// and each of those threads then runs the plane's events one after another while the
// rest of its warp waits. Here the plane's boundary, solid and plain events are one
// 32-byte record that says for every lane what it takes:
//   - kind (bits 0-1): none, solid (held at zero), plain (the interior update) or a
//     boundary node;
//   - for a boundary node its air mask (bits 2-7), fixed count (bits 8-10) and the index
//     of its (cd, cl) pair in a table of the step's distinct pairs (bits 11-31);
// with the plane of the group's next record (so a thread knows where to stop next without
// another load) and the first of the plane's source events in a short list of its own
// (sources are few; a lane's sources come after its boundary, solid or plain event, as in
// the event listing). Host-only, tested on the CPU.
#include <climits>
#include <cstdint>
#include <vector>

#include "core/hd.hpp"
#include "cuda/column_events.hpp"

namespace ws {

constexpr uint32_t kLaneNone = 0, kLaneSolid = 1, kLanePlain = 2, kLaneBoundary = 3;
constexpr int kPlaneLanes = 4;           // lanes a record holds (float's group; double uses 2)
constexpr uint32_t kMaxPlaneCoeffId = (1u << 21) - 1;

WS_HD constexpr uint32_t plane_lane_word(uint32_t kind, uint32_t mask, uint32_t n_fixed, uint32_t id) {
  return kind | (mask & 63u) << 2 | (n_fixed & 7u) << 8 | id << 11;
}
WS_HD constexpr uint32_t lane_kind(uint32_t w) { return w & 3u; }
WS_HD constexpr uint32_t lane_mask(uint32_t w) { return (w >> 2) & 63u; }
WS_HD constexpr uint32_t lane_fixed(uint32_t w) { return (w >> 8) & 7u; }
WS_HD constexpr uint32_t lane_coeff_id(uint32_t w) { return w >> 11; }

struct alignas(16) PlaneRecord {
  int next_k = INT_MAX;  // the plane of the group's next record; INT_MAX after its last
  int src = -1;          // the plane's first source event (PlaneEvents::src_*), -1: none
  int pad[2] = {0, 0};
  uint32_t lane[kPlaneLanes] = {0, 0, 0, 0};
};
static_assert(sizeof(PlaneRecord) == 32, "PlaneRecord is two 16-byte loads");

template <class T>
struct PlaneEvents {
  int group = 0;
  // Group c's records start[c] .. start[c+1] - 1, one per plane with events, at planes k;
  // cursors as ColumnEvents' (the first record at plane k or after).
  std::vector<int> start, k;
  std::vector<PlaneRecord> rec;
  std::vector<int> cursor_row;
  std::vector<uint16_t> first_at;
  int cursor_columns = 0;
  // Source events: code (event_source_code), lane, and whether it is its plane's last.
  std::vector<int> src_code;
  std::vector<uint8_t> src_lane, src_last;
  // The distinct (cd, cl) pairs of the boundary events: pair c at 2c, 2c + 1.
  std::vector<T> coeff;
};

// The records of `g` (a listing per group of 2 to kPlaneLanes columns, group_column_events)
// from the step's bnd_* arrays (mask, fixed count, cd, cl; the codes index them). Throws
// std::invalid_argument for a listing per column or per larger group, a boundary code
// outside the arrays, two boundary, solid or plain events at one node, a mask or fixed
// count that does not fit its bits, and std::length_error past 2^21 distinct pairs.
template <class T>
PlaneEvents<T> make_plane_events(const ColumnEvents& g, int nz, const std::vector<uint8_t>& mask,
                                 const std::vector<uint8_t>& nf, const std::vector<T>& cd, const std::vector<T>& cl);

}  // namespace ws
