// OBJ and STL readers: the forms they must accept and the clear messages for
// the files they must refuse.
#include <gtest/gtest.h>

#include <filesystem>

#include "geometry/mesh.hpp"
#include "test_meshes.hpp"

namespace ws::testing {
namespace {

using geo::MeshError;

// The message of the MeshError that f throws (fails the test when none).
template <class F>
std::string error_of(F f) {
  try {
    f();
  } catch (const MeshError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no MeshError thrown";
  return "";
}

TEST(ObjReader, FaceFormsNegativeIndicesAndPolygons) {
  const std::string text =
      "# a unit square pyramid, written in every face form\n"
      "mtllib x.mtl\n"
      "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 0.5 0.5 1.0\n"
      "vt 0 0\nvn 0 0 -1\n"
      "g base\nusemtl stone\n"
      "f 4/1/1 3/1/1 2/1/1 1/1/1\n"  // a quad: two triangles
      "g sides walls\nusemtl\n"
      "f 1//1 2//1 5//1\n"
      "f -4/1 -3/1 -1/1\n"          // 2 3 5
      "o roof\n"
      "s off\n"
      "f 3 4 5\nf 4 1 5\r\n";
  const geo::Mesh m = geo::parse_obj(text, "pyramid.obj");
  ASSERT_EQ(m.vertices.size(), 5u);
  ASSERT_EQ(m.triangles.size(), 6u);
  EXPECT_EQ(m.triangles[0], (std::array<int, 3>{3, 2, 1}));
  EXPECT_EQ(m.triangles[1], (std::array<int, 3>{3, 1, 0}));
  EXPECT_EQ(m.triangles[3], (std::array<int, 3>{1, 2, 4}));
  EXPECT_EQ(m.tags[m.triangle_tag[0]].usemtl, "stone");
  EXPECT_EQ(m.tags[m.triangle_tag[0]].groups, std::vector<std::string>{"base"});
  EXPECT_EQ(m.tags[m.triangle_tag[2]].groups, (std::vector<std::string>{"sides", "walls"}));
  EXPECT_EQ(m.tags[m.triangle_tag[2]].usemtl, "");
  EXPECT_EQ(m.tags[m.triangle_tag[5]].object, "roof");
  geo::Mesh w = m;
  geo::weld_vertices(w);
  const geo::MeshReport r = geo::analyse_mesh(w);
  EXPECT_TRUE(r.watertight()) << r.summary();
  EXPECT_NEAR(r.signed_volume, 1.0 / 3.0, 1e-12);
}

TEST(ObjReader, RefusesBadInputWithClearMessages) {
  EXPECT_NE(error_of([] { geo::parse_obj("", "e.obj"); }).find("'e.obj' is empty (0 bytes)"), std::string::npos);
  EXPECT_NE(error_of([] { geo::parse_obj("v 0 0 0\nv 1 0 0\n# only vertices\n", "n.obj"); })
                .find("contains no triangles (2 vertices"),
            std::string::npos);
  const std::string nan = error_of([] { geo::parse_obj("v 0 0 0\nv 1 nan 0\nv 0 1 0\nf 1 2 3\n", "nan.obj"); });
  EXPECT_NE(nan.find("line 2"), std::string::npos) << nan;
  EXPECT_NE(nan.find("'nan' is not finite"), std::string::npos) << nan;
  const std::string inf = error_of([] { geo::parse_obj("v 0 0 0\nv 1 0 -inf\nv 0 1 0\nf 1 2 3\n", "inf.obj"); });
  EXPECT_NE(inf.find("not finite"), std::string::npos) << inf;
  const std::string range = error_of([] { geo::parse_obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 7\n", "r.obj"); });
  EXPECT_NE(range.find("line 5: face index 7 is out of range: the file has 3 vertices (allowed 1 .. 3)"), std::string::npos)
      << range;
  const std::string neg = error_of([] { geo::parse_obj("v 0 0 0\nv 1 0 0\nf -1 -2 -3\n", "neg.obj"); });
  EXPECT_NE(neg.find("face index -3 is out of range: only 2 vertices precede it"), std::string::npos) << neg;
  EXPECT_NE(error_of([] { geo::parse_obj("v 0 0 0\nf 0 1 1\n", "z.obj"); }).find("face index 0 is not allowed"),
            std::string::npos);
  EXPECT_NE(error_of([] { geo::parse_obj("v 0 0 0\nv 1 0 0\nf 1 2\n", "two.obj"); }).find("at least 3 vertices, got 2"),
            std::string::npos);
  EXPECT_NE(error_of([] { geo::parse_obj("v 0 zero 0\n", "word.obj"); }).find("'zero' is not a number"), std::string::npos);
  EXPECT_NE(error_of([] { geo::parse_obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 x\n", "x.obj"); }).find("'x' is not an index"),
            std::string::npos);
}

TEST(StlReader, BinaryWithSolidHeaderAndAscii) {
  const std::string dir = temp_dir();
  const TestMesh ball = icosphere({0, 0, 0}, 1.0, 2);
  // Binary files whose header starts with "solid": the size decides.
  write_stl_binary(dir + "/b.stl", ball, "solid exported by a CAD tool");
  write_stl_ascii(dir + "/a.stl", ball, "ball");
  for (const char* f : {"/b.stl", "/a.stl"}) {
    geo::Mesh m = geo::read_mesh_file(dir + f);
    EXPECT_EQ(m.triangles.size(), ball.f.size()) << f;
    geo::weld_vertices(m);
    const geo::MeshReport r = geo::analyse_mesh(m);
    EXPECT_EQ(r.vertices, ball.v.size()) << f;
    EXPECT_TRUE(r.watertight()) << f << ": " << r.summary();
  }
  EXPECT_EQ(geo::read_mesh_file(dir + "/a.stl").tags.at(0).object, "ball");
  // Two solids in one ASCII file: both read, each with its own name.
  const std::string two = read_bytes(dir + "/a.stl") + "solid second\n facet normal 0 0 1\n outer loop\n"
                          "vertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid\n";
  const geo::Mesh m2 = geo::parse_stl(two, "two.stl");
  EXPECT_EQ(m2.triangles.size(), ball.f.size() + 1);
  EXPECT_EQ(m2.tags[m2.triangle_tag.back()].object, "second");
}

TEST(StlReader, RefusesBadInputWithClearMessages) {
  const std::string dir = temp_dir();
  const TestMesh ball = icosphere({0, 0, 0}, 1.0, 1);  // 80 triangles: 84 + 4000 bytes
  write_stl_binary(dir + "/ok.stl", ball, "binary");
  const std::string ok = read_bytes(dir + "/ok.stl");
  ASSERT_EQ(ok.size(), 4084u);

  write_text(dir + "/cut.stl", ok.substr(0, 3000));
  const std::string cut = error_of([&] { geo::read_mesh_file(dir + "/cut.stl"); });
  EXPECT_NE(cut.find("is truncated: its header claims 80 triangles, which need 84 + 50 * 80 = 4084 bytes, but the file "
                     "has 3000 bytes (58 complete triangles)"),
            std::string::npos)
      << cut;

  // A truncated binary whose header starts with "solid" fails as ASCII and says why.
  write_stl_binary(dir + "/solidcut.stl", ball, "solid but binary");
  write_text(dir + "/solidcut.stl", read_bytes(dir + "/solidcut.stl").substr(0, 2000));
  const std::string sc = error_of([&] { geo::read_mesh_file(dir + "/solidcut.stl"); });
  EXPECT_NE(sc.find("contains binary data"), std::string::npos) << sc;
  EXPECT_NE(sc.find("claims 80 triangles = 4084 bytes, the file has 2000"), std::string::npos) << sc;

  // A count that claims more than the bytes, by a lot: the size says so.
  std::string claim = ok;
  const std::uint32_t huge = 4000000000u;
  std::memcpy(claim.data() + 80, &huge, 4);
  const std::string cl = error_of([&] { geo::parse_stl(claim, "claim.stl"); });
  EXPECT_NE(cl.find("claims 4000000000 triangles"), std::string::npos) << cl;
  EXPECT_NE(cl.find("the file has 4084 bytes"), std::string::npos) << cl;
  // Extra bytes after the claimed triangles.
  const std::string extra = error_of([&] { geo::parse_stl(ok + std::string(10, 'x'), "extra.stl"); });
  EXPECT_NE(extra.find("the triangle count does not match the size"), std::string::npos) << extra;

  std::string nan = ok;
  const float bad = std::nanf("");
  std::memcpy(nan.data() + 84 + 50 * 5 + 12 + 4, &bad, 4);
  const std::string nn = error_of([&] { geo::parse_stl(nan, "nan.stl"); });
  EXPECT_NE(nn.find("triangle 5 (byte offset 334) has a coordinate that is not finite"), std::string::npos) << nn;

  write_text(dir + "/empty.stl", "");
  EXPECT_NE(error_of([&] { geo::read_mesh_file(dir + "/empty.stl"); }).find("is empty (0 bytes)"), std::string::npos);
  EXPECT_NE(error_of([] { geo::parse_stl("solid nothing\nendsolid nothing\n", "none.stl"); }).find("contains no triangles"),
            std::string::npos);
  std::string zero(84, '\0');
  EXPECT_NE(error_of([&] { geo::parse_stl(zero, "zero.stl"); }).find("contains no triangles (its header says 0)"),
            std::string::npos);
  EXPECT_NE(error_of([] { geo::parse_stl("abc", "short.stl"); }).find("too short for a binary STL"), std::string::npos);
  const std::string an = error_of([] {
    geo::parse_stl("solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 NaN 0\nvertex 0 1 0\n", "an.stl");
  });
  EXPECT_NE(an.find("line 5: vertex coordinate 'NaN' is not finite"), std::string::npos) << an;
  EXPECT_NE(error_of([] {
              geo::parse_stl("solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n", "open.stl");
            }).find("ends inside a facet"),
            std::string::npos);
}

TEST(MeshFile, RefusesFilesTooLargeForMemoryBeforeReading) {
  const std::string dir = temp_dir();
  // A sparse 8 GiB file: no disk blocks, but its size alone must refuse it.
  const std::string big = dir + "/huge.stl";
  write_text(big, "solid x\n");
  std::error_code ec;
  std::filesystem::resize_file(big, 8ull << 30, ec);
  if (ec) GTEST_SKIP() << "cannot make a sparse file here: " << ec.message();
  const std::string e = error_of([&] { geo::read_mesh_file(big); });
  EXPECT_NE(e.find("is 8589934592 bytes (8192 MiB), more than the limit of 536870912 bytes (512 MiB); refusing to read it"),
            std::string::npos)
      << e;
  std::filesystem::remove(big);
  // The limit is the caller's.
  write_stl_ascii(dir + "/small.stl", icosphere({0, 0, 0}, 1, 1));
  geo::MeshLimits tight;
  tight.max_file_bytes = 1000;
  EXPECT_NE(error_of([&] { geo::read_mesh_file(dir + "/small.stl", tight); }).find("more than the limit of 1000 bytes"),
            std::string::npos);
  tight.max_file_bytes = 1 << 20;
  tight.max_triangles = 50;
  EXPECT_NE(error_of([&] { geo::read_mesh_file(dir + "/small.stl", tight); }).find("the limit is 50"), std::string::npos);
  EXPECT_NE(error_of([&] { geo::read_mesh_file(dir + "/missing.obj"); }).find("does not exist"), std::string::npos);
  EXPECT_NE(error_of([&] { geo::read_mesh_file(dir + "/model.ply"); }).find("unknown format '.ply'; allowed: .obj, .stl"),
            std::string::npos);
}

TEST(MeshCheck, EdgeUseCountsAndNoVolume) {
  // Two cubes sharing one edge: that edge is used four times.
  TestMesh a = cube({0, 0, 0}, {1, 1, 1}), b = cube({1, 1, 0}, {2, 2, 1});
  geo::Mesh m;
  m.path = "bowtie";
  for (const auto& p : a.v) m.vertices.push_back(p);
  for (const auto& p : b.v) m.vertices.push_back(p);
  for (const auto& t : a.f) m.triangles.push_back(t);
  for (const auto& t : b.f) m.triangles.push_back({t[0] + 8, t[1] + 8, t[2] + 8});
  geo::weld_vertices(m);
  const geo::MeshReport r = geo::analyse_mesh(m);
  EXPECT_EQ(r.vertices, 14u);
  EXPECT_EQ(r.nonmanifold_edges, 1u);
  EXPECT_FALSE(r.watertight());
  EXPECT_NE(r.summary().find("1 three or more times"), std::string::npos) << r.summary();
  EXPECT_NEAR(r.signed_volume, 2.0, 1e-12);

  // One triangle, and a flat square: no volume at all.
  geo::Mesh one = geo::parse_obj("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n", "one.obj");
  const std::string e1 = error_of([&] { geo::orient_and_check(one); });
  EXPECT_NE(e1.find("mesh 'one.obj' encloses no volume"), std::string::npos) << e1;
  EXPECT_NE(e1.find("3 edges used once"), std::string::npos) << e1;
  geo::Mesh flat = geo::parse_obj("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n", "flat.obj");
  EXPECT_NE(error_of([&] { geo::orient_and_check(flat); }).find("encloses no volume"), std::string::npos);

  // Inward-facing triangles are flipped.
  geo::Mesh inv;
  inv.path = "inside-out";
  inv.vertices = a.v;
  for (const auto& t : a.f) inv.triangles.push_back({t[0], t[2], t[1]});
  EXPECT_LT(geo::analyse_mesh(inv).signed_volume, 0);
  EXPECT_NEAR(geo::orient_and_check(inv).signed_volume, 1.0, 1e-12);
  EXPECT_NEAR(geo::analyse_mesh(inv).signed_volume, 1.0, 1e-12);
}

}  // namespace
}  // namespace ws::testing
