// Sampled sources from the command line: `run` plays a WAV file and a dry signal
// named in the scene; a missing or unreadable file is refused with status 2 and a
// message naming it. `wavescope kernels` lists the sediment kernels too.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "sampled_fixtures.hpp"

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

std::string scene_with(const std::string& name, const std::string& signal) {
  const std::string f = ws::testing::sampled_tmp(name);
  std::ofstream(f) << R"({"room_m": [0.6, 0.5, 0.4], "sample_rate_hz": 8000, "boundary": {"absorption": 0.3},
    "sources": [{"position_m": [0.2, 0.2, 0.2], "signal": )" + signal + R"(}],
    "receivers": [{"name": "left", "position_m": [0.4, 0.3, 0.2]}, {"name": "right", "position_m": [0.45, 0.15, 0.25]}]})";
  return f;
}

double peak_of_csv(const std::string& path, int* rows) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  double peak = 0.0;
  *rows = 0;
  while (std::getline(in, line)) {
    ++*rows;
    for (size_t c = line.find(','); c != std::string::npos; c = line.find(',', c + 1))
      peak = std::max(peak, std::fabs(std::stod(line.substr(c + 1))));
  }
  return peak;
}

TEST(SampledCli, RunPlaysAWavFileAndADrySignal) {
  ws::testing::write_music_wav("sampled_cli_music.wav", 22050, 2, 0.2);
  for (const std::string signal : {std::string(R"({"type": "wav", "path": "sampled_cli_music.wav", "amplitude": 0.001})"),
                                   std::string(R"({"type": "dry", "name": "plucked_string", "amplitude": 0.001})")}) {
    const std::string f = scene_with("sampled_cli_scene.json", signal), csv = ws::testing::sampled_tmp("sampled_cli.csv");
    std::remove(csv.c_str());
    const Result r = sh("run --scene " + f + " --steps 2000 --backend cpu --quiet --csv " + csv);
    ASSERT_EQ(r.status, 0) << signal << "\n" << r.output;
    int rows = 0;
    EXPECT_GT(peak_of_csv(csv, &rows), 0.0) << signal;
    EXPECT_EQ(rows, 2000);
  }
}

// The shipped music scene (a dry plucked string heard by two ears) loads and runs.
TEST(SampledCli, TheShippedMusicSceneRuns) {
  const std::string csv = ws::testing::sampled_tmp("sampled_cli_shipped.csv");
  const Result r = sh("run --scene " + std::string(WS_SOURCE_DIR) + "/assets/scenes/shoebox_music.json --steps 20 --backend cpu --quiet --csv " + csv);
  ASSERT_EQ(r.status, 0) << r.output;
  int rows = 0;
  peak_of_csv(csv, &rows);
  EXPECT_EQ(rows, 20);
}

TEST(SampledCli, AMissingOrUnreadableWavExitsTwoNamingTheFile) {
  Result r = sh("run --scene " + scene_with("sampled_cli_missing.json", R"({"type": "wav", "path": "gone.wav"})") +
                " --steps 10 --backend cpu --quiet --csv " + ws::testing::sampled_tmp("sampled_cli_missing.csv"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("gone.wav"), std::string::npos) << r.output;
  std::ofstream(ws::testing::sampled_tmp("sampled_cli_text.wav")) << "not audio at all";
  const std::string bad = scene_with("sampled_cli_bad.json", R"({"type": "wav", "path": "sampled_cli_text.wav"})");
  r = sh("run --scene " + bad + " --steps 10 --backend cpu --quiet --csv " + ws::testing::sampled_tmp("sampled_cli_bad.csv"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("sampled_cli_text.wav"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("sources[0].signal"), std::string::npos) << r.output;
  r = sh("render --scene " + bad + " --steps 1 --backend cpu --png " + ws::testing::sampled_tmp("sampled_cli_bad.png"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("sampled_cli_text.wav"), std::string::npos) << r.output;
}

TEST(SampledCli, KernelsListsEveryRegistry) {
  Result r = sh("kernels");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("wave model"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("tiling3d"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("sediment model"), std::string::npos) << r.output;
  for (const char* id : {"h-baseline", "h-opt3", "s-baseline", "s-opt1"})
    EXPECT_NE(r.output.find(id), std::string::npos) << id << "\n" << r.output;
  r = sh("kernels --json");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("\"registry\": \"sediment\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"registry\": \"wave\""), std::string::npos) << r.output;
}

}  // namespace
