// Faults met by a running wave model (docs/reliability.md, "Faults injected and survived"):
// a solver that fails mid-run (WS_TEST_SOLVER_FAULT / set_fault_hook; on the CPU backend the
// CudaError a CUDA solver raises), and grids that do not fit memory on a live switch or a load
// (WS_TEST_HOST_MEMORY_BYTES). The running simulation stays as it was; nothing recorded is lost.
#include <gtest/gtest.h>

#include <cstdlib>

#include "core/field_layout.hpp"
#include "core/grid_too_large.hpp"
#include "cpu/host_memory.hpp"
#include "reliability/fault_room.hpp"
#include "wave/wave_model.hpp"

namespace ws {
namespace {

using test::ScopedEnv;
using test::small_room;

// Host memory that takes `fits` but not `refused` (check_host_grid_fits: 0.9 available - 64 MiB).
std::string memory_between(double fits, double refused) {
  EXPECT_LT(fits, refused);
  const double budget = 0.5 * (fits + refused);
  return std::to_string((long long)((budget + 64.0 * 1024 * 1024) / 0.9));
}

double grids_bytes(const DerivedGrid& g, int halo, Precision p) {
  return 2.0 * (double)make_layout(g.nx, g.ny, g.nz, halo, bytes_of(p)).total * bytes_of(p);
}

TEST(SolverFault, StopsKeepsTheReceiversAndTheFieldAndGoesOnOnTheCpu) {
  WaveModel faulty(small_room(Precision::Double), BackendChoice::Cpu), ref(small_room(Precision::Double), BackendChoice::Cpu);
  faulty.set_fault_hook(SolverFaultHook{300, SolverFaultKind::Launch});
  try {
    faulty.advance(1000);
    FAIL() << "no SolverFaultError";
  } catch (const SolverFaultError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("failed at step 300"), std::string::npos) << m;
    EXPECT_NE(m.find("cudaErrorInvalidConfiguration"), std::string::npos) << m;
    EXPECT_NE(m.find("300 samples are kept"), std::string::npos) << m;
    EXPECT_NE(m.find("was read back"), std::string::npos) << m;
  }
  EXPECT_TRUE(faulty.faulted());
  EXPECT_TRUE(faulty.fault_field_kept());
  EXPECT_EQ(faulty.step(), 300);
  ASSERT_EQ(faulty.receiver_history()[0].size(), 300u);
  EXPECT_THROW(faulty.advance(1), SolverFaultError);  // a failed solver is not advanced again
  EXPECT_EQ(faulty.step(), 300);

  faulty.continue_on_cpu();
  EXPECT_FALSE(faulty.faulted());
  EXPECT_EQ(faulty.solver().backend(), "cpu");
  EXPECT_NE(faulty.backend_note().find("after the solver failed at step 300"), std::string::npos)
      << faulty.backend_note();
  faulty.advance(700);
  ref.advance(1000);
  // The same run, bit for bit: the field was carried over exactly.
  ASSERT_EQ(faulty.receiver_history()[0].size(), 1000u);
  for (size_t s = 0; s < 1000; ++s) ASSERT_EQ(faulty.receiver_history()[0][s], ref.receiver_history()[0][s]) << s;
}

TEST(SolverFault, TheEnvironmentHookFiresOnceAndBadValuesAreIgnored) {
  {
    ScopedEnv e("WS_TEST_SOLVER_FAULT", "40:illegal-address");
    WaveModel m(small_room(Precision::Float), BackendChoice::Cpu);
    m.advance(39);
    try {
      m.advance(10);
      FAIL() << "no SolverFaultError";
    } catch (const SolverFaultError& e) {
      EXPECT_NE(std::string(e.what()).find("cudaErrorIllegalAddress"), std::string::npos) << e.what();
    }
    EXPECT_EQ(m.receiver_history()[0].size(), 40u);
    m.continue_on_cpu();
    m.advance(100);  // fired once: no second fault
    EXPECT_EQ(m.step(), 140);
  }
  for (const char* bad : {"x", "0", "12:melt", "-4"}) {
    ScopedEnv e("WS_TEST_SOLVER_FAULT", bad);
    WaveModel m(small_room(Precision::Float), BackendChoice::Cpu);
    EXPECT_NO_THROW(m.advance(50)) << bad;
  }
}

TEST(HostMemory, APrecisionSwitchThatDoesNotFitKeepsTheRunningModel) {
  WaveModel m(small_room(Precision::Float), BackendChoice::Cpu), ref(small_room(Precision::Float), BackendChoice::Cpu);
  m.advance(100);
  ref.advance(100);
  const DerivedGrid& g = m.grid();
  // Double grids plus the switch's copies of the field do not fit; float ones do.
  const double dbl = grids_bytes(g, 1, Precision::Double) * 3.0;
  {
    ScopedEnv e("WS_TEST_HOST_MEMORY_BYTES", memory_between(grids_bytes(g, 1, Precision::Float), dbl));
    try {
      m.set_precision(Precision::Double);
      FAIL() << "no GridTooLargeError";
    } catch (const GridTooLargeError& e) {
      const std::string s = e.what();
      EXPECT_NE(s.find("grid " + std::to_string(g.nx) + "x" + std::to_string(g.ny) + "x" + std::to_string(g.nz)),
                std::string::npos) << s;
      EXPECT_NE(s.find("the largest grid of this shape that fits is about"), std::string::npos) << s;
      EXPECT_NE(s.find("WS_TEST_HOST_MEMORY_BYTES"), std::string::npos) << s;
    }
  }
  EXPECT_EQ(m.solver().precision(), Precision::Float);
  EXPECT_EQ(m.step(), 100);
  m.advance(100);
  ref.advance(100);
  for (size_t s = 0; s < 200; ++s) ASSERT_EQ(m.receiver_history()[0][s], ref.receiver_history()[0][s]) << s;
}

TEST(HostMemory, AStencilSwitchThatDoesNotFitKeepsTheRunningModel) {
  WaveModel m(small_room(Precision::Double), BackendChoice::Cpu), ref(small_room(Precision::Double), BackendChoice::Cpu);
  m.advance(100);
  ref.advance(100);
  const DerivedGrid& g = m.grid();
  // leggy:4's halo of 4 makes its grids larger than 7pt's.
  ScopedEnv e("WS_TEST_HOST_MEMORY_BYTES",
              memory_between(grids_bytes(g, 1, Precision::Double), grids_bytes(g, 4, Precision::Double)));
  EXPECT_THROW(m.set_stencil("leggy:4"), GridTooLargeError);
  EXPECT_EQ(m.grid().stencil.name, ref.grid().stencil.name);
  EXPECT_EQ(m.step(), 100);
  m.advance(100);
  ref.advance(100);
  for (size_t s = 0; s < 200; ++s) ASSERT_EQ(m.receiver_history()[0][s], ref.receiver_history()[0][s]) << s;
}

TEST(HostMemory, ASceneTooLargeIsRefusedBeforeAllocatingWithTheSizeThatFits) {
  WaveScene s = small_room(Precision::Double);
  s.room_m = {80.0, 60.0, 40.0};  // 1260 x 945 x 630 points at 12 kHz: 12 GiB of double grids
  s.receivers[0].position_m = {1.0, 1.0, 1.0};
  ScopedEnv e("WS_TEST_HOST_MEMORY_BYTES", "4000000000");
  try {
    WaveModel m(s, BackendChoice::Cpu);
    FAIL() << "no GridTooLargeError";
  } catch (const GridTooLargeError& e) {
    const std::string w = e.what();
    EXPECT_NE(w.find("of host memory (two 64-bit grids)"), std::string::npos) << w;
    EXPECT_NE(w.find("or use float"), std::string::npos) << w;
  }
}

TEST(HostMemory, SaysWhatLimitsIt) {
  const HostMemory m = available_host_memory();
  EXPECT_GT(m.available_bytes, 0.0);
  EXPECT_FALSE(m.limited_by.empty());  // MemAvailable at least (Linux)
}

}  // namespace
}  // namespace ws
