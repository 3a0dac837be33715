// Faults met through the command line: SIGINT and SIGTERM during `run` and
// `render` (what was computed is written, status 130 / 143), outputs that
// cannot be written (a read-only or missing folder: status 2 before any step; a
// full disk: status 1, the path named, no truncated file), scene files that are
// missing or cut short.
#include <gtest/gtest.h>

#include <csignal>
#include <fstream>

#include "png_writer.hpp"
#include "reliability/fault_helpers.hpp"

namespace {

using namespace ws::test;

const std::string kBin = WS_WAVESCOPE_BIN;
const std::string kShoebox = std::string(WS_SOURCE_DIR) + "/assets/scenes/shoebox.json";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

// `run` for (nearly) ever on the CPU; the signal arrives once the progress
// bar shows the loop is running.
void expect_run_stops_on(int sig, int expected_status) {
  TempDir d("cli_sig_run");
  const std::string csv = d / "r.csv";
  const SignalledRun r =
      run_and_signal({kBin, "run", "--scene", kShoebox, "--backend", "cpu", "--steps", "100000000", "--csv", csv},
                     "] ", sig);
  ASSERT_TRUE(r.signalled) << r.output;
  EXPECT_EQ(r.status, expected_status) << r.output;
  EXPECT_NE(r.output.find(sig == SIGINT ? "SIGINT at step " : "SIGTERM at step "), std::string::npos) << r.output;
  // The CSV holds every step computed: a header and one whole row per step.
  const auto rows = lines_of(read_file(csv));
  ASSERT_GE(rows.size(), 2u) << r.output;
  EXPECT_EQ(rows[0].rfind("step,time_s,", 0), 0u) << rows[0];
  const auto at = r.output.find(" at step ");
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ((long long)rows.size() - 1, std::atoll(r.output.c_str() + at + 9)) << r.output;
  EXPECT_EQ(std::count(rows.back().begin(), rows.back().end(), ','), std::count(rows[0].begin(), rows[0].end(), ','));
  EXPECT_TRUE(temp_leftovers(d.path).empty());
}

TEST(CliFaults, SigtermDuringRunWritesTheCsvAndExits143) { expect_run_stops_on(SIGTERM, 143); }
TEST(CliFaults, SigintDuringRunWritesTheCsvAndExits130) { expect_run_stops_on(SIGINT, 130); }

TEST(CliFaults, SigtermDuringRenderKeepsWholeFramesAndExits143) {
  TempDir d("cli_sig_render");
  const SignalledRun r = run_and_signal({kBin, "render", "--scene", kShoebox, "--backend", "cpu", "--frames", "10000",
                                         "--every", "2", "--size", "64,48", "--out-dir", d.path.string()},
                                        "frame_0001.png", SIGTERM);
  ASSERT_TRUE(r.signalled) << r.output;
  EXPECT_EQ(r.status, 143) << r.output;
  EXPECT_NE(r.output.find("SIGTERM at step "), std::string::npos) << r.output;
  int frames = 0;
  for (const auto& e : fs::directory_iterator(d.path)) {
    ++frames;
    EXPECT_NO_THROW(ws::render::read_png_rgba(e.path().string())) << e.path();  // each one complete
  }
  EXPECT_GE(frames, 2);
  EXPECT_LT(frames, 10000);
  EXPECT_TRUE(temp_leftovers(d.path).empty());
}

// An output that cannot be written is refused before the steps (status 2, the path
// named), not after them: nothing computed is lost to a mistyped or read-only folder.
TEST(CliFaults, CsvInAReadOnlyFolderExitsTwoBeforeAnyStep) {
  TempDir d("cli_ro");
  const std::string csv = d / "r.csv";
  fs::permissions(d.path, fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                  fs::perm_options::remove);
  const ShellResult r = shell(unprivileged_prefix() + kBin + " run --scene " + kShoebox +
                              " --backend cpu --steps 40 --csv " + csv);
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("wavescope run: cannot write CSV file '" + csv + "': cannot create a file in '" +
                          d.path.string() + "': Permission denied"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("scene '"), std::string::npos) << "the model was set up: " << r.output;
  EXPECT_FALSE(fs::exists(csv));
}

TEST(CliFaults, OutputsInMissingFoldersExitTwoBeforeAnyStep) {
  TempDir d("cli_missing");
  const std::string nowhere = d / "no_such_folder";
  struct Case {
    std::string args, message;
  };
  const std::vector<Case> cases = {
      {"run --scene " + kShoebox + " --backend cpu --steps 40 --csv " + d / "ok.csv" + " --wav " + nowhere + "/r.wav",
       "wavescope run: cannot write WAV file '" + nowhere + "/r.wav': cannot create a file in '" + nowhere + "'"},
      {"run --scene " + kShoebox + " --backend cpu --steps 40 --csv " + d.path.string(),
       "wavescope run: cannot write CSV file '" + d.path.string() + "': it is a folder"},
      {"render --scene " + kShoebox + " --backend cpu --png " + nowhere + "/f.png",
       "--png: cannot write PNG file '" + nowhere + "/f.png': cannot create a file in '" + nowhere + "'"},
      {"render --scene " + kShoebox + " --backend cpu --frames 2 --out-dir /proc/wavescope_frames",
       "wavescope render: cannot make the frames' folder '/proc/wavescope_frames'"},
      {"bench webb --json " + nowhere + "/w.json", "--json: cannot write JSON file '" + nowhere + "/w.json'"},
      {"bench realtime --scene " + kShoebox + " --json " + nowhere + "/r.json",
       "--json: cannot write JSON file '" + nowhere + "/r.json'"},
      {"bench stencils --png " + d.path.string(), "--png: cannot write PNG file '" + d.path.string() + "': it is a folder"},
      {"bench sediment --json " + nowhere + "/s.json", "--json: cannot write JSON file '" + nowhere + "/s.json'"},
      {"bench scaling --json " + nowhere + "/s.json", "--json: cannot write JSON file '" + nowhere + "/s.json'"},
  };
  for (const Case& c : cases) {
    const ShellResult r = shell(kBin + " " + c.args);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << "\n" << r.output;
    EXPECT_EQ(r.output.find("scene '"), std::string::npos) << "the model was set up: " << c.args << "\n" << r.output;
  }
  EXPECT_FALSE(fs::exists(nowhere));
  EXPECT_EQ(fs::directory_iterator(d.path), fs::directory_iterator()) << "a file was left in " << d.path;
}

TEST(CliFaults, CsvOnAFullDiskKeepsThePreviousResult) {
  TempDir d("cli_full");
  const std::string csv = d / "r.csv";
  std::ofstream(csv) << "previous result\n";
  // Files may not grow past 4 KiB (EFBIG, SIGXFSZ ignored): a full disk as the process sees it.
  const ShellResult r = shell("sh -c \"trap '' XFSZ; exec prlimit --fsize=4096 " + kBin + " run --scene " + kShoebox +
                              " --backend cpu --steps 400 --quiet --csv " + csv + "\"");
  EXPECT_EQ(r.status, 1) << r.output;
  EXPECT_NE(r.output.find("cannot write CSV file '" + csv + "': File too large"), std::string::npos) << r.output;
  EXPECT_EQ(read_file(csv), "previous result\n");
  EXPECT_TRUE(temp_leftovers(d.path).empty());
}

TEST(CliFaults, MissingCutShortOrFolderSceneExitsTwoNamingIt) {
  TempDir d("cli_scene");
  const ShellResult missing = shell(kBin + " run --scene " + (d / "gone.json") + " --steps 5");
  EXPECT_EQ(missing.status, 2) << missing.output;
  EXPECT_NE(missing.output.find(d / "gone.json"), std::string::npos) << missing.output;
  const std::string cut = d / "cut.json";
  const std::string full = read_file(kShoebox);
  std::ofstream(cut) << full.substr(0, full.size() / 2);
  const ShellResult r = shell(kBin + " run --scene " + cut + " --steps 5");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find(cut), std::string::npos) << r.output;
  const ShellResult folder = shell(kBin + " run --scene " + d.path.string() + " --steps 5");
  EXPECT_EQ(folder.status, 2) << folder.output;
  EXPECT_NE(folder.output.find("scene file '" + d.path.string() + "' is a folder"), std::string::npos) << folder.output;
}

TEST(CliFaults, MissingMeshExitsTwoNamingIt) {
  TempDir d("cli_mesh");
  const std::string scene = d / "room.json";
  std::ofstream(scene) << R"({"room_m": [3, 3, 3], "sample_rate_hz": 4000,
    "obstacles": [{"type": "mesh", "file": "chair_gone.obj"}],
    "sources": [{"position_m": [0.5, 0.5, 0.5]}], "receivers": [{"name": "r", "position_m": [2.5, 2.5, 2.5]}]})";
  const ShellResult r = shell(kBin + " run --scene " + scene + " --steps 5");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("chair_gone.obj' does not exist"), std::string::npos) << r.output;
}

// Every refused option exits 2 with a message naming it (docs/reliability.md,
// "Bad input"); the benchmarks check their options before looking for a GPU.
TEST(CliFaults, BadOptionsExitTwoNamingTheOption) {
  const std::string s = " --scene " + kShoebox;
  const std::pair<std::string, std::string> cases[] = {
      {"run" + s + " --steps -1", "--steps: -1 is not allowed; expected a whole number of steps >= 1"},
      {"run" + s + " --steps 0", "--steps: 0 is not allowed; expected a whole number of steps >= 1"},
      {"run" + s + " --seconds 0", "--seconds: 0 is not allowed; expected a number > 0"},
      {"run" + s + " --seconds nan", "--seconds: 'nan' is not allowed; expected a number > 0"},
      {"run" + s + " --kernel nope --backend cpu", "--kernel 'nope' is not a kernel id; allowed: auto, "},
      {"run" + s + " --kernel nope --backend cuda", "--kernel 'nope' is not a kernel id; allowed: auto, "},
      {"render" + s + " --png x.png --steps -3", "--steps: -3 is not allowed; expected a number >= 0"},
      {"render" + s + " --png x.png --kernel nope --backend cpu", "--kernel 'nope' is not a kernel id; allowed: auto, "},
      {"render" + s + " --frames 2 --every 0 --out-dir x", "--every: 0 is not allowed; expected a number > 0"},
      {"run" + s + " --backend gpu", "--backend: gpu not in {auto,cpu,cuda}"},
      {"run" + s + " --precision half", "--precision: half not in {float,double}"},
      {"run" + s + " --wav x.wav --wav-rate 10", "--wav-rate: Value 10 not in range 1000 to 768000"},
      {"run" + s + " --warp 9", "--warp"},
      {"run --steps 5", "--scene is required"},
      {"render" + s + " --size 5,5 --png x.png", "--size must be W,H with each in [16, 8192]"},
      {"render" + s + " --png x.png --frames 3", "--png and --frames exclude each other"},
      {"render" + s, "give --png FILE for one frame or --frames K"},
      {"render" + s + " --slice ab --png x.png", "--slice 'ab' is not supported; allowed: xy, xz, yz"},
      {"render" + s + " --slice-m 9,1,1 --png x.png", "lies outside the room"},
      {"bench webb --size 1,2", "--size '1,2': expected NX,NY,NZ"},
      {"bench webb --block 0,1", "--block '0,1': '0' is not allowed"},
      {"bench webb --variants nope", "unknown kernel 'nope'; allowed:"},
      {"bench stencils --block 3y4", "--block: '3y4' is not XxY or XxYxZ"},
      {"bench stencils --max-gpoints -1", "--max-gpoints must be > 0"},
      {"bench sediment --size 1", "--size: Value 1 not in range 3 to 32768"},
      {"stencil info leggy:99", "M = 99 is outside 1..8"},
      {"frobnicate", "frobnicate"},
  };
  for (const auto& [args, says] : cases) {
    const ShellResult r = shell(kBin + " " + args);
    EXPECT_EQ(r.status, 2) << args << "\n" << r.output;
    EXPECT_NE(r.output.find(says), std::string::npos) << args << "\n" << r.output;
  }
}

// A grid larger than the memory it would run in: refused before allocating, with what it
// needs, what is available and the largest grid of the same shape that fits.
TEST(CliFaults, AGridTooLargeForMemoryExitsTwoWithTheSizeThatFits) {
  TempDir d("cli_big");
  const std::string scene = d / "big.json";
  {
    std::ofstream f(scene);
    f << R"({"name": "huge", "room_m": [60, 50, 40], "sample_rate_hz": 48000,
             "sources": [{"position_m": [1, 1, 1]}], "receivers": [{"name": "r", "position_m": [2, 2, 2]}]})";
  }
  const ShellResult r = shell(kBin + " run --scene " + scene + " --backend cpu --steps 2 --csv " + (d / "r.csv"));
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("of host memory (two 32-bit grids) but"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the largest grid of this shape that fits is about"), std::string::npos) << r.output;
  // The same for a scene that fits the machine but not a smaller memory (the test hook).
  const ShellResult s = shell("WS_TEST_HOST_MEMORY_BYTES=10000000 " + kBin + " run --scene " + kShoebox +
                              " --backend cpu --steps 2 --csv " + (d / "s.csv"));
  EXPECT_EQ(s.status, 2) << s.output;
  EXPECT_NE(s.output.find("grid 92x108x75"), std::string::npos) << s.output;
  EXPECT_FALSE(fs::exists(d / "s.csv"));
}

// The solver fails mid-run (the test hook; on the CPU backend the CudaError a CUDA solver
// raises): exit 4, the error named, the CSV holds every step computed before it.
TEST(CliFaults, ASolverFaultMidRunWritesTheReceiversAndExitsFour) {
  TempDir d("cli_solver_fault");
  const std::string csv = d / "r.csv";
  const ShellResult r = shell("WS_TEST_SOLVER_FAULT=300 " + kBin + " run --scene " + kShoebox +
                              " --backend cpu --steps 1000 --quiet --csv " + csv);
  EXPECT_EQ(r.status, 4) << r.output;
  EXPECT_NE(r.output.find("failed at step 300: CUDA error cudaErrorInvalidConfiguration"), std::string::npos)
      << r.output;
  const auto rows = lines_of(read_file(csv));
  EXPECT_EQ(rows.size(), 301u);
}

}  // namespace
