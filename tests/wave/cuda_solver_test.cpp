// The CUDA solver end to end (default kernel, sources, receivers) against the CPU
// reference. Every registered kernel variant is tested in tests/kernels.
#include <gtest/gtest.h>

#include "common/gpu.hpp"
#include "common/random_field.hpp"
#include "cpu/cpu_solver.hpp"
#include "cuda/cuda_solver.hpp"
#include "scene_builders.hpp"
#include "wave/wave_model.hpp"

namespace ws {
namespace {

template <Precision P>
void compare_after(int steps, double tol) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  const int nx = 45, ny = 31, nz = 27;  // not multiples of any block
  auto cpu = make_cpu_solver(P, st, nx, ny, nz, st.courant_max, 1.0 / 44100);
  auto gpu = make_cuda_solver(P, st, nx, ny, nz, st.courant_max, 1.0 / 44100);
  const auto& L = cpu->layout();
  const auto u0 = testing::random_field(L, 11), u1 = testing::random_field(L, 12);
  cpu->write_state(u0, u1, 0);
  gpu->write_state(u0, u1, 0);
  const std::vector<SourceNode> src{{{10, 10, 10}, {SignalKind::Gaussian, 0.5, 2e-4, 0.0, 0.0}}};
  const std::vector<GridIndex> rec{{20, 15, 13}, {0, 0, 0}, {nx - 1, ny - 1, nz - 1}};
  cpu->set_sources(src);
  gpu->set_sources(src);
  cpu->set_receivers(rec);
  gpu->set_receivers(rec);
  cpu->advance(steps);
  gpu->advance(steps);
  std::vector<double> a, ap, b, bp;
  cpu->read_state(a, ap);
  gpu->read_state(b, bp);
  const auto [d, m] = testing::max_diff(b, a, L);
  EXPECT_LE(d, tol * m) << "max |diff| " << d << " vs max |u| " << m;
  const auto ra = cpu->take_receiver_samples(), rb = gpu->take_receiver_samples();
  ASSERT_EQ(ra.size(), rb.size());
  for (size_t r = 0; r < ra.size(); ++r) {
    ASSERT_EQ(ra[r].size(), (size_t)steps);
    ASSERT_EQ(rb[r].size(), (size_t)steps);
    for (int q = 0; q < steps; ++q) EXPECT_NEAR(ra[r][q], rb[r][q], tol * m) << "receiver " << r << " sample " << q;
  }
}

TEST(CudaSolver, MatchesCpuDouble) { compare_after<Precision::Double>(500, 1e-12); }
TEST(CudaSolver, MatchesCpuFloat) { compare_after<Precision::Float>(500, 1e-5); }

TEST(CudaSolver, ReceiverChunksCrossTheDeviceBuffer) {
  WS_REQUIRE_GPU();
  // More steps than the device receiver buffer holds (4096): nothing lost or repeated.
  const Stencil st = make_stencil("7pt");
  auto gpu = make_cuda_solver(Precision::Float, st, 8, 8, 8, st.courant_max, 1.0 / 8000);
  gpu->set_sources({{{4, 4, 4}, {SignalKind::Sine, 1.0, 1e-3, 100.0, 0.0}}});
  gpu->set_receivers({{4, 4, 4}});
  gpu->advance(5000);
  gpu->advance(3);
  const auto r = gpu->take_receiver_samples();
  EXPECT_EQ(r[0].size(), 5003u);
}

TEST(CudaSolver, UnknownKernelListsTheValidOnes) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  auto gpu = make_cuda_solver(Precision::Float, st, 8, 8, 8, st.courant_max, 1.0 / 8000);
  try {
    gpu->set_kernel("warp-speed", {});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("tiling3d"), std::string::npos);
  }
}

}  // namespace
}  // namespace ws

namespace ws {
namespace {

TEST(CudaSolver, GridLargerThanMemoryNamesTheLargestThatFits) {
  WS_REQUIRE_GPU();
  const Stencil st = make_stencil("7pt");
  try {
    make_cuda_solver(Precision::Double, st, 6000, 6000, 6000, st.courant_max, 1.0 / 8000);
    FAIL() << "a 6000^3 double grid cannot fit";
  } catch (const std::runtime_error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("largest grid of this shape that fits"), std::string::npos) << m;
    EXPECT_NE(m.find("6000x6000x6000"), std::string::npos) << m;
  }
}


// ztma_leggy compiles its block width in per radius and precision: switching the
// stencil or the precision under it must move to a block it accepts (and keep a
// user's block it still accepts), and a block it refuses must be refused when it
// is set, with the running kernel kept.
TEST(CudaModel, SwitchesUnderZtmaKeepABlockItAccepts) {
  WS_REQUIRE_GPU();
  WaveScene s = testing::cube_scene(1.0, 8000.0, Precision::Float);
  s.stencil = "leggy:2";
  s.courant_fraction = 0.5;
  s.sources.push_back({{0.5, 0.5, 0.5}, {SignalKind::RaisedCosine, 1.0, 2e-3, 0.0, 0.0}});
  s.receivers.push_back({"r", {0.7, 0.5, 0.5}});
  WaveModel m(s, BackendChoice::Cuda);
  ASSERT_NE(m.cuda(), nullptr);
  ASSERT_EQ(m.cuda()->kernel().id, "ztma_leggy");
  EXPECT_EQ(m.cuda()->launch_options().block.x, 16);
  m.advance(5);
  m.set_stencil("leggy:8");  // float, M = 8: blocks 8 x BY
  EXPECT_EQ(m.cuda()->kernel().id, "ztma_leggy");
  EXPECT_EQ(m.cuda()->launch_options().block.x, 8);
  EXPECT_EQ(m.cuda()->launch_options().block.y, 32);
  m.advance(5);
  m.set_kernel("ztma_leggy", LaunchOptions{{8, 20, 1}, true});  // a user's block, kept below
  m.set_stencil("leggy:6");
  EXPECT_EQ(m.cuda()->launch_options().block.y, 20);
  m.advance(5);
  m.set_precision(Precision::Double);  // double: blocks 16 x BY
  EXPECT_EQ(m.cuda()->launch_options().block.x, 16);
  m.advance(5);
  try {
    m.set_kernel("ztma_leggy", LaunchOptions{{8, 32, 1}, true});
    ADD_FAILURE() << "a block of the wrong width was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("allowed: 16xBY"), std::string::npos) << e.what();
  }
  EXPECT_EQ(m.cuda()->launch_options().block.x, 16);
  m.advance(5);
  EXPECT_EQ(m.step(), 25);
  for (double v : m.receiver_history()[0]) EXPECT_TRUE(std::isfinite(v));
}

}  // namespace
}  // namespace ws
