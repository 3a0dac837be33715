// The plane records of zstream_fused_vec (sim/cuda/plane_events.hpp): one record per group
// and plane that says what each lane takes, built from the group listing of column events.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "cuda/column_events.hpp"
#include "cuda/plane_events.hpp"

namespace ws {
namespace {

// A 10 x 7 x 13 grid with random boundary nodes (three coefficient sets, each mask and
// fixed count its own), solids and sources (two at one node, one at a boundary node).
struct RandomStep {
  FieldLayout L = make_layout(10, 7, 13, 1, 4);
  std::vector<int64_t> bnd, solid, src;
  std::vector<int> ids;
  std::vector<uint8_t> mask, nf;
  std::vector<double> cd, cl;
  RandomStep() {
    std::mt19937 rng(5);
    std::set<int64_t> picked;
    for (int n = 0; n < 180; ++n)
      picked.insert(L.index((int)(rng() % 8) + 1, (int)(rng() % 5) + 1, (int)(rng() % (unsigned)L.nz)));
    for (int64_t q : picked) {
      if (rng() % 2 == 0) {
        const int id = (int)(rng() % 3);
        bnd.push_back(q);
        ids.push_back(id);
        mask.push_back((uint8_t)(rng() % 64));
        nf.push_back((uint8_t)(rng() % 3));
        cd.push_back(0.25 * id + 0.5);
        cl.push_back(0.125 * id + 0.25);
      } else {
        solid.push_back(q);
      }
    }
    src = {L.index(9, 6, 0), L.index(9, 6, 0), L.index(3, 2, 5), bnd.front()};
  }
};

// Every event of the group listing, as (group, k, lane, code), from the plane records.
using Event = std::tuple<int, int, int, int>;
std::vector<Event> events_of_records(const PlaneEvents<double>& pe, const std::vector<int>& bnd_of_pair_mask,
                                     const RandomStep& s) {
  std::vector<Event> out;
  for (size_t c = 0; c + 1 < pe.start.size(); ++c)
    for (int r = pe.start[c]; r < pe.start[c + 1]; ++r) {
      const PlaneRecord& rec = pe.rec[(size_t)r];
      const int k = pe.k[(size_t)r];
      for (int q = 0; q < pe.group; ++q) {
        const uint32_t w = rec.lane[q];
        if (lane_kind(w) == kLaneSolid) out.emplace_back((int)c, k, q, kEventSolid);
        if (lane_kind(w) == kLanePlain) out.emplace_back((int)c, k, q, kEventPlain);
        if (lane_kind(w) == kLaneBoundary) {
          // The boundary node the lane names: the one at this group, plane and lane.
          const int i = (int)(c % (size_t)((s.L.nx + pe.group - 1) / pe.group)) * pe.group + q;
          const int j = (int)(c / (size_t)((s.L.nx + pe.group - 1) / pe.group));
          const int b = bnd_of_pair_mask[(size_t)s.L.index(i, j, k)];
          EXPECT_GE(b, 0) << "group " << c << " plane " << k << " lane " << q;
          if (b < 0) continue;
          EXPECT_EQ(lane_mask(w), s.mask[(size_t)b]);
          EXPECT_EQ(lane_fixed(w), s.nf[(size_t)b]);
          EXPECT_EQ(pe.coeff[2 * lane_coeff_id(w)], s.cd[(size_t)b]);
          EXPECT_EQ(pe.coeff[2 * lane_coeff_id(w) + 1], s.cl[(size_t)b]);
          out.emplace_back((int)c, k, q, b);
        }
      }
      if (rec.src >= 0)
        for (int e = rec.src;; ++e) {
          out.emplace_back((int)c, k, pe.src_lane[(size_t)e], pe.src_code[(size_t)e]);
          if (pe.src_last[(size_t)e]) break;
        }
    }
  return out;
}

TEST(PlaneEvents, EachGroupsPlaneIsOneRecordHoldingItsEvents) {
  const RandomStep s;
  const ColumnEvents ev = make_column_events(s.L, s.bnd, s.ids, s.solid, s.src);
  for (int group : {2, 3, 4}) {
    SCOPED_TRACE(::testing::Message() << "group " << group);
    const ColumnEvents g = group_column_events(ev, s.L.nx, s.L.ny, s.L.nz, group);
    const PlaneEvents<double> pe = make_plane_events(g, s.L.nz, s.mask, s.nf, s.cd, s.cl);
    EXPECT_EQ(pe.group, group);
    ASSERT_EQ(pe.start.size(), g.start.size());
    // Records: one per (group, plane) with events, in the order of k, each naming the next's plane.
    for (size_t c = 0; c + 1 < g.start.size(); ++c) {
      std::vector<int> planes;
      for (int e = g.start[c]; e < g.start[c + 1]; ++e)
        if (planes.empty() || planes.back() != g.k[(size_t)e]) planes.push_back(g.k[(size_t)e]);
      ASSERT_EQ(pe.start[c + 1] - pe.start[c], (int)planes.size()) << "group " << c;
      for (size_t p = 0; p < planes.size(); ++p) {
        const int r = pe.start[c] + (int)p;
        EXPECT_EQ(pe.k[(size_t)r], planes[p]);
        EXPECT_EQ(pe.rec[(size_t)r].next_k, p + 1 < planes.size() ? planes[p + 1] : INT_MAX);
      }
    }
    // The same events, the sources in their order after the lane's other event.
    std::vector<int> bnd_at((size_t)s.L.total, -1);
    for (size_t b = 0; b < s.bnd.size(); ++b) bnd_at[(size_t)s.bnd[b]] = (int)b;
    std::vector<Event> want;
    for (size_t c = 0; c + 1 < g.start.size(); ++c)
      for (int e = g.start[c]; e < g.start[c + 1]; ++e)
        want.emplace_back((int)c, g.k[(size_t)e], g.lane[(size_t)e], g.code[(size_t)e]);
    const std::vector<Event> got = events_of_records(pe, bnd_at, s);
    auto by_plane = [](std::vector<Event> v) {  // a plane's lanes in order, each lane's events kept in order
      std::stable_sort(v.begin(), v.end(), [](const Event& a, const Event& b) {
        return std::make_tuple(std::get<0>(a), std::get<1>(a), std::get<2>(a)) <
               std::make_tuple(std::get<0>(b), std::get<1>(b), std::get<2>(b));
      });
      return v;
    };
    EXPECT_EQ(by_plane(got), by_plane(want));
    EXPECT_EQ(pe.coeff.size(), 6u) << "three distinct (cd, cl) pairs";
    EXPECT_EQ(pe.src_code.size(), s.src.size());
    // Cursors over the records.
    ASSERT_EQ(pe.cursor_row.size(), pe.start.size() - 1);
    for (size_t c = 0; c + 1 < pe.start.size(); ++c) {
      if (pe.start[c] == pe.start[c + 1]) {
        EXPECT_EQ(pe.cursor_row[c], -1);
        continue;
      }
      for (int k = 0; k < s.L.nz; ++k) {
        int r = pe.start[c];
        while (r < pe.start[c + 1] && pe.k[(size_t)r] < k) ++r;
        EXPECT_EQ(pe.start[c] + pe.first_at[(size_t)k * (size_t)pe.cursor_columns + (size_t)pe.cursor_row[c]], r);
      }
    }
  }
}

TEST(PlaneEvents, RefusesListingsItCannotHold) {
  const RandomStep s;
  const ColumnEvents ev = make_column_events(s.L, s.bnd, s.ids, s.solid, s.src);
  EXPECT_THROW(make_plane_events(ev, s.L.nz, s.mask, s.nf, s.cd, s.cl), std::invalid_argument);  // per column
  const ColumnEvents g8 = group_column_events(ev, s.L.nx, s.L.ny, s.L.nz, 8);
  EXPECT_THROW(make_plane_events(g8, s.L.nz, s.mask, s.nf, s.cd, s.cl), std::invalid_argument);
  const ColumnEvents g = group_column_events(ev, s.L.nx, s.L.ny, s.L.nz, 4);
  // A boundary code past the arrays, a mask past six bits, a fixed count past seven.
  std::vector<uint8_t> short_mask(s.mask.begin(), s.mask.end() - 1);
  EXPECT_THROW(make_plane_events(g, s.L.nz, short_mask, s.nf, s.cd, s.cl), std::invalid_argument);
  std::vector<uint8_t> wide = s.mask;
  for (auto& m : wide) m = 64;
  EXPECT_THROW(make_plane_events(g, s.L.nz, wide, s.nf, s.cd, s.cl), std::invalid_argument);
  std::vector<uint8_t> many = s.nf;
  for (auto& n : many) n = 8;
  EXPECT_THROW(make_plane_events(g, s.L.nz, s.mask, many, s.cd, s.cl), std::invalid_argument);
  // Two solid events at one lane of one plane.
  ColumnEvents two;
  two.group = 4;
  two.start = {0, 2};
  two.k = {3, 3};
  two.code = {kEventSolid, kEventSolid};
  two.lane = {1, 1};
  try {
    make_plane_events(two, 5, s.mask, s.nf, s.cd, s.cl);
    ADD_FAILURE() << "two events at one lane were accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("lane 1 of plane 3"), std::string::npos) << e.what();
  }
}

// A listing whose start, k or order is not a listing's is refused with what was wrong.
TEST(PlaneEvents, RefusesMalformedListings) {
  const RandomStep s;
  auto expect_refused = [&](const ColumnEvents& g, const std::string& says) {
    try {
      make_plane_events(g, 5, s.mask, s.nf, s.cd, s.cl);
      ADD_FAILURE() << "accepted a listing that should say \"" << says << "\"";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
  };
  ColumnEvents g;
  g.group = 2;
  g.start = {0, 2};
  g.k = {3, 1};  // planes out of order
  g.code = {kEventSolid, kEventSolid};
  g.lane = {0, 1};
  expect_refused(g, "not before the group's previous event");
  g.k = {3, 5};  // past the last plane
  expect_refused(g, "allowed: planes 0 to 4");
  g.k = {-1, 2};
  expect_refused(g, "at plane -1");
  g.k = {1, 2};
  g.start = {0, 1};  // ends before the events do
  expect_refused(g, "start must run from 0 to its 2 events");
  g.start = {};
  expect_refused(g, "start must run from 0 to its 2 events");
  g.start = {0, 2, 1, 2};
  expect_refused(g, "group 1 starts at event 2 and ends before it, at 1");
  g.start = {0, 2};
  g.lane = {0};
  expect_refused(g, "differ in length");
}

TEST(PlaneEvents, ListingWithoutEventsHasNoRecords) {
  const RandomStep s;
  ColumnEvents g;
  g.group = 4;
  g.start = {0, 0, 0, 0};
  const PlaneEvents<double> pe = make_plane_events(g, 6, s.mask, s.nf, s.cd, s.cl);
  EXPECT_EQ(pe.start, std::vector<int>({0, 0, 0, 0}));
  EXPECT_TRUE(pe.rec.empty());
  EXPECT_TRUE(pe.k.empty());
  EXPECT_TRUE(pe.coeff.empty());
  EXPECT_TRUE(pe.src_code.empty());
  ASSERT_EQ(pe.cursor_row.size(), 3u);
  for (int row : pe.cursor_row) EXPECT_EQ(row, -1);
}

// Pairs that compare equal but differ in their bits (+0 and -0) get ids of their own, so
// that a lane's coefficients are the very values of its boundary node.
TEST(PlaneEvents, SignedZerosAreDistinctPairs) {
  ColumnEvents g;
  g.group = 2;
  g.start = {0, 3};
  g.k = {0, 0, 1};
  g.code = {0, 1, 2};
  g.lane = {0, 1, 0};
  const std::vector<uint8_t> mask = {1, 1, 1}, nf = {0, 0, 0};
  const std::vector<float> cd = {0.0f, -0.0f, 0.0f}, cl = {0.5f, 0.5f, 0.5f};
  const PlaneEvents<float> pe = make_plane_events(g, 2, mask, nf, cd, cl);
  ASSERT_EQ(pe.coeff.size(), 4u) << "+0 and -0 are two pairs";
  ASSERT_EQ(pe.rec.size(), 2u);
  const uint32_t a = lane_coeff_id(pe.rec[0].lane[0]), b = lane_coeff_id(pe.rec[0].lane[1]);
  EXPECT_NE(a, b);
  EXPECT_FALSE(std::signbit(pe.coeff[2 * a]));
  EXPECT_TRUE(std::signbit(pe.coeff[2 * b]));
  EXPECT_EQ(lane_coeff_id(pe.rec[1].lane[0]), a) << "equal bits share an id";
}

}  // namespace
}  // namespace ws
