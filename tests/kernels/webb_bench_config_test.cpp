// Options of `wavescope bench webb` that need no device: sizes, lists, steps,
// variant selection and Webb's K20 column.
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>

#include "bench/webb_bench.hpp"

namespace ws::bench {
namespace {

TEST(WebbBenchConfig, DefaultsAreWebbsStandardSimulation) {
  WebbConfig c;
  EXPECT_TRUE(c.is_webb_standard());
  EXPECT_EQ(c.interior(), (std::array<int, 3>{254, 294, 210}));
  EXPECT_EQ(c.steps, 44100);
  ASSERT_EQ(c.precisions.size(), 1u);
  EXPECT_EQ(c.precisions[0], Precision::Double);
  EXPECT_NO_THROW(validate_webb_config(c));
  // Every selected variant runs the 7-point stencil, Webb's six among them.
  const auto v = webb_variants(c);
  int webb = 0;
  for (const auto* k : v) webb += webb_k20_seconds(k->id) > 0;
  EXPECT_EQ(webb, 6);
}

TEST(WebbBenchConfig, ParsesSizes) {
  EXPECT_EQ(parse_size_with_boundary("512,512,512"), (std::array<int, 3>{512, 512, 512}));
  EXPECT_EQ(parse_size_with_boundary("3,4,5"), (std::array<int, 3>{3, 4, 5}));
  for (const char* bad : {"", "512", "512,512", "512,512,512,1", "2,10,10", "a,b,c", "10,,10", "10,10,10,", "-5,10,10"})
    EXPECT_THROW(parse_size_with_boundary(bad), std::invalid_argument) << bad;
}

TEST(WebbBenchConfig, ParsesBlocks) {
  const BlockShape b = parse_block("64,8");
  EXPECT_EQ(b.x, 64);
  EXPECT_EQ(b.y, 8);
  EXPECT_EQ(b.z, 1);
  EXPECT_EQ(parse_block("32,4,2").z, 2);
  for (const char* bad : {"", "64", "0,8", "64,8,1,1", "64,32", "a,8", "2048,1"})
    EXPECT_THROW(parse_block(bad), std::invalid_argument) << bad;
}

TEST(WebbBenchConfig, ParsesIdLists) {
  EXPECT_EQ(parse_id_list("tiling3d,register_queue,tiling3d"),
            (std::vector<std::string>{"tiling3d", "register_queue"}));
  EXPECT_THROW(parse_id_list("tiling3d,,register_queue"), std::invalid_argument);
  EXPECT_THROW(parse_id_list("tiling3d,"), std::invalid_argument);
}

TEST(WebbBenchConfig, RejectsWhatCannotRun) {
  WebbConfig c;
  c.steps = 1999;
  EXPECT_THROW(validate_webb_config(c), std::invalid_argument);
  c.steps = 2000;
  EXPECT_NO_THROW(validate_webb_config(c));
  c.variants = {"no_such_kernel"};
  EXPECT_THROW(validate_webb_config(c), std::invalid_argument);
  c.variants = {"tiling3d", "slicing2d_ext_shared"};
  EXPECT_NO_THROW(validate_webb_config(c));
  EXPECT_EQ(webb_variants(c).size(), 2u);
}

TEST(WebbBenchConfig, K20TimesFromTable3) {
  EXPECT_DOUBLE_EQ(webb_k20_seconds("tiling3d"), 156.9);
  EXPECT_DOUBLE_EQ(webb_k20_seconds("slicing2d_ext_shared"), 150.8);
  EXPECT_LT(webb_k20_seconds("register_queue"), 0);
}

TEST(WebbBenchConfig, RecordsCarryTheRequiredFields) {
  WebbResult r;
  r.device = "test device";
  r.copy_gbs = 3000.0;
  WebbRow row;
  row.id = "tiling3d";
  row.name = "3D tiling (Webb fig. 3)";
  row.precision = Precision::Double;
  row.steps_timed = 2000;
  row.step_s = 1e-4;
  row.seconds_full = 4.41;
  row.gpoints_per_s = 150.0;
  row.roofline_fraction = 0.5;
  row.k20_s = 156.9;
  r.rows.push_back(row);
  const auto recs = webb_records(r);
  ASSERT_EQ(recs.size(), 1u);
  const auto j = to_json(recs[0]);
  for (const char* key : {"variant", "precision", "nx", "ny", "nz", "steps", "seconds", "gpoints_per_s",
                          "bytes_per_point", "copy_gbs", "roofline_fraction", "device", "readonly_cache", "block"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["nx"], 254);
  EXPECT_EQ(j["steps"], 44100);
  EXPECT_EQ(j["extrapolated"], true);
  EXPECT_EQ(j["bytes_per_point"], 24.0);
}

TEST(WebbBenchConfig, TableSaysWhenItExtrapolates) {
  WebbResult r;
  r.config.steps = 2000;
  r.device = "test device";
  r.copy_gbs = 3000.0;
  for (const char* id : {"tiling3d", "slicing2d_ext_shared"}) {
    WebbRow row;
    row.id = id;
    row.name = KernelRegistry::instance().at(id).name;
    row.block = KernelRegistry::instance().at(id).default_block;
    row.steps_timed = 2000;
    row.step_s = 1.5e-4;
    row.seconds_full = row.step_s * kWebbSteps;
    row.gpoints_per_s = 100.0;
    row.roofline_fraction = 0.8;
    row.ratio_to_tiling3d = 1.0;
    row.k20_s = webb_k20_seconds(id);
    r.rows.push_back(row);
  }
  std::ostringstream os;
  print_webb_table(r, os);
  const std::string t = os.str();
  std::cout << t;
  EXPECT_NE(t.find("interior 254 x 294 x 210"), std::string::npos);
  EXPECT_NE(t.find("EXTRAPOLATED to 44,100 steps from 2000"), std::string::npos);
  EXPECT_NE(t.find("156.9"), std::string::npos);
  EXPECT_NE(t.find("150.8"), std::string::npos);
  EXPECT_NE(t.find("100.0%"), std::string::npos);
  EXPECT_NE(t.find("125.0 Gpoints/s (24 bytes per point)"), std::string::npos);
}

}  // namespace
}  // namespace ws::bench
