// bench realtime's report without a GPU: the table stays aligned whatever the
// kernel's name, the JSON records carry every figure, bad configurations are refused.
#include <cmath>
#include <gtest/gtest.h>

#include <sstream>

#include "bench/realtime_bench.hpp"

namespace ws::bench {
namespace {

RealtimeResult sample(const std::string& kernel) {
  RealtimeResult r;
  r.device = "Test GPU";
  r.scene_label = "shoebox.json";
  r.kernel_id = kernel;
  r.precision = "float";
  r.stencil = "7pt";
  r.nx = 180;
  r.ny = 212;
  r.nz = 148;
  r.rate_hz = 32000;
  r.dt_s = 1.0 / 32000;
  r.copy_gbs = 4000;
  r.bytes_per_point = 12;
  for (int q = 0; q < 4; ++q) {
    RealtimeRow row;
    row.graph = q / 2;
    row.display = q % 2;
    row.steps_per_frame = 533;
    row.steps = 15990;
    row.seconds = 0.5 + q;
    row.steps_per_s = row.steps / row.seconds;
    row.realtime_factor = row.steps_per_s / 32000;
    row.frame_ms = 16.7 * (q + 1);
    row.gpoints_per_s = 100.0 * (q + 1) * (q + 1) * (q + 1);  // widths differ from row to row
    row.kernel_only_gpoints_per_s = 222.25;
    row.launches.boundary = 2;
    row.launches.io = 1;
    row.launches.host_launches_per_step = row.graph ? 0.008 : 4.0;
    r.rows.push_back(row);
  }
  return r;
}

TEST(RealtimeReport, TableColumnsAlignWhateverTheKernelName) {
  for (const std::string id : {"z", "a_kernel_with_a_very_long_registry_name_indeed"}) {
    std::ostringstream out;
    print_realtime_table(sample(id), out);
    std::istringstream lines(out.str());
    std::vector<std::string> table;
    for (std::string l; std::getline(lines, l);)
      if (l.rfind("  graph", 0) == 0 || l.rfind("  on ", 0) == 0 || l.rfind("  off ", 0) == 0) table.push_back(l);
    ASSERT_EQ(table.size(), 5u) << out.str();
    // The last column is right-aligned: every line of the table ends at the same place,
    // and each column's title ends where its numbers end.
    for (const auto& l : table) EXPECT_EQ(l.size(), table[0].size()) << out.str();
    const size_t gpts_end = table[0].find("Gpts/s") + 6;
    for (size_t q = 1; q < table.size(); ++q) {
      EXPECT_NE(table[q][gpts_end - 1], ' ') << out.str();
      EXPECT_EQ(table[q][gpts_end], ' ') << out.str();
    }
    EXPECT_NE(out.str().find(id), std::string::npos);
  }
}

TEST(RealtimeReport, RecordsCarryEveryFigure) {
  const auto recs = realtime_records(sample("zstream_vec"));
  ASSERT_EQ(recs.size(), 4u);
  const auto j = to_json(recs[3]);
  for (const char* k : {"realtime_factor", "steps_per_s", "kernel_only_gpoints_per_s", "end_to_end_over_kernel",
                        "kernels_per_step", "host_launches_per_step", "copy_gbs", "roofline_fraction", "graph",
                        "display", "steps_per_frame", "frame_budget_ms", "frame_ms", "scene"})
    EXPECT_TRUE(j.contains(k)) << k;
  EXPECT_EQ(j["benchmark"], "realtime");
  EXPECT_EQ(j["kernels_per_step"], 4);
  EXPECT_EQ(j["graph"], true);
  EXPECT_EQ(j["display"], true);
}

TEST(RealtimeReport, TableSaysWhenTheFrameBudgetChoseTheStepsPerFrame) {
  RealtimeResult r = sample("zstream_vec");
  std::ostringstream fixed_frames;
  print_realtime_table(r, fixed_frames);
  EXPECT_EQ(fixed_frames.str().find("frame budget"), std::string::npos) << fixed_frames.str();
  r.frame_budget_ms = 12.0;
  std::ostringstream budget;
  print_realtime_table(r, budget);
  EXPECT_NE(budget.str().find("the GUI's automatic mode, a frame budget of 12.0 ms"), std::string::npos)
      << budget.str();
  EXPECT_DOUBLE_EQ(to_json(realtime_records(r)[0])["frame_budget_ms"].get<double>(), 12.0);
}

TEST(RealtimeReport, BadConfigurationsAreRefused) {
  RealtimeConfig c;
  c.reps = 0;
  EXPECT_THROW(validate_realtime_config(c), std::invalid_argument);
  c.reps = 3;
  c.steps = -5;
  EXPECT_THROW(validate_realtime_config(c), std::invalid_argument);
  c.steps = 0;
  c.steps_per_frame = -1;
  try {
    validate_realtime_config(c);
    FAIL() << "negative steps per frame accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("steps per frame -1"), std::string::npos) << e.what();
  }
  c.steps_per_frame = 0;
  c.graph_modes.clear();
  EXPECT_THROW(validate_realtime_config(c), std::invalid_argument);
  c.graph_modes = {true};
  c.display_modes = {true};
  try {
    validate_realtime_config(c);
    FAIL() << "display without a drawer accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("display"), std::string::npos);
  }
  c.draw_frame = [] {};
  EXPECT_THROW(validate_realtime_config(c), std::invalid_argument);  // no capture
  c.capture_frame = [](WaveModel&) {};
  EXPECT_NO_THROW(validate_realtime_config(c));
}

TEST(RealtimeReport, FrameBudgetIsPositiveAndExclusiveWithFixedStepsPerFrame) {
  RealtimeConfig c;
  for (double bad : {-1.0, 20000.0, std::nan("")}) {
    c.frame_budget_ms = bad;
    try {
      validate_realtime_config(c);
      FAIL() << "frame budget " << bad << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("frame budget"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("at most 10000 ms"), std::string::npos) << e.what();
    }
  }
  c.frame_budget_ms = 12.0;
  EXPECT_NO_THROW(validate_realtime_config(c));
  c.steps_per_frame = 400;
  try {
    validate_realtime_config(c);
    FAIL() << "a frame budget beside fixed steps per frame accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("steps per frame 400"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("give one"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace ws::bench
