// bench realtime --gpus N without a GPU: the report of a run on slabs says on how many
// GPUs and slabs it ran, leaves the launch counts (not counted on slabs) as "-", says
// why graph on was not measured, and the JSON records carry the decomposition.
#include <gtest/gtest.h>

#include <sstream>

#include "bench/realtime_bench.hpp"

namespace ws::bench {
namespace {

RealtimeResult on_slabs() {
  RealtimeResult r;
  r.device = "Test GPU";
  r.scene_label = "shoebox.json";
  r.kernel_id = "zstream";
  r.precision = "float";
  r.stencil = "7pt";
  r.nx = r.ny = r.nz = 100;
  r.rate_hz = 48000;
  r.dt_s = 1.0 / 48000;
  r.copy_gbs = 3000;
  r.bytes_per_point = 12;
  r.gpus = 4;
  r.slabs = 10;
  r.decomposition = "z-slab decomposition of 100 planes into 4 part(s); here: z 0..24 on GPU 0, ...";
  RealtimeRow row;
  row.steps_per_frame = 800;
  row.steps = 24000;
  row.seconds = 0.5;
  row.steps_per_s = row.steps / row.seconds;
  row.realtime_factor = row.steps_per_s / 48000;
  row.gpoints_per_s = 48.0;
  row.kernel_only_gpoints_per_s = 60.0;
  r.rows.push_back(row);
  return r;
}

TEST(RealtimeReportOnSlabs, SaysTheGpusAndSlabs) {
  std::ostringstream out;
  print_realtime_table(on_slabs(), out);
  const std::string s = out.str();
  EXPECT_NE(s.find("decomposed: on 4 GPU(s), 10 slabs (z-slab decomposition of 100 planes"), std::string::npos) << s;
  EXPECT_NE(s.find("kernel zstream on every slab"), std::string::npos) << s;
  // The roofline of all four GPUs: 3000 GB/s / 12 B * 4 = 1000 Gpoints/s.
  EXPECT_NE(s.find("roofline 1000.0 Gpoints/s (all 4 GPUs)"), std::string::npos) << s;
  EXPECT_NE(s.find("not counted on slabs"), std::string::npos) << s;
  std::istringstream lines(s);
  bool row_seen = false;
  for (std::string l; std::getline(lines, l);)
    if (l.rfind("  off ", 0) == 0) {
      row_seen = true;
      EXPECT_EQ(l.substr(l.size() - 1), "-") << l;  // launches/step
    }
  EXPECT_TRUE(row_seen) << s;
}

TEST(RealtimeReportOnSlabs, RecordsCarryTheDecomposition) {
  const auto recs = realtime_records(on_slabs());
  ASSERT_EQ(recs.size(), 1u);
  const auto j = to_json(recs[0]);
  EXPECT_EQ(j["gpus"], 4);
  EXPECT_EQ(j["slabs"], 10);
  EXPECT_NE(j["decomposition"].get<std::string>().find("z-slab"), std::string::npos);
}

}  // namespace
}  // namespace ws::bench
