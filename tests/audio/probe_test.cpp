// PortAudio can abort the process while it scans devices (ALSA's
// BuildDeviceList asserts when ALSA's configuration cannot be read). The scan
// runs in a child first, so the app survives and says why there is no sound.
// The PortAudio cases run in a subprocess of the test (a death test that
// expects a normal exit): were the abort to reach the session, that
// subprocess would die of SIGABRT and the test fail, the runner unharmed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "playback/audio_session.hpp"
#include "playback/device_probe.hpp"

using namespace ws::audio;

namespace {

class ThreadsafeDeathTests : public ::testing::Environment {
 public:
  // A fresh process per death test (fork + exec), so ALSA's configuration is
  // read anew under the environment the test sets.
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};
const auto* const kEnv = ::testing::AddGlobalTestEnvironment(new ThreadsafeDeathTests);

}  // namespace

TEST(ChildProbe, AnAbortIsReportedWithTheAssertionText) {
  const ChildOutcome c = run_in_child(
      [](int) {
        std::fprintf(stderr, "some noise\nprog: x.c:12: f: Assertion `a < b' failed.\n");
        std::abort();
      },
      10.0);
  EXPECT_FALSE(c.clean);
  EXPECT_NE(c.reason.find("signal 6"), std::string::npos) << c.reason;
  EXPECT_NE(c.reason.find("Assertion `a < b' failed"), std::string::npos) << c.reason;
}

TEST(ChildProbe, ASegfaultIsReported) {
  const ChildOutcome c = run_in_child([](int) { std::raise(SIGSEGV); }, 10.0);
  EXPECT_FALSE(c.clean);
  // AddressSanitizer (scripts/test --sanitize) turns the signal into its report and exit status 1.
  EXPECT_TRUE(c.reason.find("signal 11") != std::string::npos || c.reason.find("exited with status") != std::string::npos)
      << c.reason;
}

TEST(ChildProbe, AHangIsKilledAtTheTimeout) {
  const ChildOutcome c = run_in_child([](int) { ::sleep(60); }, 0.5);
  EXPECT_FALSE(c.clean);
  EXPECT_NE(c.reason.find("did not finish"), std::string::npos) << c.reason;
}

TEST(ChildProbe, ACleanRunBringsItsReport) {
  const ChildOutcome c = run_in_child([](int fd) { (void)!::write(fd, "ok\n", 3); }, 10.0);
  EXPECT_TRUE(c.clean) << c.reason;
  EXPECT_EQ(c.report, "ok\n");
}

// The reproduction of the GUI's abort: ALSA_CONFIG_PATH naming a missing file.
TEST(PortAudioProbe, UnreadableAlsaConfigurationLeavesTheProcessAlive) {
  EXPECT_EXIT(
      {
        setenv("ALSA_CONFIG_PATH", "/nonexistent/alsa.conf", 1);
        AudioSession s;
        const bool opened = s.open(AudioSettings{});
        s.rescan_devices();  // the probe again: still alive
        std::cerr << "status: " << s.status() << "\n";
        const bool says_why = s.status().find("/nonexistent/alsa.conf") != std::string::npos &&
                              s.status().find("runs silent") != std::string::npos;
        std::_Exit(!opened && s.devices().empty() && says_why ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "ALSA_CONFIG_PATH names /nonexistent/alsa.conf");
}

// The terminal stays clean: ALSA's and JACK's messages during the scan do not
// reach stderr.
TEST(PortAudioProbe, TheDeviceScanPrintsNothing) {
  EXPECT_EXIT(
      {
        unsetenv("WS_AUDIO_DEBUG");
        AudioSession s;
        s.rescan_devices();
        std::_Exit(0);
      },
      ::testing::ExitedWithCode(0), "^$");
}
