// The face classes and per-column event lists of the fused step kernel
// (sim/cuda/column_events.hpp).
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <set>
#include <stdexcept>

#include "cuda/column_events.hpp"

namespace ws {
namespace {

// The cursors of a listing of `columns` columns (or groups) on nz planes: each listed
// column with events has the next row, in order, and for every plane its first event at
// that plane or after, against a scan of its events; a column without events has no row.
void expect_cursors_find_first_events(const ColumnEvents& ev, int columns, int nz) {
  ASSERT_EQ(ev.cursor_row.size(), (size_t)columns);
  int rows = 0;
  for (int c = 0; c < columns; ++c) {
    const int e0 = ev.start[(size_t)c], e1 = ev.start[(size_t)c + 1];
    if (e0 == e1) {
      EXPECT_EQ(ev.cursor_row[(size_t)c], -1) << "column " << c;
      continue;
    }
    ASSERT_EQ(ev.cursor_row[(size_t)c], rows++) << "column " << c;
    for (int k = 0; k < nz; ++k) {
      int want = e0;
      while (want < e1 && ev.k[(size_t)want] < k) ++want;
      const int got = e0 + ev.first_at[(size_t)k * (size_t)ev.cursor_columns + (size_t)ev.cursor_row[(size_t)c]];
      EXPECT_EQ(got, want) << "column " << c << ", plane " << k;
    }
  }
  EXPECT_EQ(ev.cursor_columns, rows);
  EXPECT_EQ(ev.first_at.size(), (size_t)rows * (size_t)nz);
}

TEST(ColumnEvents, FaceClassesNameTheFacesEdgesAndCorners) {
  const FieldLayout L = make_layout(7, 5, 9, 1, 4);
  EXPECT_EQ(face_class(L, 3, 2, 4), 0);
  EXPECT_EQ(face_class(L, 0, 2, 4), 1);
  EXPECT_EQ(face_class(L, 6, 2, 4), 2);
  EXPECT_EQ(face_class(L, 3, 0, 4), 3);
  EXPECT_EQ(face_class(L, 3, 4, 4), 6);
  EXPECT_EQ(face_class(L, 3, 2, 0), 9);
  EXPECT_EQ(face_class(L, 6, 4, 8), 2 + 6 + 18);
  const FieldLayout one = make_layout(1, 5, 5, 1, 4);
  EXPECT_EQ(face_class(one, 0, 2, 2), 1);  // a one-node axis: its first node
}

// A 7 x 5 x 9 box with walls on -x only: class 1 (and its edges 1 + 3, 1 + 6, 1 + 9, ...)
// take their usual coefficients from the table; the odd ones are events.
TEST(ColumnEvents, WallsByClassTheRestAsEventsInPlaneOrder) {
  const FieldLayout L = make_layout(7, 5, 9, 1, 4);
  std::vector<int64_t> bnd;
  std::vector<int> ids;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j) {
      if (j == 1 && k == 1) continue;  // a solid
      bnd.push_back(L.index(0, j, k));
      ids.push_back(j == 2 && k == 4 ? 7 : 3);  // one node of class 1 differs (next to an obstacle)
    }
  bnd.push_back(L.index(3, 2, 5));  // an interior boundary node (class 0): always an event
  ids.push_back(3);
  const std::vector<int64_t> solid = {L.index(3, 2, 4), L.index(0, 1, 1)};  // one on the -x face
  const std::vector<int64_t> src = {L.index(3, 2, 5), L.index(1, 1, 1), L.index(3, 2, 5)};
  const ColumnEvents ev = make_column_events(L, bnd, ids, solid, src);
  ASSERT_EQ(ev.start.size(), (size_t)(7 * 5 + 1));
  EXPECT_EQ(ev.class_bnd[0], -1);
  ASSERT_GE(ev.class_bnd[1], 0);
  EXPECT_EQ(ids[(size_t)ev.class_bnd[1]], 3);
  EXPECT_EQ(ev.class_bnd[2], -1);  // +x: no wall, the interior update
  // Column (0, 2): the odd node at k = 4 only.
  const int c02 = 0 + 7 * 2;
  ASSERT_EQ(ev.start[c02 + 1] - ev.start[c02], 1);
  EXPECT_EQ(ev.k[ev.start[c02]], 4);
  EXPECT_EQ(ids[(size_t)ev.code[ev.start[c02]]], 7);
  EXPECT_EQ(bnd[(size_t)ev.code[ev.start[c02]]], L.index(0, 2, 4));
  // Column (0, 1): the solid on the face.
  const int c01 = 0 + 7 * 1;
  ASSERT_EQ(ev.start[c01 + 1] - ev.start[c01], 1);
  EXPECT_EQ(ev.code[ev.start[c01]], kEventSolid);
  // Column (3, 2): the solid at k = 4, then the boundary node at k = 5 and its two sources in order.
  const int c32 = 3 + 7 * 2;
  ASSERT_EQ(ev.start[c32 + 1] - ev.start[c32], 4);
  const int b = ev.start[c32];
  EXPECT_EQ(ev.k[b], 4);
  EXPECT_EQ(ev.code[b], kEventSolid);
  EXPECT_EQ(ev.k[b + 1], 5);
  EXPECT_EQ(ev.code[b + 1], (int)bnd.size() - 1);
  EXPECT_EQ(ev.code[b + 2], event_source_code(0));
  EXPECT_EQ(ev.code[b + 3], event_source_code(2));
  EXPECT_EQ(event_source_index(ev.code[b + 3]), 2);
  // Column (1, 1): the source at k = 1.
  const int c11 = 1 + 7 * 1;
  ASSERT_EQ(ev.start[c11 + 1] - ev.start[c11], 1);
  EXPECT_EQ(ev.k[ev.start[c11]], 1);
  EXPECT_EQ(ev.start.back(), 1 + 1 + 4 + 1);
}

// A face node of a class with boundary coefficients that is not a boundary node takes
// the interior update: a plain event.
TEST(ColumnEvents, FaceNodesMissingFromTheWallsArePlainEvents) {
  const FieldLayout L = make_layout(4, 4, 4, 1, 8);
  std::vector<int64_t> bnd;
  std::vector<int> ids;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      if (!(j == 1 && k == 2)) {
        bnd.push_back(L.index(3, j, k));
        ids.push_back(0);
      }
  const ColumnEvents ev = make_column_events(L, bnd, ids, {}, {});
  EXPECT_GE(ev.class_bnd[2], 0);
  const int c = 3 + 4 * 1;
  ASSERT_EQ(ev.start[c + 1] - ev.start[c], 1);
  EXPECT_EQ(ev.k[ev.start[c]], 2);
  EXPECT_EQ(ev.code[ev.start[c]], kEventPlain);
  EXPECT_EQ(ev.start.back(), 1);
}

TEST(ColumnEvents, RefusesHaloNodesAndANodeBothBoundaryAndSolid) {
  const FieldLayout L = make_layout(6, 6, 6, 1, 8);
  try {
    make_column_events(L, {L.index(-1, 2, 2)}, {0}, {}, {});
    FAIL() << "a halo node was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(L.index(-1, 2, 2))), std::string::npos) << e.what();
  }
  EXPECT_THROW(make_column_events(L, {}, {}, {}, {L.index(0, 6, 0)}), std::invalid_argument);
  EXPECT_THROW(make_column_events(L, {L.index(1, 2, 3)}, {0}, {L.index(1, 2, 3)}, {}), std::invalid_argument);
  EXPECT_THROW(make_column_events(L, {L.index(1, 2, 3)}, {}, {}, {}), std::invalid_argument);
  EXPECT_NO_THROW(make_column_events(L, {L.index(1, 2, 3)}, {0}, {}, {L.index(1, 2, 3)}));
}


// The cursors: for every column with events and every plane, the first event at that
// plane or after, against a scan of the column's events; random solids and sources on an
// odd grid, columns without events have no row.
TEST(ColumnEvents, CursorsFindEachColumnsFirstEventAtEveryPlane) {
  const FieldLayout L = make_layout(9, 7, 13, 1, 4);
  std::mt19937 rng(7);
  std::set<int64_t> picked;
  for (int n = 0; n < 120; ++n)
    picked.insert(L.index((int)(rng() % 5) + 2, (int)(rng() % 4) + 1, (int)(rng() % (unsigned)L.nz)));
  const std::vector<int64_t> solid(picked.begin(), picked.end());
  const std::vector<int64_t> src = {L.index(0, 0, 12), L.index(8, 6, 0), L.index(0, 0, 12)};
  const ColumnEvents ev = make_column_events(L, {}, {}, solid, src);
  expect_cursors_find_first_events(ev, L.nx * L.ny, L.nz);
}

// Enclosed solids (six solid neighbours, no source at the node or next to it) have no
// event; every other solid node has one. A 5^3 block of solids in a 10^3 box, one source
// at its centre and the block touching the -z face: of its 27 inner nodes the centre and
// its six neighbours keep their events, and the layer on the face is all events.
TEST(ColumnEvents, SolidsEnclosedBySolidsHaveNoEvents) {
  const FieldLayout L = make_layout(10, 10, 10, 1, 4);
  std::vector<int64_t> solid;
  std::set<int64_t> enclosed;
  for (int k = 0; k < 5; ++k)
    for (int j = 2; j < 7; ++j)
      for (int i = 2; i < 7; ++i) {
        solid.push_back(L.index(i, j, k));
        const bool inner = i > 2 && i < 6 && j > 2 && j < 6 && k > 0 && k < 4;
        const int from_source = std::abs(i - 4) + std::abs(j - 4) + std::abs(k - 2);
        if (inner && from_source > 1) enclosed.insert(L.index(i, j, k));
      }
  ASSERT_EQ(enclosed.size(), 27u - 7u);
  const std::vector<int64_t> src = {L.index(4, 4, 2)};
  const ColumnEvents ev = make_column_events(L, {}, {}, solid, src);
  std::set<int64_t> with_event;
  for (int c = 0; c < L.nx * L.ny; ++c)
    for (int e = ev.start[(size_t)c]; e < ev.start[(size_t)c + 1]; ++e)
      if (ev.code[(size_t)e] == kEventSolid) with_event.insert(L.index(c % L.nx, c / L.nx, ev.k[(size_t)e]));
  EXPECT_EQ(with_event.size(), solid.size() - enclosed.size());
  for (int64_t q : solid) EXPECT_NE(with_event.count(q) == 1, enclosed.count(q) == 1) << "node " << q;
  // Without the source the centre and its neighbours are enclosed too.
  const ColumnEvents bare = make_column_events(L, {}, {}, solid, {});
  EXPECT_EQ(bare.k.size(), solid.size() - 27u);
}

// The events listed per group of 4 columns (zstream_fused_vec's threads): each column's
// events, in its order, are its lane's events of its group; the cursors find each group's
// first event at every plane. An odd grid (9 columns a row: the last group holds one),
// random solids, boundary nodes with coefficients off their class, and sources.
TEST(ColumnEvents, GroupsOfColumnsKeepEachColumnsEventsInOrder) {
  const FieldLayout L = make_layout(9, 7, 13, 1, 4);
  std::mt19937 rng(11);
  std::set<int64_t> picked;
  for (int n = 0; n < 150; ++n)
    picked.insert(L.index((int)(rng() % 7) + 1, (int)(rng() % 5) + 1, (int)(rng() % (unsigned)L.nz)));
  std::vector<int64_t> solid, bnd;
  std::vector<int> ids;
  for (int64_t q : picked) {
    if (rng() % 3 == 0) {
      bnd.push_back(q);
      ids.push_back((int)(rng() % 3));
    } else {
      solid.push_back(q);
    }
  }
  const std::vector<int64_t> src = {L.index(8, 6, 0), L.index(8, 6, 0), L.index(3, 2, 5), *picked.begin()};
  const ColumnEvents ev = make_column_events(L, bnd, ids, solid, src);
  const ColumnEvents g = group_column_events(ev, L.nx, L.ny, L.nz, 4);
  EXPECT_EQ(g.group, 4);
  const int groups_x = 3;
  ASSERT_EQ(g.start.size(), (size_t)(groups_x * L.ny + 1));
  ASSERT_EQ(g.k.size(), ev.k.size());
  ASSERT_EQ(g.lane.size(), ev.k.size());
  for (int j = 0; j < L.ny; ++j)
    for (int i = 0; i < L.nx; ++i) {
      const int c = i + L.nx * j, id = i / 4 + groups_x * j;
      std::vector<std::pair<int, int>> want, got;
      for (int e = ev.start[(size_t)c]; e < ev.start[(size_t)c + 1]; ++e) want.push_back({ev.k[(size_t)e], ev.code[(size_t)e]});
      for (int e = g.start[(size_t)id]; e < g.start[(size_t)id + 1]; ++e)
        if (g.lane[(size_t)e] == i % 4) got.push_back({g.k[(size_t)e], g.code[(size_t)e]});
      EXPECT_EQ(got, want) << "column (" << i << ", " << j << ")";
    }
  for (int id = 0; id < groups_x * L.ny; ++id)
    for (int e = g.start[(size_t)id] + 1; e < g.start[(size_t)id + 1]; ++e)
      EXPECT_LE(g.k[(size_t)e - 1], g.k[(size_t)e]) << "group " << id << " is not in the order of k";
  expect_cursors_find_first_events(g, groups_x * L.ny, L.nz);
  EXPECT_THROW(group_column_events(ev, L.nx, L.ny, L.nz, 1), std::invalid_argument);
  EXPECT_THROW(group_column_events(ev, L.nx + 1, L.ny, L.nz, 4), std::invalid_argument);
  EXPECT_THROW(group_column_events(g, 3, L.ny, L.nz, 4), std::invalid_argument);
}

// A column with more events than a cursor offset holds: no cursors at all (the kernels
// then search the column's events).
TEST(ColumnEvents, TooManyEventsInAColumnLeaveNoCursors) {
  ColumnEvents ev;
  ev.start = {0, 2, 2, kMaxCursorOffset + 3};
  for (int e = 0; e < kMaxCursorOffset + 3; ++e) ev.k.push_back(e < 2 ? e : 0);
  make_event_cursors(ev, 3, 4);
  EXPECT_EQ(ev.cursor_columns, 0);
  EXPECT_TRUE(ev.first_at.empty());
  EXPECT_EQ(ev.cursor_row, std::vector<int>(3, -1));
  ev.start = {0, 2, 2, 5};
  make_event_cursors(ev, 3, 4);
  EXPECT_EQ(ev.cursor_columns, 2);
  EXPECT_EQ(ev.cursor_row, (std::vector<int>{0, -1, 1}));
}

}  // namespace
}  // namespace ws
