// `--kernel auto` on slabs without a GPU: the measurement is injected (kernel and edge
// split), so these tests check the choice, the two cached problems, the candidates and the
// refusal; one test times a real decomposed step on CPU slabs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/temp_dir.hpp"
#include "cpu/cpu_solver.hpp"
#include "cuda/autotune_cache.hpp"
#include "decomp/slab_autotune.hpp"
#include "stencil/stencil.hpp"

namespace ws {
namespace {

namespace fs = std::filesystem;

struct TempDir : ws::testing::TempDir {
  TempDir() : ws::testing::TempDir("ws-slabtune") {}
};

const TuneProblem kRoom{"7pt@room:abc", Precision::Float, 275, 323, 226};
const TuneIdentity kId{"NVIDIA Test GPU", "550.1 / CUDA 12040", "build-a"};

std::vector<TuneCandidate> cands() {
  return {{"zstream_fused_vec", {8, 16, 1}}, {"zstream_fused", {32, 8, 1}}, {"tiling3d", {32, 4, 1}}};
}

// A fake machine: with the edges split off, zstream_fused_vec is fastest; on one slab a
// GPU everything is slower except zstream_fused, which wins overall when `whole_wins`.
struct FakeSlabs {
  bool whole_wins = false;
  int calls = 0;
  SlabMeasure measure() {
    return [this](const TuneCandidate& c, bool overlap, double budget_s) {
      EXPECT_GT(budget_s, 0.0);
      ++calls;
      if (overlap) return c.kernel == "zstream_fused_vec" ? 50e-6 : 70e-6;
      if (c.kernel == "zstream_fused") return whole_wins ? 40e-6 : 60e-6;
      return 90e-6;
    };
  }
};

AutotuneOptions opts(const TempDir& d, std::ostream& log) {
  AutotuneOptions o;
  o.cache_path = (d.path / "autotune.json").string();
  o.log = &log;
  return o;
}

TEST(SlabAutotune, PicksTheFasterSplitAndKernelAndCachesBothSplits) {
  for (bool whole_wins : {false, true}) {
    TempDir d;
    std::ostringstream log;
    FakeSlabs dev;
    dev.whole_wins = whole_wins;
    const SlabTuneChoice c = autotune_slabs(kRoom, kId, 2, true, cands(), dev.measure(), opts(d, log));
    EXPECT_EQ(dev.calls, 6);  // three kernels under each split
    EXPECT_FALSE(c.from_cache);
    if (whole_wins) {
      EXPECT_EQ(c.kernel, "zstream_fused");
      EXPECT_FALSE(c.overlap);
      EXPECT_EQ(c.label(), "auto \u2192 zstream_fused, no edge slabs");
    } else {
      EXPECT_EQ(c.kernel, "zstream_fused_vec");
      EXPECT_TRUE(c.overlap);
      EXPECT_DOUBLE_EQ(c.seconds_per_step, 50e-6);
      EXPECT_EQ(c.label(), "auto \u2192 zstream_fused_vec, edge slabs split off");
    }
    std::string why;
    AutotuneCache cache;
    ASSERT_TRUE(read_cache_file((d.path / "autotune.json").string(), cache, why)) << why;
    EXPECT_EQ(cache.entries.count("7pt@room:abc@slabs:2:edges/float/275x323x226"), 1u);
    EXPECT_EQ(cache.entries.count("7pt@room:abc@slabs:2:whole/float/275x323x226"), 1u);
    // The second time both come from the cache: nothing is timed, the same choice.
    FakeSlabs again;
    const SlabTuneChoice c2 = autotune_slabs(kRoom, kId, 2, true, cands(), again.measure(), opts(d, log));
    EXPECT_EQ(again.calls, 0);
    EXPECT_TRUE(c2.from_cache);
    EXPECT_EQ(c2.kernel, c.kernel);
    EXPECT_EQ(c2.overlap, c.overlap);
    // Another number of GPUs is another problem.
    autotune_slabs(kRoom, kId, 3, true, cands(), again.measure(), opts(d, log));
    EXPECT_EQ(again.calls, 6);
  }
}

TEST(SlabAutotune, WithoutTheOverlapOnlyOneSlabAGpuIsTimed) {
  TempDir d;
  std::ostringstream log;
  FakeSlabs dev;
  const SlabTuneChoice c = autotune_slabs(kRoom, kId, 2, false, cands(), dev.measure(), opts(d, log));
  EXPECT_EQ(dev.calls, 3);
  EXPECT_FALSE(c.overlap);
  EXPECT_EQ(c.kernel, "zstream_fused");
}

TEST(SlabAutotune, NoCandidateRunningIsRefusedWithEveryReason) {
  TempDir d;
  std::ostringstream log;
  const SlabMeasure fails = [](const TuneCandidate& c, bool, double) -> double {
    throw std::runtime_error("out of memory for " + c.kernel);
  };
  try {
    autotune_slabs(kRoom, kId, 2, true, cands(), fails, opts(d, log));
    FAIL() << "no candidate ran";
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("edge slabs"), std::string::npos) << m;
    EXPECT_NE(m.find("no edge slabs"), std::string::npos) << m;
    EXPECT_NE(m.find("out of memory for zstream_fused_vec"), std::string::npos) << m;
  }
}

TEST(SlabAutotune, CandidatesAreTheWholeStepKernelsThenTheSlabsDefault) {
  const auto c7 = slab_candidates(make_stencil("7pt"), Precision::Float);
  ASSERT_GE(c7.size(), 3u);
  EXPECT_EQ(c7[0].kernel, "zstream_fused_vec");
  EXPECT_EQ(c7[1].kernel, "zstream_fused");
  EXPECT_EQ(c7[2].kernel, "zstream_cached");
  EXPECT_EQ(c7.back().kernel, slab_kernel(make_stencil("7pt"), Precision::Float, ""));
  for (const auto& c : c7) EXPECT_GE(c.block.threads(), 1) << c.kernel;
  // A stencil the whole-step kernels do not run still gets the slabs' default.
  const auto box = slab_candidates(make_stencil("box:1,1,1"), Precision::Double);
  ASSERT_FALSE(box.empty());
  EXPECT_EQ(box.back().kernel, slab_kernel(make_stencil("box:1,1,1"), Precision::Double, ""));
  for (const auto& c : box) EXPECT_TRUE(kernel_reads_halo(c.kernel) && !kernel_sums_follow_z_chunks(c.kernel));
}

// The kernels that hold the whole grid on chip with a zero halo cannot run a slab, whose
// halo planes are the neighbouring slab's: asked for by name they are refused, saying why.
TEST(SlabAutotune, OnChipKernelsAreRefusedOnSlabs) {
  for (const char* id : {"cluster_onchip", "spread_onchip", "brick_onchip"}) {
    EXPECT_FALSE(kernel_reads_halo(id)) << id;
    try {
      (void)slab_kernel(make_stencil("7pt"), Precision::Float, id);
      ADD_FAILURE() << id << " was accepted on slabs";
    } catch (const std::invalid_argument& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find(std::string("kernel '") + id + "' cannot run on slabs"), std::string::npos) << m;
      EXPECT_NE(m.find("whole grid in shared memory"), std::string::npos) << m;
    }
  }
}

TEST(SlabAutotune, TimesADecomposedStepOnCpuSlabs) {
  const Stencil st = make_stencil("7pt");
  const SlabBuild build = [&](const DecompOptions& o) {
    return make_decomposed_solver(o, Precision::Float, st, 24, 20, 18, 0.5, 1e-5);
  };
  DecompOptions o;
  o.slabs_per_process = 2;
  const double sec = time_decomposed_step(build, o, 0.05);
  EXPECT_GT(sec, 0.0);
  EXPECT_LT(sec, 0.05);
}

}  // namespace
}  // namespace ws
