// The GUI with audio (issue 5), under Xvfb: WS_GUI_AUDIO=open opens the
// default output at start, as the panel's Open button does.
//  - With ALSA's null device as the default (a temporary HOME with an
//    .asoundrc), the stream plays, the solver is paced by the audio clock and
//    the run finishes normally.
//  - With no device at all, the picture runs at the fixed steps per frame and
//    the status says why there is no sound.
//  - With ALSA's configuration unreadable (PortAudio's ALSA scan asserts), the
//    same, and the terminal stays free of ALSA's and JACK's messages.
// (The null device consumes samples as fast as they come, so the pacer keeps
// asking for its cap; the test checks the wiring, not the timing.)
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

std::string run_gui_with_home(const std::string& home, int frames, int steps_per_frame, const std::string& env = "") {
  const std::string cmd = env + " HOME=" + home + " WS_GUI_AUDIO=open WS_GUI_FRAMES=" + std::to_string(frames) +
                          " WS_GUI_STEPS_PER_FRAME=" + std::to_string(steps_per_frame) +
                          " timeout -k 5 300 xvfb-run -a -s '-screen 0 1400x880x24' " + WS_WAVESCOPE_BIN +
                          " --scene " + WS_SOURCE_DIR + "/assets/scenes/shoebox.json 2>&1";
  std::string out;
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return "popen failed";
  char buf[512];
  while (fgets(buf, sizeof buf, f)) out += buf;
  out += "\n[exit status " + std::to_string(WEXITSTATUS(pclose(f))) + "]";
  return out;
}

struct TempHome {
  std::filesystem::path dir;
  explicit TempHome(const std::string& asoundrc) {
    dir = std::filesystem::temp_directory_path() / ("ws_gui_audio_" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    if (!asoundrc.empty()) std::ofstream(dir / ".asoundrc") << asoundrc;
  }
  ~TempHome() { std::filesystem::remove_all(dir); }
};

// ALSA's and JACK's own messages while PortAudio scans stay off the terminal.
void expect_no_audio_noise(const std::string& log) {
  EXPECT_EQ(log.find("ALSA lib "), std::string::npos) << log;
  EXPECT_EQ(log.find("jack server"), std::string::npos) << log;
  EXPECT_EQ(log.find("Cannot connect to server"), std::string::npos) << log;
}

long long final_step(const std::string& log) {
  const auto p = log.find("' at step ");
  return p == std::string::npos ? -1 : std::atoll(log.c_str() + p + 10);
}

TEST(GuiAudio, PacedRunWithTheNullDevice) {
  if (std::system("command -v xvfb-run > /dev/null 2>&1") != 0) GTEST_SKIP() << "xvfb-run is not installed";
  TempHome home("pcm.!default { type null }\n");
  const std::string log = run_gui_with_home(home.dir.string(), 12, 3);
  EXPECT_NE(log.find("[exit status 0]"), std::string::npos) << log;
  if (log.find("audio: playing") == std::string::npos)
    GTEST_SKIP() << "PortAudio could not open ALSA's null device here:\n" << log;
  EXPECT_NE(log.find("(open)"), std::string::npos) << "the stream should still play at exit:\n" << log;
  EXPECT_GT(final_step(log), 0) << log;
  std::cout << log << "\n";
}

TEST(GuiAudio, NoDeviceLeavesThePictureRunning) {
  if (std::system("command -v xvfb-run > /dev/null 2>&1") != 0) GTEST_SKIP() << "xvfb-run is not installed";
  // A default PCM that cannot open: a hw device that does not exist.
  TempHome home("pcm.!default { type hw card 99 }\n");
  const std::string log = run_gui_with_home(home.dir.string(), 8, 3);
  EXPECT_NE(log.find("[exit status 0]"), std::string::npos) << log;
  EXPECT_EQ(log.find("(open)"), std::string::npos) << log;
  // Not paced: the fixed 3 steps per frame.
  EXPECT_EQ(final_step(log), 24) << log;
  expect_no_audio_noise(log);
  std::cout << log << "\n";
}

// The GUI's abort on a machine without an ALSA configuration: PortAudio's
// ALSA scan asserts. The scan runs in a child process, so the picture runs
// and the audio status says why there is no sound.
TEST(GuiAudio, UnreadableAlsaConfigurationLeavesThePictureRunning) {
  if (std::system("command -v xvfb-run > /dev/null 2>&1") != 0) GTEST_SKIP() << "xvfb-run is not installed";
  TempHome home("");
  const std::string log = run_gui_with_home(home.dir.string(), 8, 3, "ALSA_CONFIG_PATH=/nonexistent/alsa.conf");
  EXPECT_NE(log.find("[exit status 0]"), std::string::npos) << log;
  EXPECT_EQ(final_step(log), 24) << log;
  EXPECT_NE(log.find("ALSA_CONFIG_PATH names /nonexistent/alsa.conf"), std::string::npos) << log;
  EXPECT_NE(log.find("runs silent"), std::string::npos) << log;
  expect_no_audio_noise(log);
  std::cout << log << "\n";
}

}  // namespace
