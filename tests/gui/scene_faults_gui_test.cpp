// The scene loader under faults, in the real window under Xvfb: a scene file
// removed since it was chosen, one cut short (corrupted), and one whose mesh
// is missing. Each time the loader names the file, the running scene goes on
// and the window stays up (docs/reliability.md, "Faults").
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

std::string scene(const char* name) { return std::string(WS_SOURCE_DIR) + "/assets/scenes/" + name; }

std::string run_gui_loading(const std::string& load) {
  const std::string cmd = "WS_GUI_FRAMES=6 WS_GUI_STEPS_PER_FRAME=2 WS_GUI_LOAD=" + load +
                          " timeout -k 5 300 xvfb-run -a -s '-screen 0 1400x880x24' " + WS_WAVESCOPE_BIN +
                          " --scene " + scene("shoebox.json") + " 2>&1";
  std::string out;
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return "popen failed";
  char buf[512];
  while (fgets(buf, sizeof buf, f)) out += buf;
  out += "\n[exit status " + std::to_string(WEXITSTATUS(pclose(f))) + "]";
  return out;
}

void expect_refused_and_running(const std::string& log, const std::string& path, const std::string& why) {
  EXPECT_NE(log.find("[exit status 0]"), std::string::npos) << log;
  EXPECT_NE(log.find("could not load '" + path + "'"), std::string::npos) << log;
  EXPECT_NE(log.find(why), std::string::npos) << log;
  EXPECT_NE(log.find("(the previous scene keeps running)"), std::string::npos) << log;
  EXPECT_NE(log.find("scene 'shoebox room' at step 12 (model wave3d)"), std::string::npos) << log;
}

TEST(GuiSceneFaults, RemovedCorruptedOrMeshlessSceneKeepsTheRunningOne) {
  if (std::system("command -v xvfb-run > /dev/null 2>&1") != 0) GTEST_SKIP() << "xvfb-run is not installed";
  const fs::path dir = fs::temp_directory_path() / ("ws_gui_scene_faults_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);

  const std::string removed = (dir / "removed.json").string();
  std::ofstream(removed) << "{}";
  fs::remove(removed);
  expect_refused_and_running(run_gui_loading(removed), removed, "cannot open scene file");

  std::ifstream in(scene("shoebox.json"));
  std::stringstream full;
  full << in.rdbuf();
  const std::string cut = (dir / "cut.json").string();
  std::ofstream(cut) << full.str().substr(0, full.str().size() / 2);
  expect_refused_and_running(run_gui_loading(cut), cut, "is not valid JSON");

  const std::string meshless = (dir / "meshless.json").string();
  std::ofstream(meshless) << R"({"room_m": [3, 3, 3], "sample_rate_hz": 4000,
    "obstacles": [{"type": "mesh", "file": "chair_gone.obj"}],
    "sources": [{"position_m": [0.5, 0.5, 0.5]}], "receivers": [{"name": "r", "position_m": [2.5, 2.5, 2.5]}]})";
  expect_refused_and_running(run_gui_loading(meshless), meshless, "chair_gone.obj' does not exist");
  fs::remove_all(dir);
}

}  // namespace
