// The step graph (sim/cuda/step_graph.hpp) against stream launches: the same
// scene advanced with the graph on and off must give the same field and the
// same receiver samples bit for bit, with absorbing walls, obstacles, sources
// that change every step and several receivers, across odd advance lengths,
// the receiver buffer's 4096-step boundary and every 7-point kernel.
#include <gtest/gtest.h>

#include <cstring>

#include "common/gpu.hpp"
#include "cuda/kernel_registry.hpp"
#include "scene/scene_json.hpp"
#include "wave/wave_model.hpp"

namespace ws {
namespace {

WaveScene furnished(double rate_hz, Precision p) {
  WaveScene s = load_wave_scene(std::string(WS_SOURCE_DIR) + "/assets/scenes/furnished_room.json");
  s.sample_rate_hz = rate_hz;
  s.precision = p;
  return s;
}

// Bitwise equality of two double arrays (NaN patterns included).
::testing::AssertionResult same_bits(const std::vector<double>& a, const std::vector<double>& b, const char* what) {
  if (a.size() != b.size())
    return ::testing::AssertionFailure() << what << ": sizes " << a.size() << " and " << b.size();
  for (size_t i = 0; i < a.size(); ++i)
    if (std::memcmp(&a[i], &b[i], sizeof(double)) != 0)
      return ::testing::AssertionFailure() << what << " differs at " << i << ": " << a[i] << " vs " << b[i];
  return ::testing::AssertionSuccess();
}

void expect_same_run(WaveModel& on, WaveModel& off, const std::vector<int>& chunks) {
  ASSERT_TRUE(on.cuda() && off.cuda());
  on.cuda()->set_step_graph(true);
  off.cuda()->set_step_graph(false);
  for (int n : chunks) {
    on.advance(n);
    off.advance(n);
  }
  const StepLaunches l = on.cuda()->step_launches();
  // A single-step kernel's graph, or a whole-step kernel's replayed runs (zstream_fused).
  if (on.cuda()->kernel().graph_capturable || on.cuda()->kernel().multi_replayable) {
    EXPECT_TRUE(l.graph) << l.graph_note;
    EXPECT_LT(l.host_launches_per_step, 1.0) << "the graph replays several steps per launch";
    EXPECT_GE(l.graph_kernels_per_step, l.kernels()) << "every kernel of a step is in the graph";
  }
  EXPECT_FALSE(off.cuda()->step_launches().graph);
  EXPECT_EQ(on.step(), off.step());
  std::vector<double> a, ap, b, bp;
  on.solver().read_state(a, ap);
  off.solver().read_state(b, bp);
  EXPECT_TRUE(same_bits(a, b, "u^n"));
  EXPECT_TRUE(same_bits(ap, bp, "u^{n-1}"));
  ASSERT_EQ(on.receiver_history().size(), off.receiver_history().size());
  for (size_t r = 0; r < on.receiver_history().size(); ++r) {
    EXPECT_EQ(on.receiver_history()[r].size(), (size_t)on.step());
    EXPECT_TRUE(same_bits(on.receiver_history()[r], off.receiver_history()[r], "receiver"));
  }
}

TEST(StepGraph, FurnishedRoomBitIdenticalFloat) {
  WS_REQUIRE_GPU();
  WaveScene s = furnished(6000, Precision::Float);
  ASSERT_GE(s.receivers.size(), 1u);
  WaveModel on(s, BackendChoice::Cuda), off(s, BackendChoice::Cuda);
  ASSERT_FALSE(on.boundary().empty()) << "the scene must exercise the boundary-node kernels";
  // Odd lengths (both parities, every graph size), then past the 4096-sample receiver buffer.
  expect_same_run(on, off, {1, 2, 3, 37, 128, 129, 255, 1000, 4096, 77});
}

TEST(StepGraph, FurnishedRoomBitIdenticalDouble) {
  WS_REQUIRE_GPU();
  WaveScene s = furnished(5000, Precision::Double);
  WaveModel on(s, BackendChoice::Cuda), off(s, BackendChoice::Cuda);
  expect_same_run(on, off, {5, 250, 251, 4000});
}

TEST(StepGraph, EveryKernelBitIdentical) {
  WS_REQUIRE_GPU();
  const WaveScene s = furnished(4000, Precision::Float);
  for (const KernelVariant* v : KernelRegistry::instance().supporting(make_stencil(s.stencil), Precision::Float)) {
    SCOPED_TRACE(v->id);
    WaveModel on(s, BackendChoice::Cuda, v->id), off(s, BackendChoice::Cuda, v->id);
    expect_same_run(on, off, {3, 64, 200});
  }
}

TEST(StepGraph, SolverAdvancePastTheReceiverBuffer) {
  WS_REQUIRE_GPU();
  // WaveModel advances at most 256 steps at a time; the solver itself must also cross
  // its 4096-sample receiver buffer inside one graph-replayed advance.
  const Stencil st = make_stencil("7pt");
  std::unique_ptr<CudaWaveSolver> g[2];
  for (int q = 0; q < 2; ++q) {
    g[q] = make_cuda_solver(Precision::Float, st, 19, 17, 13, st.courant_max, 1.0 / 8000);
    g[q]->set_step_graph(q == 0);
    g[q]->set_sources({{{4, 5, 6}, {SignalKind::Sine, 1.0, 1e-3, 100.0, 0.0}, 0.5, Injection::Difference}});
    g[q]->set_receivers({{4, 4, 4}, {10, 2, 12}});
    g[q]->advance(5001);
    g[q]->advance(4095);
  }
  EXPECT_TRUE(g[0]->step_launches().graph) << g[0]->step_launches().graph_note;
  const auto a = g[0]->take_receiver_samples(), b = g[1]->take_receiver_samples();
  ASSERT_EQ(a.size(), 2u);
  for (int r = 0; r < 2; ++r) {
    ASSERT_EQ(a[r].size(), 9096u);
    EXPECT_TRUE(same_bits(a[r], b[r], "receiver"));
  }
}

TEST(StepGraph, SurvivesChangesBetweenAdvances) {
  WS_REQUIRE_GPU();
  WaveScene s = furnished(5000, Precision::Float);
  WaveModel on(s, BackendChoice::Cuda), off(s, BackendChoice::Cuda);
  expect_same_run(on, off, {100});
  // A moved receiver and source, a kernel switch, a reset: the graphs must follow.
  const auto rp = s.receivers[0].position_m, sp = s.sources[0].position_m;
  for (WaveModel* m : {&on, &off}) {
    m->set_receiver_position(0, {rp[0] + 0.2, rp[1], rp[2]});
    m->set_source_position(0, {sp[0], sp[1] + 0.1, sp[2]});
  }
  expect_same_run(on, off, {33, 300});
  const auto kernels = KernelRegistry::instance().supporting(on.grid().stencil, Precision::Float);
  const KernelVariant& other = *kernels.back();
  for (WaveModel* m : {&on, &off})
    m->set_kernel(other.id, LaunchOptions{preferred_block(other, m->grid().stencil, Precision::Float), true});
  expect_same_run(on, off, {129});
  on.reset();
  off.reset();
  expect_same_run(on, off, {7, 300});
}

// A few steps of a small furnished room through graphs of 1 to 16 steps, with the
// default kernel and with zstream_fused (its runs replayed from graphs): short enough for
// compute-sanitizer's racecheck, synccheck and initcheck (scripts/gpu-session sanitize),
// which the longer tests above are not.
TEST(StepGraphSmall, FewStepsBitIdentical) {
  WS_REQUIRE_GPU();
  for (const char* kernel : {"", "zstream_fused"}) {
    SCOPED_TRACE(*kernel ? kernel : "default kernel");
    WaveScene s = furnished(3000, Precision::Float);
    WaveModel on(s, BackendChoice::Cuda, kernel), off(s, BackendChoice::Cuda, kernel);
    expect_same_run(on, off, {1, 2, 4, 8, 16});
  }
}

}  // namespace
}  // namespace ws
