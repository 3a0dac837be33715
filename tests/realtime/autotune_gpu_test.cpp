// `--kernel auto` on the device: the tuned kernel runs the scene, and the run
// matches the CPU reference. The cache goes to a temporary XDG_CACHE_HOME.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "common/gpu.hpp"
#include "cuda/autotune.hpp"
#include "scene/scene_json.hpp"
#include "wave/wave_model.hpp"

namespace ws {
namespace {

struct TempCacheHome {
  std::string path, saved;
  bool had = false;
  TempCacheHome() {
    char tmpl[] = "/tmp/ws-autotune-gpu-XXXXXX";
    path = mkdtemp(tmpl);
    if (const char* x = getenv("XDG_CACHE_HOME")) {
      had = true;
      saved = x;
    }
    setenv("XDG_CACHE_HOME", path.c_str(), 1);
  }
  ~TempCacheHome() {
    if (had) setenv("XDG_CACHE_HOME", saved.c_str(), 1);
    else unsetenv("XDG_CACHE_HOME");
    std::filesystem::remove_all(path);
  }
};

void auto_matches_cpu(Precision p, double tol) {
  WS_REQUIRE_GPU();
  TempCacheHome home;
  WaveScene s = load_wave_scene(std::string(WS_SOURCE_DIR) + "/assets/scenes/shoebox.json");
  s.sample_rate_hz = 6000;
  s.precision = p;
  WaveModel gpu(s, BackendChoice::Cuda, "auto"), cpu(s, BackendChoice::Cpu);
  ASSERT_TRUE(gpu.cuda());
  const KernelVariant& k = gpu.cuda()->kernel();
  EXPECT_TRUE(k.supports(gpu.grid().stencil)) << k.id;
  EXPECT_TRUE(k.has_precision(p)) << k.id;
  EXPECT_EQ(gpu.kernel_choice_note().rfind("auto \u2192 " + k.id + " ", 0), 0u) << gpu.kernel_choice_note();
  // The choice is cached for this grid and reused by the next model.
  const std::string file = home.path + "/wavescope/autotune.json";
  std::ifstream in(file);
  ASSERT_TRUE(in) << file;
  std::ostringstream text;
  text << in.rdbuf();
  const AutotuneCache cache = AutotuneCache::parse(text.str());
  const TuneProblem prob{gpu.grid().stencil.name, p, gpu.grid().nx, gpu.grid().ny, gpu.grid().nz};
  ASSERT_EQ(cache.entries.count(problem_key(prob)), 1u);
  // The bare grid's choice, and the room's (its step timed with the whole-step kernels,
  // room_autotune.hpp) under a key of its own: the kernel that runs is the room's.
  const std::string room_prefix = gpu.grid().stencil.name + "@room:";
  bool room_entry = false;
  for (const auto& [key, e] : cache.entries)
    if (key.rfind(room_prefix, 0) == 0) {
      room_entry = true;
      EXPECT_EQ(e.kernel, k.id) << key;
    }
  EXPECT_TRUE(room_entry) << "the room's choice was not cached";
  if (gpu.kernel_choice_note().find("room's whole step") == std::string::npos)
    EXPECT_EQ(cache.entries.at(problem_key(prob)).kernel, k.id);
  WaveModel again(s, BackendChoice::Cuda, "auto");
  EXPECT_EQ(again.cuda()->kernel().id, k.id);
  EXPECT_EQ(again.cuda()->launch_options().block.x, gpu.cuda()->launch_options().block.x);

  const int steps = 600;
  gpu.advance(steps);
  cpu.advance(steps);
  double peak = 0.0;
  for (const auto& r : cpu.receiver_history())
    for (double v : r) peak = std::max(peak, std::fabs(v));
  ASSERT_GT(peak, 0.0);
  for (size_t r = 0; r < cpu.receiver_history().size(); ++r) {
    ASSERT_EQ(gpu.receiver_history()[r].size(), (size_t)steps);
    for (int q = 0; q < steps; ++q)
      ASSERT_NEAR(gpu.receiver_history()[r][q], cpu.receiver_history()[r][q], tol * peak) << "receiver " << r << " step " << q;
  }
  // Re-tuning (the panel's button) keeps the field and the step, and names its choice.
  const long long step = gpu.step();
  gpu.retune_kernel();
  EXPECT_EQ(gpu.step(), step);
  EXPECT_FALSE(gpu.kernel_choice_note().empty());
}

TEST(AutotuneGpu, AutoMatchesCpuFloat) { auto_matches_cpu(Precision::Float, 1e-4); }
TEST(AutotuneGpu, AutoMatchesCpuDouble) { auto_matches_cpu(Precision::Double, 1e-10); }

TEST(AutotuneGpu, TunesWithinTheBudget) {
  WS_REQUIRE_GPU();
  AutotuneOptions o;
  o.cache_path = "-";
  const Stencil st = make_stencil("7pt");
  const TuneChoice c = autotune_on_device(st, Precision::Float, 120, 110, 90, o);
  EXPECT_GE(c.measured, 1);
  EXPECT_TRUE(KernelRegistry::instance().at(c.kernel).supports(st));
  // The budget (2 s) is checked between candidates; the bound is loose so that a run under
  // compute-sanitizer, where one candidate takes seconds, does not fail it.
  EXPECT_LT(c.tune_s, 30.0) << c.measured << " candidates";
  std::cout << "autotune: " << c.label() << ", " << c.measured << " candidates in " << c.tune_s << " s\n";
}

}  // namespace
}  // namespace ws
