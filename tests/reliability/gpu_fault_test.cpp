// The same faults on the CUDA backend (label gpu; skipped without a device): a real
// kernel-launch error and a real illegal address mid-run, and device memory that runs
// out on a precision, stencil or scene switch (WS_TEST_DEVICE_MEMORY_BYTES caps it).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "common/gpu.hpp"
#include "core/field_layout.hpp"
#include "core/grid_too_large.hpp"
#include "reliability/fault_helpers.hpp"
#include "reliability/fault_room.hpp"
#include "wave/wave_model.hpp"

namespace ws {
namespace {

using test::ScopedEnv;
using test::small_room;

// Device memory that takes `fits` but not `refused` (check_grid_fits: 0.95 free - 64 MiB).
std::string device_between(double fits, double refused) {
  const double budget = 0.5 * (fits + refused);
  return std::to_string((long long)((budget + 64.0 * 1024 * 1024) / 0.95));
}

double grids_bytes(const DerivedGrid& g, int halo, Precision p) {
  return 2.0 * (double)make_layout(g.nx, g.ny, g.nz, halo, bytes_of(p)).total * bytes_of(p);
}

TEST(GpuFault, ALaunchErrorMidRunStopsKeepsEverythingAndTheCpuGoesOn) {
  WS_REQUIRE_GPU();
  WaveModel m(small_room(Precision::Double), BackendChoice::Cuda), ref(small_room(Precision::Double), BackendChoice::Cpu);
  ASSERT_NE(m.cuda(), nullptr);
  m.set_fault_hook(SolverFaultHook{300, SolverFaultKind::Launch});
  try {
    m.advance(1000);
    FAIL() << "no SolverFaultError";
  } catch (const SolverFaultError& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("the CUDA solver failed at step 300"), std::string::npos) << w;
    // The runtime names a refused launch configuration cudaErrorInvalidConfiguration or (CUDA 13
    // on the H200, driver 580) cudaErrorInvalidValue.
    EXPECT_TRUE(w.find("cudaErrorInvalidConfiguration") != std::string::npos ||
                w.find("cudaErrorInvalidValue") != std::string::npos)
        << w;
    EXPECT_NE(w.find("was read back"), std::string::npos) << w;
  }
  ASSERT_EQ(m.receiver_history()[0].size(), 300u);
  m.continue_on_cpu();
  EXPECT_EQ(m.cuda(), nullptr);
  m.advance(700);
  ref.advance(1000);
  ASSERT_EQ(m.receiver_history()[0].size(), 1000u);
  for (size_t s = 0; s < 1000; ++s)
    EXPECT_NEAR(m.receiver_history()[0][s], ref.receiver_history()[0][s], 1e-9) << s;
}

// A sticky error loses the context, so it runs in a fresh process (CUDA does not survive a
// fork once initialised): this binary again, with only the test below, which runs only there.
TEST(GpuFault, StickyErrorChild) {
  if (!std::getenv("WS_GPU_FAULT_CHILD")) GTEST_SKIP() << "runs as the child of AnIllegalAddressLosesTheFieldButKeepsTheReceivers";
  WaveModel m(small_room(Precision::Float), BackendChoice::Cuda);
  ASSERT_NE(m.cuda(), nullptr);
  m.set_fault_hook(SolverFaultHook{300, SolverFaultKind::IllegalAddress});
  try {
    m.advance(1000);
    FAIL() << "no SolverFaultError";
  } catch (const SolverFaultError& e) {
    std::printf("fault message: %s\n", e.what());
  }
  EXPECT_EQ(m.receiver_history()[0].size(), 300u);
  EXPECT_FALSE(m.fault_field_kept());
  m.continue_on_cpu();  // the CPU solver from a silent room at step 300
  EXPECT_EQ(m.cuda(), nullptr);
  m.advance(100);
  EXPECT_EQ(m.step(), 400);
  EXPECT_EQ(m.receiver_history()[0].size(), 400u);
  std::printf("child done\n");
}

TEST(GpuFault, AnIllegalAddressLosesTheFieldButKeepsTheReceivers) {
  WS_REQUIRE_GPU();
  const test::ShellResult r = test::shell("WS_GPU_FAULT_CHILD=1 /proc/" + std::to_string(::getpid()) +
                                          "/exe --gtest_filter=GpuFault.StickyErrorChild");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("child done"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cudaErrorIllegalAddress"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("could not be read back"), std::string::npos) << r.output;
}

// The same through `run`: exit 4, the error named, the CSV holds the 300 steps computed.
TEST(GpuFault, RunWritesTheReceiversAfterAStickyError) {
  WS_REQUIRE_GPU();
  test::TempDir d("gpu_fault_run");
  const std::string csv = d / "r.csv";
  const test::ShellResult r =
      test::shell("WS_TEST_SOLVER_FAULT=300:illegal-address " + std::string(WS_WAVESCOPE_BIN) + " run --scene " +
                  WS_SOURCE_DIR + "/assets/scenes/shoebox.json --backend cuda --steps 1000 --quiet --csv " + csv);
  EXPECT_EQ(r.status, 4) << r.output;
  EXPECT_NE(r.output.find("the CUDA solver failed at step 300"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cudaErrorIllegalAddress"), std::string::npos) << r.output;
  size_t rows = 0;
  for (char c : test::read_file(csv)) rows += c == '\n';
  EXPECT_EQ(rows, 301u);
}

TEST(GpuFault, DeviceMemoryRunningOutOnAPrecisionSwitchKeepsTheRun) {
  WS_REQUIRE_GPU();
  WaveModel m(small_room(Precision::Float), BackendChoice::Cuda);
  ASSERT_NE(m.cuda(), nullptr);
  m.advance(100);
  const auto before = m.receiver_history()[0];
  const DerivedGrid& g = m.grid();
  {
    ScopedEnv e("WS_TEST_DEVICE_MEMORY_BYTES",
                device_between(grids_bytes(g, 1, Precision::Float), grids_bytes(g, 1, Precision::Double)));
    try {
      m.set_precision(Precision::Double);
      FAIL() << "no GridTooLargeError";
    } catch (const GridTooLargeError& e) {
      EXPECT_NE(std::string(e.what()).find("the largest grid of this shape that fits is about"), std::string::npos)
          << e.what();
    }
  }
  EXPECT_NE(m.cuda(), nullptr);
  EXPECT_EQ(m.solver().precision(), Precision::Float);
  EXPECT_EQ(m.step(), 100);
  m.advance(100);
  EXPECT_EQ(m.receiver_history()[0].size(), 200u);
}

TEST(GpuFault, DeviceMemoryRunningOutOnAStencilSwitchKeepsTheRun) {
  WS_REQUIRE_GPU();
  WaveModel m(small_room(Precision::Double), BackendChoice::Cuda), ref(small_room(Precision::Double), BackendChoice::Cuda);
  ASSERT_NE(m.cuda(), nullptr);
  m.advance(100);
  ref.advance(100);
  const DerivedGrid& g = m.grid();
  {
    ScopedEnv e("WS_TEST_DEVICE_MEMORY_BYTES",
                device_between(grids_bytes(g, 1, Precision::Double), grids_bytes(g, 4, Precision::Double)));
    try {
      m.set_stencil("leggy:4");
      FAIL() << "no GridTooLargeError";
    } catch (const GridTooLargeError& e) {
      EXPECT_NE(std::string(e.what()).find("GiB of GPU memory"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(m.grid().stencil.name, ref.grid().stencil.name);
  EXPECT_NE(m.cuda(), nullptr);
  m.advance(100);
  ref.advance(100);
  for (size_t s = 0; s < 200; ++s) EXPECT_NEAR(m.receiver_history()[0][s], ref.receiver_history()[0][s], 1e-12) << s;
}

TEST(GpuFault, ASceneThatDoesNotFitTheDeviceIsRefusedWithTheSizeThatFits) {
  WS_REQUIRE_GPU();
  ScopedEnv e("WS_TEST_DEVICE_MEMORY_BYTES", "100000000");
  WaveScene s = small_room(Precision::Double);
  s.room_m = {10.0, 8.0, 6.0};
  try {
    WaveModel m(s, BackendChoice::Cuda);
    FAIL() << "no GridTooLargeError";
  } catch (const GridTooLargeError& e) {
    EXPECT_NE(std::string(e.what()).find("the largest grid of this shape that fits is about"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace ws
