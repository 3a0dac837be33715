// The autotune cache without a GPU: the measurement is injected, so these tests
// check what is written, reused, invalidated and refused.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "common/temp_dir.hpp"
#include "cuda/autotune.hpp"
#include "stencil/stencil.hpp"

namespace ws {
namespace {

namespace fs = std::filesystem;

struct TempDir : ws::testing::TempDir {
  TempDir() : ws::testing::TempDir("ws-autotune") {}
};

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

const TuneProblem kProblem{"7pt", Precision::Float, 160, 180, 130};
const TuneIdentity kId{"NVIDIA Test GPU", "550.1 / CUDA 12040", "build-a"};

std::vector<TuneCandidate> candidates() {
  return {{"tiling3d", {32, 4, 1}}, {"zstream_vec", {64, 8, 1}}, {"zstream_vec", {32, 4, 1}}, {"slow", {32, 8, 1}}};
}

// A fake device: seconds per step by kernel and block width; counts its calls.
struct FakeDevice {
  int calls = 0;
  TuneMeasure measure() {
    return [this](const TuneCandidate& c, double budget_s) {
      EXPECT_GE(budget_s, 0.0);
      ++calls;
      if (c.kernel == "tiling3d") return 3e-5;
      if (c.kernel == "zstream_vec") return c.block.x == 64 ? 1e-5 : 2e-5;
      return 9e-5;
    };
  }
};

AutotuneOptions opts(const TempDir& d, std::ostream& log) {
  AutotuneOptions o;
  o.cache_path = (d.path / "wavescope" / "autotune.json").string();
  o.log = &log;
  return o;
}

TEST(Autotune, PicksTheFastestAndWritesTheCache) {
  TempDir d;
  std::ostringstream log;
  FakeDevice dev;
  const TuneChoice c = autotune(kProblem, kId, candidates(), dev.measure(), opts(d, log));
  EXPECT_EQ(c.kernel, "zstream_vec");
  EXPECT_EQ(c.block.x, 64);
  EXPECT_EQ(c.block.y, 8);
  EXPECT_FALSE(c.from_cache);
  EXPECT_EQ(c.measured, 4);
  EXPECT_EQ(dev.calls, 4);
  EXPECT_EQ(c.label(), "auto \u2192 zstream_vec 64x8");
  const AutotuneCache cache = AutotuneCache::parse(read(d.path / "wavescope" / "autotune.json"));
  EXPECT_TRUE(cache.identity == kId);
  ASSERT_EQ(cache.entries.count("7pt/float/160x180x130"), 1u);
  const auto& e = cache.entries.at("7pt/float/160x180x130");
  EXPECT_EQ(e.kernel, "zstream_vec");
  EXPECT_EQ(e.block, (std::array<int, 3>{64, 8, 1}));
  EXPECT_DOUBLE_EQ(e.seconds_per_step, 1e-5);
  // No temporary file left beside it (written atomically).
  int files = 0;
  for (const auto& f : fs::directory_iterator(d.path / "wavescope")) files += f.is_regular_file();
  EXPECT_EQ(files, 1);
}

TEST(Autotune, ReusesTheCacheWithoutMeasuring) {
  TempDir d;
  std::ostringstream log;
  FakeDevice first, second;
  autotune(kProblem, kId, candidates(), first.measure(), opts(d, log));
  const TuneChoice c = autotune(kProblem, kId, candidates(), second.measure(), opts(d, log));
  EXPECT_TRUE(c.from_cache);
  EXPECT_EQ(second.calls, 0);
  EXPECT_EQ(c.kernel, "zstream_vec");
  EXPECT_EQ(c.block.x, 64);
  // Another grid is another entry, the first one kept.
  TuneProblem other = kProblem;
  other.nx = 161;
  autotune(other, kId, candidates(), second.measure(), opts(d, log));
  EXPECT_EQ(second.calls, 4);
  EXPECT_EQ(AutotuneCache::parse(read(d.path / "wavescope" / "autotune.json")).entries.size(), 2u);
}

TEST(Autotune, ForceMeasuresAgain) {
  TempDir d;
  std::ostringstream log;
  FakeDevice dev;
  autotune(kProblem, kId, candidates(), dev.measure(), opts(d, log));
  AutotuneOptions o = opts(d, log);
  o.force = true;
  EXPECT_FALSE(autotune(kProblem, kId, candidates(), dev.measure(), o).from_cache);
  EXPECT_EQ(dev.calls, 8);
}

TEST(Autotune, AnotherDeviceDriverOrBuildInvalidates) {
  for (int which = 0; which < 3; ++which) {
    TempDir d;
    std::ostringstream log;
    FakeDevice dev;
    autotune(kProblem, kId, candidates(), dev.measure(), opts(d, log));
    TuneIdentity other = kId;
    if (which == 0) other.device = "NVIDIA Other GPU";
    if (which == 1) other.driver = "560.2 / CUDA 12060";
    if (which == 2) other.build = "build-b";
    const TuneChoice c = autotune(kProblem, other, candidates(), dev.measure(), opts(d, log));
    EXPECT_FALSE(c.from_cache) << which;
    EXPECT_EQ(dev.calls, 8) << which;
    EXPECT_NE(log.str().find("was written for device 'NVIDIA Test GPU'"), std::string::npos) << log.str();
    // Rewritten for the new identity.
    EXPECT_TRUE(AutotuneCache::parse(read(d.path / "wavescope" / "autotune.json")).identity == other);
  }
}

TEST(Autotune, CorruptFileIsIgnoredWithAMessageAndRewritten) {
  const char* bad[] = {"{not json", "[]", "{\"version\": 2}", "",
                       "{\"version\":1,\"device\":\"NVIDIA Test GPU\",\"driver\":\"550.1 / CUDA 12040\","
                       "\"build\":\"build-a\",\"entries\":{\"7pt/float/160x180x130\":{\"kernel\":\"zstream_vec\","
                       "\"block\":[64,0,1],\"seconds_per_step\":1e-5}}}"};
  for (const char* text : bad) {
    TempDir d;
    fs::create_directories(d.path / "wavescope");
    std::ofstream(d.path / "wavescope" / "autotune.json") << text;
    std::ostringstream log;
    FakeDevice dev;
    const TuneChoice c = autotune(kProblem, kId, candidates(), dev.measure(), opts(d, log));
    EXPECT_FALSE(c.from_cache) << text;
    EXPECT_EQ(dev.calls, 4) << text;
    if (*text) EXPECT_NE(log.str().find("ignoring the cache file"), std::string::npos) << text << ": " << log.str();
    EXPECT_NO_THROW(AutotuneCache::parse(read(d.path / "wavescope" / "autotune.json"))) << text;
  }
}

TEST(Autotune, StaleChoiceIsMeasuredAgain) {
  TempDir d;
  std::ostringstream log;
  FakeDevice dev;
  autotune(kProblem, kId, candidates(), dev.measure(), opts(d, log));
  auto fewer = candidates();
  fewer.erase(fewer.begin() + 1);  // the cached winner is gone (a kernel removed from the registry)
  const TuneChoice c = autotune(kProblem, kId, fewer, dev.measure(), opts(d, log));
  EXPECT_FALSE(c.from_cache);
  EXPECT_EQ(c.kernel, "zstream_vec");
  EXPECT_EQ(c.block.x, 32);
  EXPECT_NE(log.str().find("no longer a candidate"), std::string::npos);
}

TEST(Autotune, RefusedCandidatesAreSkippedAndAllRefusedThrows) {
  TempDir d;
  std::ostringstream log;
  const TuneMeasure some = [](const TuneCandidate& c, double) -> double {
    if (c.kernel == "zstream_vec") throw std::runtime_error("12 points differ");
    return c.kernel == "slow" ? 9e-5 : 3e-5;
  };
  const TuneChoice c = autotune(kProblem, kId, candidates(), some, opts(d, log));
  EXPECT_EQ(c.kernel, "tiling3d");
  EXPECT_EQ(c.measured, 2);
  const TuneMeasure none = [](const TuneCandidate&, double) -> double { throw std::runtime_error("no device"); };
  AutotuneOptions o = opts(d, log);
  o.force = true;
  try {
    autotune(kProblem, kId, candidates(), none, o);
    FAIL() << "expected a throw";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no device"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("tiling3d"), std::string::npos) << e.what();
  }
  EXPECT_THROW(autotune(kProblem, kId, {}, none, o), std::runtime_error);
}

// n candidates of distinct kernels k0, k1, ... for the budget's tests.
std::vector<TuneCandidate> numbered_candidates(int n) {
  std::vector<TuneCandidate> out;
  for (int q = 0; q < n; ++q) out.push_back({"k" + std::to_string(q), {32, 4, 1}});
  return out;
}

TEST(Autotune, BudgetEndsTheSweepEarly) {
  TempDir d;
  std::ostringstream log;
  const std::vector<TuneCandidate> many = numbered_candidates(40);
  int calls = 0;
  const TuneMeasure slow = [&](const TuneCandidate&, double) {
    ++calls;
    usleep(20000);
    return 1e-5;
  };
  AutotuneOptions o = opts(d, log);
  o.budget_s = 0.1;
  const TuneChoice c = autotune(kProblem, kId, many, slow, o);
  EXPECT_GE(calls, 1);
  EXPECT_LT(calls, 40);
  EXPECT_EQ(c.measured, calls);
}

// Each measurement runs its share plus a fixed cost of its own (a solver built, graphs
// captured): the sweep keeps that cost back and starts no candidate whose fixed cost alone
// would end past the budget. Without it, the candidate started with a little budget left
// would end a whole fixed cost late.
TEST(Autotune, AMeasurementsFixedCostIsKeptBackFromTheBudget) {
  TempDir d;
  std::ostringstream log;
  const std::vector<TuneCandidate> many = numbered_candidates(8);
  int calls = 0;
  std::vector<double> shares;
  const TuneMeasure fixed_cost = [&](const TuneCandidate&, double share) {
    ++calls;
    shares.push_back(share);
    usleep((useconds_t)(share * 1e6) + 120000);  // the share, then 0.12 s of its own
    return 1e-5;
  };
  AutotuneOptions o = opts(d, log);
  o.budget_s = 0.5;
  const TuneChoice c = autotune(kProblem, kId, many, fixed_cost, o);
  EXPECT_GE(calls, 2);
  EXPECT_LT(calls, 8);
  // After the first, every share leaves room for the fixed cost seen.
  for (size_t q = 1; q < shares.size(); ++q) EXPECT_LT(shares[q], 0.5 - 0.12) << "candidate " << q;
  // The sweep ends within the budget (and the sleeps' jitter), not a fixed cost past it
  // (about 0.61 s when the last candidate starts with 8 ms left).
  EXPECT_LT(c.tune_s, 0.5 + 0.08);
  EXPECT_EQ(c.measured, calls);
}

TEST(Autotune, NoCacheFileWithDash) {
  std::ostringstream log;
  FakeDevice dev;
  AutotuneOptions o;
  o.cache_path = "-";
  o.log = &log;
  autotune(kProblem, kId, candidates(), dev.measure(), o);
  autotune(kProblem, kId, candidates(), dev.measure(), o);
  EXPECT_EQ(dev.calls, 8);
}

TEST(Autotune, UnwritableCacheStillReturnsTheChoice) {
  std::ostringstream log;
  FakeDevice dev;
  AutotuneOptions o;
  o.cache_path = "/proc/ws-no-such-dir/autotune.json";
  o.log = &log;
  EXPECT_EQ(autotune(kProblem, kId, candidates(), dev.measure(), o).kernel, "zstream_vec");
  EXPECT_NE(log.str().find("not cached"), std::string::npos) << log.str();
}

TEST(Autotune, CachePathFollowsXdg) {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  const std::string saved = xdg ? xdg : "";
  setenv("XDG_CACHE_HOME", "/srv/cache", 1);
  EXPECT_EQ(default_autotune_cache_path(), "/srv/cache/wavescope/autotune.json");
  setenv("XDG_CACHE_HOME", "relative/ignored", 1);
  const char* home = std::getenv("HOME");
  if (home && *home) EXPECT_EQ(default_autotune_cache_path(), std::string(home) + "/.cache/wavescope/autotune.json");
  if (xdg) setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else unsetenv("XDG_CACHE_HOME");
}

TEST(Autotune, CacheRoundTripAndParseErrors) {
  AutotuneCache c;
  c.identity = kId;
  c.entries["7pt/double/8x9x10"] = {"tiling3d", {32, 4, 2}, 2.5e-6};
  const AutotuneCache back = AutotuneCache::parse(c.dump());
  EXPECT_TRUE(back.identity == kId);
  ASSERT_EQ(back.entries.size(), 1u);
  EXPECT_EQ(back.entries.at("7pt/double/8x9x10").block, (std::array<int, 3>{32, 4, 2}));
  for (const char* bad : {"null", "{\"version\":1}", "{\"version\":\"1\",\"device\":\"a\",\"driver\":\"b\",\"build\":\"c\",\"entries\":{}}",
                          "{\"version\":1,\"device\":1,\"driver\":\"b\",\"build\":\"c\",\"entries\":{}}",
                          "{\"version\":1,\"device\":\"a\",\"driver\":\"b\",\"build\":\"c\",\"entries\":[]}",
                          "{\"version\":1,\"device\":\"a\",\"driver\":\"b\",\"build\":\"c\",\"entries\":{\"k\":{\"kernel\":\"x\",\"block\":[64,64,1],\"seconds_per_step\":1}}}",
                          "{\"version\":1,\"device\":\"a\",\"driver\":\"b\",\"build\":\"c\",\"entries\":{\"k\":{\"kernel\":\"x\",\"block\":[8,8,1],\"seconds_per_step\":-1}}}"})
    EXPECT_THROW(AutotuneCache::parse(bad), std::runtime_error) << bad;
}

// A whole-step kernel's z-chunk waves are part of the choice: picked, labelled, cached
// and reused only for the same waves; a cache entry without them reads as the kernel's rule.
TEST(Autotune, ZChunkWavesArePartOfTheChoice) {
  TempDir d;
  std::ostringstream log;
  const std::vector<TuneCandidate> cands = {{"zstream_fused_vec", {16, 8, 1}, 0}, {"zstream_fused_vec", {16, 8, 1}, 2}};
  int calls = 0;
  const TuneMeasure m = [&](const TuneCandidate& c, double) {
    ++calls;
    return c.z_waves == 2 ? 1e-5 : 2e-5;
  };
  const TuneChoice c = autotune(kProblem, kId, cands, m, opts(d, log));
  EXPECT_EQ(c.z_waves, 2);
  EXPECT_EQ(c.label(), "auto \u2192 zstream_fused_vec 16x8, 2 waves");
  const auto cache = AutotuneCache::parse(read(d.path / "wavescope" / "autotune.json"));
  EXPECT_EQ(cache.entries.at("7pt/float/160x180x130").z_waves, 2);
  const TuneChoice again = autotune(kProblem, kId, cands, m, opts(d, log));
  EXPECT_TRUE(again.from_cache);
  EXPECT_EQ(again.z_waves, 2);
  EXPECT_EQ(calls, 2);
  // Without the 2-wave candidate the cached choice is stale: measured again.
  const TuneChoice only_rule = autotune(kProblem, kId, {cands[0]}, m, opts(d, log));
  EXPECT_FALSE(only_rule.from_cache);
  EXPECT_EQ(only_rule.z_waves, 0);
  EXPECT_EQ(only_rule.label(), "auto \u2192 zstream_fused_vec 16x8");
  const AutotuneCache old = AutotuneCache::parse(
      "{\"version\":1,\"device\":\"a\",\"driver\":\"b\",\"build\":\"c\",\"entries\":{\"k\":{\"kernel\":\"x\","
      "\"block\":[8,8,1],\"seconds_per_step\":1}}}");
  EXPECT_EQ(old.entries.at("k").z_waves, 0);
  for (const char* w : {"-1", "65", "2.5", "\"2\""})
    EXPECT_THROW(AutotuneCache::parse(std::string("{\"version\":1,\"device\":\"a\",\"driver\":\"b\",\"build\":\"c\","
                                                  "\"entries\":{\"k\":{\"kernel\":\"x\",\"block\":[8,8,1],"
                                                  "\"seconds_per_step\":1,\"z_waves\":") + w + "}}}"),
                 std::runtime_error)
        << w;
}

TEST(Autotune, CandidatesRunTheStencilPreferredBlocksFirst) {
  const Stencil st = make_stencil("7pt");
  const auto c = tune_candidates(st, Precision::Float);
  std::vector<const KernelVariant*> kernels;
  for (const KernelVariant* v : KernelRegistry::instance().supporting(st, Precision::Float))
    if (v->auto_candidate) kernels.push_back(v);
  ASSERT_GE(c.size(), kernels.size());
  for (size_t q = 0; q < kernels.size(); ++q) {
    EXPECT_EQ(c[q].kernel, kernels[q]->id);
    const BlockShape b = preferred_block(*kernels[q], st, Precision::Float);
    EXPECT_EQ(c[q].block.x, b.x);
    EXPECT_EQ(c[q].block.y, b.y);
  }
  for (const auto& t : c) {
    const KernelVariant& v = KernelRegistry::instance().at(t.kernel);
    EXPECT_TRUE(v.supports(st)) << t.kernel;
    EXPECT_TRUE(v.auto_candidate) << t.kernel << " is not to be picked by --kernel auto";
    EXPECT_TRUE(v.has_precision(Precision::Float)) << t.kernel;
    EXPECT_LE(t.block.threads(), 1024);
    if (v.block_error) EXPECT_EQ(v.block_error(st, Precision::Float, t.block), "") << t.kernel;
  }
}

}  // namespace
}  // namespace ws
