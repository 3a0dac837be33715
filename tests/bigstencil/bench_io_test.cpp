// CPU checks of the stencil benchmark's plumbing: the stencil lists it sweeps,
// the grid sizing against a memory budget, and the CSV / JSON writers.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "bench/stencil_bench.hpp"
#include "core/field_layout.hpp"
#include "stencil/stencil.hpp"

namespace ws::bench {
namespace {

TEST(StencilBench, SweepsTheFirstTwentyOfEachFamily) {
  const auto leggy = bench_stencil_names("leggy", 20);
  ASSERT_EQ(leggy.size(), 8u) << "leggy stops at M = 8";
  EXPECT_EQ(leggy.front(), "leggy:1");
  const auto compact = bench_stencil_names("compact", 20);
  ASSERT_EQ(compact.size(), 20u);
  EXPECT_EQ(make_stencil(compact.back()).size(), 461) << compact.back() << ": the paper's largest, S_22";
  const auto box = bench_stencil_names("box", 20);
  ASSERT_EQ(box.size(), 20u);
  bool has125 = false;
  for (const auto& n : box) has125 = has125 || make_stencil(n).size() == 125;
  EXPECT_TRUE(has125) << "the 125-point box is among the first 20 box stencils";
  for (const auto& n : box) EXPECT_LE(make_stencil(n).radius, 4) << n << ": compact_tiled covers radius <= 4";
  EXPECT_THROW(bench_stencil_names("spherical", 20), std::invalid_argument);
}

TEST(StencilBench, GridsFitHalfTheFreeMemoryAndMediumIsSmaller) {
  const size_t free_b = size_t(40) << 30;  // 40 GiB
  for (Precision p : {Precision::Float, Precision::Double}) {
    const GridDims l = stencil_bench_grid("large", p, free_b, 100.0, false);
    const GridDims m = stencil_bench_grid("medium", p, free_b, 100.0, false);
    const double bytes = 2.0 * bytes_of(p) * (double)make_layout(l.nx, l.ny, l.nz, 8, bytes_of(p)).total;
    EXPECT_LE(bytes, 0.5 * free_b) << to_string(p);
    EXPECT_GT(bytes, 0.3 * free_b) << to_string(p) << ": the large grid should use most of its budget";
    const double pl = (double)l.nx * l.ny * l.nz, pm = (double)m.nx * m.ny * m.nz;
    EXPECT_NEAR(pm / pl, 0.46, 0.05);
    EXPECT_EQ(l.nx % 32, 0);
  }
  const GridDims capped = stencil_bench_grid("large", Precision::Float, free_b, 0.1, false);
  EXPECT_LE((double)capped.nx * capped.ny * capped.nz, 1.0e8 * 1.05);
  EXPECT_THROW(stencil_bench_grid("huge", Precision::Float, free_b, 1.0, false), std::invalid_argument);
}

TEST(StencilBench, WritesCsvAndJson) {
  StencilBenchResult r;
  r.device = "test device";
  r.copy_gbs = 3000;
  StencilBenchRow row;
  row.family = "box";
  row.stencil = "box:2,2,2";
  row.kernel = "compact_tiled";
  row.precision = "float";
  row.size = "large";
  row.points = 125;
  row.radius = 2;
  row.nx = 64, row.ny = 32, row.nz = 16;
  row.steps = 3;
  row.seconds_per_step = 1e-3;
  row.ctpn_ns = 0.03;
  row.gpoints_per_s = 33.3;
  row.roofline_fraction = 0.13;
  row.best = true;
  r.rows.push_back(row);
  const std::string csv = ::testing::TempDir() + "stencil_bench.csv";
  const std::string json = ::testing::TempDir() + "stencil_bench.json";
  write_stencil_bench_csv(csv, r);
  write_stencil_bench_json(json, r);
  std::ifstream c(csv);
  std::string header, line;
  std::getline(c, header);
  std::getline(c, line);
  EXPECT_NE(header.find("ctpn_ns"), std::string::npos);
  // The stencil's name holds commas: quoted, so that the row keeps the header's 18 fields.
  EXPECT_EQ(line.rfind("box,\"box:2,2,2\",125,2,float,large,64,32,16,compact_tiled,1,3,", 0), 0u) << line;
  EXPECT_NE(line.find(",test device"), std::string::npos) << line;
  std::ifstream j(json);
  const nlohmann::json a = nlohmann::json::parse(j);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0]["benchmark"], "stencils");
  EXPECT_EQ(a[0]["variant"], "compact_tiled");
  EXPECT_EQ(a[0]["points"], 125);
  EXPECT_DOUBLE_EQ(a[0]["ctpn_ns"].get<double>(), 0.03);
  EXPECT_DOUBLE_EQ(a[0]["bytes_per_point"].get<double>(), 12.0);
  std::remove(csv.c_str());
  std::remove(json.c_str());
}

}  // namespace
}  // namespace ws::bench
