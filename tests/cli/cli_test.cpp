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
  EXPECT_EQ(header, "step,time_s,left,right");
  int rows = 0;
  while (std::getline(in, line)) ++rows;
  EXPECT_EQ(rows, 40);
}

TEST(Cli, BadSceneExitsTwoWithTheKey) {
  const std::string f = tmp("bad_scene.json");
  std::ofstream(f) << R"({"room_m": [3, 3, -1]})";
  const Result r = sh("run --scene " + f + " --steps 5");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("room_m"), std::string::npos) << r.output;
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
