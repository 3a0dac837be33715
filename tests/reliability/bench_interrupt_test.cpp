// SIGINT during a benchmark (label gpu: the benchmarks time GPU kernels): the measurements
// finished before the signal are reported and written, whole, and the status is 130.
#include <gtest/gtest.h>

#include <csignal>
#include <nlohmann/json.hpp>

#include "common/gpu.hpp"
#include "reliability/fault_helpers.hpp"

namespace {

using namespace ws::test;

const std::string kBin = WS_WAVESCOPE_BIN;

TEST(BenchInterrupt, SigintDuringBenchWebbWritesTheVariantsTimedAndExits130) {
  WS_REQUIRE_GPU();
  TempDir d("bench_webb_sigint");
  const std::string json = d / "webb.json";
  // The signal comes when the second variant starts: the first is timed, the rest is not.
  const SignalledRun r = run_and_signal({kBin, "bench", "webb", "--size", "256,256,256", "--precision", "both",
                                         "--cache", "both", "--json", json},
                                        "timing ", SIGINT, 300.0, 2);
  ASSERT_TRUE(r.signalled) << r.output;
  EXPECT_EQ(r.status, 130) << r.output;
  EXPECT_NE(r.output.find("SIGINT; the variants timed so far are reported"), std::string::npos) << r.output;
  const auto records = nlohmann::json::parse(read_file(json));  // whole, or parse throws
  ASSERT_TRUE(records.is_array());
  EXPECT_GE(records.size(), 1u);
  EXPECT_LT(records.size(), count_of(r.output, "timing ") + 1) << r.output;
  EXPECT_TRUE(temp_leftovers(d.path).empty());
}

TEST(BenchInterrupt, SigintDuringBenchStencilsWritesTheMeasurementsAndExits130) {
  WS_REQUIRE_GPU();
  TempDir d("bench_stencils_sigint");
  const std::string json = d / "stencils.json", csv = d / "stencils.csv";
  // A few seconds in: the device is set up and some stencils are measured.
  const SignalledRun r = run_and_signal({kBin, "bench", "stencils", "--families", "leggy,compact", "--per-family", "8",
                                         "--sizes", "medium", "--precision", "both", "--json", json, "--csv", csv},
                                        "", SIGINT, 300.0, 1, 8.0);
  ASSERT_TRUE(r.signalled) << r.output;
  EXPECT_EQ(r.status, 130) << r.output;
  EXPECT_NE(r.output.find("SIGINT; the measurements so far are reported"), std::string::npos) << r.output;
  const auto records = nlohmann::json::parse(read_file(json));
  ASSERT_TRUE(records.is_array()) << records.dump();
  EXPECT_GE(records.size(), 1u) << r.output;
  EXPECT_NE(read_file(csv).find('\n'), std::string::npos);
  EXPECT_TRUE(temp_leftovers(d.path).empty());
}

}  // namespace
