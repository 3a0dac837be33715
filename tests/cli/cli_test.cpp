// The command line as a user meets it: exit statuses and messages.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace {

struct Result {
  int status;
  std::string output;
};

Result sh(const std::string& args) {
  const std::string cmd = std::string(WS_BINARY_DIR) + "/wavescope " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  const int st = pclose(p);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

std::string tmp(const std::string& name) { return std::string(WS_BINARY_DIR) + "/tests/" + name; }

TEST(Cli, RunWritesReceiverCsv) {
  const std::string csv = tmp("cli_run.csv");
  const Result r = sh("run --scene " + std::string(WS_SOURCE_DIR) + "/assets/scenes/shoebox.json --steps 40 --backend cpu --quiet --csv " + csv);
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream in(csv);
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header, "step,time_s,left_Pa,right_Pa");  // a volume-velocity source: pascals
  int rows = 0;
  while (std::getline(in, line)) ++rows;
  EXPECT_EQ(rows, 40);
}

// A "scheme" source whose signal has a non-zero sum, in a closed rigid room: the mean
// ramps, the watchdog stops the run with status 3, and the samples so far are written.
TEST(Cli, WatchdogStopsARampWithStatusThreeAndKeepsTheSamples) {
  const std::string f = tmp("ramp_scene.json"), csv = tmp("ramp.csv");
  std::ofstream(f) << R"({"room_m": [0.5, 0.5, 0.5], "sample_rate_hz": 8000, "boundary": "rigid",
    "sources": [{"position_m": [0.2, 0.2, 0.2], "quantity": "scheme", "signal": {"type": "raised_cosine", "width_s": 0.001}}],
    "receivers": [{"name": "r", "position_m": [0.3, 0.3, 0.3]}]})";
  std::remove(csv.c_str());
  const Result r = sh("run --scene " + f + " --steps 200000 --backend cpu --quiet --csv " + csv);
  EXPECT_EQ(r.status, 3) << r.output;
  EXPECT_NE(r.output.find("DC ramp"), std::string::npos) << r.output;
  std::ifstream in(csv);
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header, "step,time_s,r_scheme");
  int rows = 0;
  while (std::getline(in, line)) ++rows;
  EXPECT_GT(rows, 1000);
  EXPECT_LT(rows, 200000);
}

TEST(Cli, RunSaysWhereThingsLandedAndTheModelledRoom) {
  const std::string f = tmp("placed_scene.json");
  std::ofstream(f) << R"({"room_m": [1.013, 1, 1], "sample_rate_hz": 8000, "boundary": "rigid",
    "sources": [{"position_m": [0.31, 0.4, 0.4]}],
    "receivers": [{"name": "ear", "position_m": [0.6, 0.5, 0.5], "interpolation": "trilinear"}]})";
  const Result r = sh("run --scene " + f + " --steps 5 --backend cpu --csv " + tmp("placed.csv"));
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("modelled room"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("nearest node ("), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("trilinear over the 8 nodes"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("pressure in Pa"), std::string::npos) << r.output;
}

TEST(Cli, BadSourceQuantityExitsTwo) {
  const std::string f = tmp("bad_quantity.json");
  std::ofstream(f) << R"({"room_m": [1, 1, 1], "sources": [{"position_m": [0.5, 0.5, 0.5], "quantity": "force"}]})";
  const Result r = sh("run --scene " + f + " --steps 5");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("sources[0].quantity = \"force\""), std::string::npos) << r.output;
}

TEST(Cli, BadSceneExitsTwoWithTheKey) {
  const std::string f = tmp("bad_scene.json");
  std::ofstream(f) << R"({"room_m": [3, 3, -1]})";
  const Result r = sh("run --scene " + f + " --steps 5");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("room_m"), std::string::npos) << r.output;
}

TEST(Cli, SedimentSceneGivenToRunExitsTwoNamingTheModel) {
  const Result r = sh("run --scene " + std::string(WS_SOURCE_DIR) + "/assets/scenes/sediment_closed_basin.json --steps 5");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("model = \"sediment2d\" is not allowed for a wave scene"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("wavescope render"), std::string::npos) << r.output;
}

TEST(Cli, CourantAboveLimitExitsTwo) {
  const std::string f = tmp("fast_scene.json");
  std::ofstream(f) << R"({"room_m": [1, 1, 1], "sample_rate_hz": 8000, "courant": 0.7})";
  const Result r = sh("run --scene " + f + " --steps 5");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("0.57735"), std::string::npos) << r.output;
}

TEST(Cli, UnknownOptionExitsTwo) {
  EXPECT_EQ(sh("run --scene x.json --warp 9").status, 2);
  EXPECT_EQ(sh("frobnicate").status, 2);
}

TEST(Cli, KernelsListsTheRegistry) {
  const Result r = sh("kernels");
  EXPECT_EQ(r.status, 0);
  EXPECT_NE(r.output.find("tiling3d"), std::string::npos) << r.output;
}

}  // namespace
