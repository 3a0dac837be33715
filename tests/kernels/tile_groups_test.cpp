// The grouping by tile that the persistent kernel's step data uses (sim/cuda/tile_groups.hpp).
#include <gtest/gtest.h>
#include <algorithm>

#include <random>
#include <set>

#include "cuda/tile_groups.hpp"
#include "cuda/tiled_step.hpp"

namespace ws {
namespace {

TEST(TileGroups, EveryPointLandsInTheTileThatHoldsIt) {
  const FieldLayout L = make_layout(37, 29, 23, 1, 4);
  const TileGrid g = make_tile_grid(L, TileShape{16, 8, 5});
  EXPECT_EQ(g.nx, 3);
  EXPECT_EQ(g.ny, 4);
  EXPECT_EQ(g.nz, 5);
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const int64_t q = L.index(i, j, k);
        const FieldLayout::Point p = L.point(q);
        ASSERT_EQ(p.i, i);
        ASSERT_EQ(p.j, j);
        ASSERT_EQ(p.k, k);
        ASSERT_EQ(tile_of(L, g, q), i / 16 + 3 * (j / 8 + 4 * (k / 5)));
      }
}

TEST(TileGroups, RefusesHaloPointsAndEmptyTiles) {
  const FieldLayout L = make_layout(10, 9, 8, 2, 8);
  const TileGrid g = make_tile_grid(L, TileShape{4, 4, 4});
  EXPECT_THROW(tile_of(L, g, L.index(-1, 0, 0)), std::invalid_argument);
  EXPECT_THROW(tile_of(L, g, L.index(0, 9, 0)), std::invalid_argument);
  EXPECT_THROW(tile_of(L, g, L.index(0, 0, -2)), std::invalid_argument);
  EXPECT_THROW(tile_of(L, g, L.total), std::invalid_argument);
  try {
    make_tile_grid(L, TileShape{4, 0, 4});
    FAIL() << "a tile with a zero side was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("4x0x4"), std::string::npos) << e.what();
  }
}

TEST(TileGroups, GroupsAreAStablePermutationByTile) {
  const FieldLayout L = make_layout(41, 17, 13, 1, 4);
  const TileGrid g = make_tile_grid(L, TileShape{32, 8, 3});
  std::mt19937 rng(7);
  std::vector<int64_t> nodes;
  for (int n = 0; n < 2000; ++n)
    nodes.push_back(L.index((int)(rng() % L.nx), (int)(rng() % L.ny), (int)(rng() % L.nz)));
  const TileGroups t = group_by_tile(L, g, nodes);
  ASSERT_EQ(t.start.size(), (size_t)g.count() + 1);
  EXPECT_EQ(t.start.front(), 0);
  EXPECT_EQ(t.start.back(), (int)nodes.size());
  std::set<int> seen;
  for (int tile = 0; tile < g.count(); ++tile)
    for (int r = t.start[tile]; r < t.start[tile + 1]; ++r) {
      EXPECT_EQ(tile_of(L, g, nodes[t.order[r]]), tile);
      if (r > t.start[tile]) EXPECT_LT(t.order[r - 1], t.order[r]) << "not stable";
      seen.insert(t.order[r]);
    }
  EXPECT_EQ(seen.size(), nodes.size());
  const std::vector<int64_t> sorted = gather(nodes, t.order);
  for (size_t r = 0; r < sorted.size(); ++r) EXPECT_EQ(sorted[r], nodes[t.order[r]]);
}

// The map of the box's faces that temporal_2step finds its wall nodes through.
TEST(BoxFaces, EveryWallNodeIsFoundOnItsFaceAndNoOtherPoint) {
  const FieldLayout L = make_layout(13, 9, 7, 1, 4);
  const double lambda = 0.5;
  BoxWalls w;
  w.fill(WallCondition::with_absorption(0.2));
  w[1] = WallCondition::rigid();
  w[3] = WallCondition::fixed();
  w[5] = WallCondition::open();
  const BoundaryPlan plan = make_boundary_plan(L, w, {}, lambda);
  ASSERT_FALSE(plan.node.empty());
  EXPECT_TRUE(plan_on_box_faces(plan, L));
  const std::vector<int> f = box_face_nodes(L, plan.node);
  EXPECT_EQ((int64_t)f.size(), box_face_slots(L));
  std::set<int64_t> nodes(plan.node.begin(), plan.node.end());
  int found = 0;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const int64_t slot = box_face_slot(L, i, j, k);
        const bool on_face = i == 0 || j == 0 || k == 0 || i == L.nx - 1 || j == L.ny - 1 || k == L.nz - 1;
        ASSERT_EQ(slot >= 0, on_face) << i << "," << j << "," << k;
        const int r = slot >= 0 ? f[(size_t)slot] : -1;
        const bool is_node = nodes.count(L.index(i, j, k)) > 0;
        ASSERT_EQ(r >= 0, is_node) << i << "," << j << "," << k;
        if (r >= 0) {
          EXPECT_EQ(plan.node[(size_t)r], L.index(i, j, k));
          ++found;
        }
      }
  EXPECT_EQ(found, (int)plan.node.size());
  // Only the fixed y_max wall leaves its face's nodes to the interior update.
  EXPECT_LT(f[(size_t)box_face_slot(L, 5, L.ny - 1, 3)], 0);
}

// The walls as whole faces (temporal_2step_vec tells a boundary node by its position):
// the bits of the faces whose points are all nodes, the nodes exactly their points.
TEST(BoxFaces, WholeWallFacesAreFoundAndAGapIsRefused) {
  const FieldLayout L = make_layout(13, 9, 7, 1, 4);
  BoxWalls w;
  w.fill(WallCondition::with_absorption(0.2));
  w[1] = WallCondition::rigid();
  w[3] = WallCondition::fixed();
  BoundaryPlan plan = make_boundary_plan(L, w, {}, 0.5);
  const int faces = box_wall_faces(plan, L);
  EXPECT_EQ(faces, 0b110111) << "every face but the fixed y_max";
  std::set<int64_t> nodes(plan.node.begin(), plan.node.end());
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const bool on = (i == 0 && (faces & 1)) || (i == L.nx - 1 && (faces & 2)) || (j == 0 && (faces & 4)) ||
                        (j == L.ny - 1 && (faces & 8)) || (k == 0 && (faces & 16)) || (k == L.nz - 1 && (faces & 32));
        ASSERT_EQ(on, nodes.count(L.index(i, j, k)) > 0) << i << "," << j << "," << k;
      }
  EXPECT_EQ(box_wall_faces(BoundaryPlan{}, L), 0) << "fixed walls: no wall face";
  // A gap in the x_min wall: its other points lie on no whole face.
  const auto gap = std::find(plan.node.begin(), plan.node.end(), L.index(0, 4, 3));
  ASSERT_NE(gap, plan.node.end());
  plan.node.erase(gap);
  EXPECT_TRUE(plan_on_box_faces(plan, L));
  EXPECT_EQ(box_wall_faces(plan, L), -1);
}

// The walls a kernel can update from their face classes alone (MultiWalls::ClassFaces): whole faces
// whose nodes of each class share their mask, count and admittance; one node absorbing
// more than the rest of its face, a gap or an obstacle is refused; no walls at all holds.
TEST(BoxFaces, WallsHeldByTheirFaceClassesAreFound) {
  const FieldLayout L = make_layout(13, 9, 7, 1, 4);
  BoxWalls w;
  w.fill(WallCondition::with_absorption(0.2));
  w[1] = WallCondition::rigid();
  w[3] = WallCondition::fixed();
  const BoundaryPlan plan = make_boundary_plan(L, w, {}, 0.5);
  EXPECT_TRUE(box_wall_classes(plan, L));
  EXPECT_TRUE(box_wall_classes(BoundaryPlan{}, L));
  BoundaryPlan uneven = plan;
  const size_t r = (size_t)(std::find(uneven.node.begin(), uneven.node.end(), L.index(0, 4, 3)) - uneven.node.begin());
  ASSERT_LT(r, uneven.node.size());
  uneven.beta_sum[r] *= 1.5;
  EXPECT_EQ(box_wall_faces(uneven, L), 0b110111) << "still whole faces";
  EXPECT_FALSE(box_wall_classes(uneven, L)) << "one node of x_min absorbing more";
  BoundaryPlan gap = plan;
  gap.node.erase(gap.node.begin() + (long)r);
  gap.neighbours.erase(gap.neighbours.begin() + (long)r);
  gap.count.erase(gap.count.begin() + (long)r);
  gap.beta_sum.erase(gap.beta_sum.begin() + (long)r);
  EXPECT_FALSE(box_wall_classes(gap, L)) << "a gap in x_min";
  BoundaryPlan solid = plan;
  solid.solid.push_back(L.index(6, 4, 3));
  EXPECT_FALSE(box_wall_classes(solid, L)) << "a solid node";
}

// The x walls temporal_2step_vec updates inside its passes, and the nodes left to the
// kernels around them.
struct XWallCase {
  FieldLayout L;
  BoundaryPlan plan;
  std::vector<uint8_t> nf;
  std::vector<double> cd, cl;
};
XWallCase x_wall_case(const BoxWalls& w, double scale_one_x_min_node = 1.0) {
  XWallCase c{make_layout(13, 9, 7, 1, 8), {}, {}, {}, {}};
  c.plan = make_boundary_plan(c.L, w, {}, 0.5);
  if (scale_one_x_min_node != 1.0) {
    const auto it = std::find(c.plan.node.begin(), c.plan.node.end(), c.L.index(0, 4, 3));
    c.plan.beta_sum[(size_t)(it - c.plan.node.begin())] *= scale_one_x_min_node;
  }
  for (size_t r = 0; r < c.plan.node.size(); ++r) {
    const BoundaryCoeffs b =
        boundary_coeffs(c.plan.count[r], c.plan.neighbours[r], c.plan.beta_sum[r], c.plan.lambda);
    c.nf.push_back((uint8_t)b.n_fixed);
    c.cd.push_back(b.cd);
    c.cl.push_back(b.cl);
  }
  return c;
}
XWallSplit<double> split(const XWallCase& c) {
  return split_x_walls(c.L, box_wall_faces(c.plan, c.L), c.plan.node, c.plan.neighbours, c.nf, c.cd, c.cl);
}
bool x_wall_inner(const FieldLayout& L, int64_t q, int i) {
  const FieldLayout::Point p = L.point(q);
  return p.i == i && p.j >= 1 && p.j <= L.ny - 2 && p.k >= 1 && p.k <= L.nz - 2;
}

TEST(XWalls, BothXFacesAreUpdatedInThePassAndTheRestIsSorted) {
  BoxWalls w;
  w.fill(WallCondition::with_absorption(0.2));
  w[1] = WallCondition::rigid();
  const XWallCase c = x_wall_case(w);
  const XWallSplit<double> s = split(c);
  EXPECT_TRUE(s.x[0].on && s.x[1].on);
  EXPECT_NE(s.x[0].cl, s.x[1].cl) << "absorbing and rigid faces share coefficients";
  std::set<int> rest(s.rest.begin(), s.rest.end());
  for (size_t r = 0; r < c.plan.node.size(); ++r) {
    const bool inner = x_wall_inner(c.L, c.plan.node[r], 0) || x_wall_inner(c.L, c.plan.node[r], c.L.nx - 1);
    EXPECT_EQ(rest.count((int)r) == 0, inner) << "node " << r;
    if (inner) {
      const XWallCoeffs<double>& x = s.x[c.L.point(c.plan.node[r]).i == 0 ? 0 : 1];
      EXPECT_EQ(c.cd[r], x.cd);
      EXPECT_EQ(c.cl[r], x.cl);
    }
  }
  for (size_t n = 1; n < s.rest.size(); ++n)
    EXPECT_LT(c.plan.node[(size_t)s.rest[n - 1]], c.plan.node[(size_t)s.rest[n]]);
}

TEST(XWalls, AnUnevenOrFixedXFaceIsLeftToTheKernelsAroundThePass) {
  BoxWalls w;
  w.fill(WallCondition::with_absorption(0.2));
  const XWallCase uneven = x_wall_case(w, 1.5);
  const XWallSplit<double> s = split(uneven);
  EXPECT_FALSE(s.x[0].on);
  EXPECT_TRUE(s.x[1].on);
  for (size_t r = 0; r < uneven.plan.node.size(); ++r)
    if (x_wall_inner(uneven.L, uneven.plan.node[r], 0))
      EXPECT_NE(std::find(s.rest.begin(), s.rest.end(), (int)r), s.rest.end()) << "node " << r;
  w[0] = WallCondition::fixed();
  const XWallSplit<double> f = split(x_wall_case(w));
  EXPECT_FALSE(f.x[0].on) << "a fixed face has no nodes";
  EXPECT_TRUE(f.x[1].on);
  // Walls that are not whole faces: nothing in the pass.
  const XWallCase c = x_wall_case(w);
  const XWallSplit<double> none = split_x_walls(c.L, -1, c.plan.node, c.plan.neighbours, c.nf, c.cd, c.cl);
  EXPECT_FALSE(none.x[0].on || none.x[1].on);
  EXPECT_EQ(none.rest.size(), c.plan.node.size());
}

// The face classes' records for the whole-step kernels: each class with a boundary node
// carries that node's mask, fixed count and coefficients; the others take the interior
// update; an index past the arrays is refused with the class named.
TEST(ClassCoeffs, EachClassCarriesItsNodesCoefficients) {
  std::array<int, kFaceClasses> class_bnd;
  class_bnd.fill(-1);
  class_bnd[1] = 2;
  class_bnd[26] = 0;
  const std::vector<uint8_t> mask = {0x07, 0x3c, 0x3e}, nf = {3, 0, 1};
  const std::vector<double> cd = {0.5, 0.25, 0.125}, cl = {1.5, 2.5, 3.5};
  const auto t = class_coeffs_table(class_bnd, mask, nf, cd, cl);
  for (int c = 0; c < kFaceClasses; ++c) {
    const ClassCoeffs<double>& r = t[(size_t)c];
    if (class_bnd[(size_t)c] < 0) {
      EXPECT_EQ(r.on, 0) << "class " << c;
      continue;
    }
    const size_t b = (size_t)class_bnd[(size_t)c];
    EXPECT_EQ(r.on, 1);
    EXPECT_EQ(r.mask, mask[b]);
    EXPECT_EQ(r.n_fixed, nf[b]);
    EXPECT_EQ(r.cd, cd[b]);
    EXPECT_EQ(r.cl, cl[b]);
  }
  class_bnd[5] = 3;
  try {
    class_coeffs_table(class_bnd, mask, nf, cd, cl);
    FAIL() << "an index past the boundary nodes was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("face class 5"), std::string::npos) << e.what();
  }
}

// The events' records for zstream_fused: a boundary event carries its node's coefficients
// and mask | fixed count << 8, the other kinds their code alone; an index past the
// boundary nodes is refused with the event named.
TEST(EventRecords, EachBoundaryEventCarriesItsNodesCoefficients) {
  const std::vector<uint8_t> mask = {0x07, 0x3c, 0x3e}, nf = {3, 0, 1};
  const std::vector<float> cd = {0.5f, 0.25f, 0.125f}, cl = {1.5f, 2.5f, 3.5f};
  const std::vector<int> code = {2, kEventSolid, 0, kEventPlain, event_source_code(4), 1};
  const auto r = event_records(code, mask, nf, cd, cl);
  ASSERT_EQ(r.size(), code.size());
  for (size_t e = 0; e < code.size(); ++e) {
    EXPECT_EQ(r[e].code, code[e]) << "event " << e;
    if (code[e] < 0) {
      EXPECT_EQ(r[e].flags, 0) << "event " << e;
      continue;
    }
    const size_t b = (size_t)code[e];
    EXPECT_EQ(r[e].flags & 0xff, mask[b]) << "event " << e;
    EXPECT_EQ(r[e].flags >> 8, nf[b]) << "event " << e;
    EXPECT_EQ(r[e].cd, cd[b]);
    EXPECT_EQ(r[e].cl, cl[b]);
  }
  try {
    event_records(std::vector<int>{1, 3}, mask, nf, cd, cl);
    FAIL() << "an index past the boundary nodes was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("event 1 names boundary node 3"), std::string::npos) << e.what();
  }
}

// Listed per group of columns, each record carries its lane in bits 16-23 of its flags,
// beside the mask and fixed count; lanes that do not match the events are refused.
TEST(EventRecords, AGroupsRecordsCarryTheirLanes) {
  const std::vector<uint8_t> mask = {0x07, 0x3c}, nf = {3, 0};
  const std::vector<float> cd = {0.5f, 0.25f}, cl = {1.5f, 2.5f};
  const std::vector<int> code = {1, kEventSolid, 0, event_source_code(2)};
  const std::vector<uint8_t> lane = {3, 0, 2, 1};
  const auto r = event_records(code, mask, nf, cd, cl, lane);
  ASSERT_EQ(r.size(), code.size());
  for (size_t e = 0; e < code.size(); ++e) {
    EXPECT_EQ((r[e].flags >> 16) & 0xff, lane[e]) << "event " << e;
    EXPECT_EQ(r[e].flags & 0xffff, code[e] >= 0 ? mask[(size_t)code[e]] | nf[(size_t)code[e]] << 8 : 0) << "event " << e;
  }
  EXPECT_THROW(event_records(code, mask, nf, cd, cl, std::vector<uint8_t>{1, 2}), std::invalid_argument);
}

TEST(BoxFaces, AnObstacleIsNotOnTheFaces) {
  const FieldLayout L = make_layout(13, 9, 7, 1, 4);
  BoxWalls w;
  w.fill(WallCondition::rigid());
  SolidNodes s;
  s.material.assign(13 * 9 * 7, 0);
  s.admittance = {0.1};
  s.material[6 + 13 * (4 + 9 * 3)] = 1;
  EXPECT_FALSE(plan_on_box_faces(make_boundary_plan(L, w, s, 0.5), L));
  EXPECT_EQ(box_wall_faces(make_boundary_plan(L, w, s, 0.5), L), -1);
  BoxWalls fixed;
  fixed.fill(WallCondition::fixed());
  EXPECT_FALSE(plan_on_box_faces(make_boundary_plan(L, fixed, s, 0.5), L));
  EXPECT_TRUE(plan_on_box_faces(make_boundary_plan(L, fixed, {}, 0.5), L));  // the empty plan
}

}  // namespace
}  // namespace ws
