// bench realtime on z-slabs (--gpus 1 --slabs-per-gpu 2 on one GPU): the scene's model
// runs over the slabs, the kernel-only comparison on the same slabs, graph off and on
// (on: the slabs' step graph replays), and the figures are measured, not zero; `auto`
// picks the kernel and edge split by timing them on the slabs.
#include <gtest/gtest.h>

#include <sstream>

#include "bench/realtime_bench.hpp"
#include "common/gpu.hpp"
#include "decomp/slab_autotune.hpp"
#include "scene/scene_json.hpp"

namespace ws::bench {
namespace {

TEST(RealtimeOnSlabs, TwoSlabsOnOneGpu) {
  WS_REQUIRE_GPU();
  RealtimeConfig cfg;
  cfg.scene = load_wave_scene(std::string(WS_SOURCE_DIR) + "/assets/scenes/shoebox.json");
  cfg.scene_label = "shoebox.json";
  cfg.kernel = "auto";
  cfg.steps = 200;
  cfg.reps = 1;
  cfg.decomp.devices = {0, 0};
  cfg.decomp.slabs_per_process = 2;
  std::ostringstream log;
  const RealtimeResult r = run_realtime_bench(cfg, log);
  EXPECT_EQ(r.gpus, 1);
  EXPECT_GE(r.slabs, 2);
  EXPECT_NE(r.decomposition.find("on GPU 0"), std::string::npos) << r.decomposition;
  EXPECT_FALSE(r.kernel_id.empty());
  // auto timed the candidates on the room's slabs (or read them from the cache) and says
  // which kernel and split won; the kernel runs on slabs.
  EXPECT_EQ(r.auto_note.rfind("auto \u2192 " + r.kernel_id + ",", 0), 0u) << r.auto_note;
  bool candidate = false;
  for (const auto& c : slab_candidates(make_stencil(cfg.scene.stencil), cfg.scene.precision))
    candidate = candidate || c.kernel == r.kernel_id;
  EXPECT_TRUE(candidate) << r.kernel_id;
  ASSERT_EQ(r.rows.size(), 2u);  // graph off and on, display off
  EXPECT_FALSE(r.rows[0].graph);
  EXPECT_FALSE(r.rows[0].launches.graph);
  EXPECT_TRUE(r.rows[1].graph);
  EXPECT_TRUE(r.rows[1].launches.graph) << r.rows[1].launches.graph_note;
  for (const RealtimeRow& row : r.rows) {
    EXPECT_GT(row.steps_per_s, 0.0);
    EXPECT_GT(row.realtime_factor, 0.0);
    EXPECT_GT(row.kernel_only_gpoints_per_s, 0.0);
  }
  std::ostringstream table;
  print_realtime_table(r, table);
  EXPECT_NE(table.str().find("decomposed: on 1 GPU(s)"), std::string::npos) << table.str();
}

}  // namespace
}  // namespace ws::bench
