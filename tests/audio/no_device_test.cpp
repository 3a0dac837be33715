// With no audio device at all the session says so and everything else works:
// pushes record, pacing does not hold the simulation back, exports succeed.
#include <gtest/gtest.h>

#include <filesystem>

#include "alsa_file_home.hpp"
#include "playback/audio_session.hpp"

using namespace ws::audio;

TEST(NoAudioDevice, SessionReportsItAndTheSimulationGoesOn) {
  test::AlsaFileHome home(false);
  AudioSession s;
  if (!s.devices().empty())
    GTEST_SKIP() << "this machine has a real audio device (" << s.devices()[0].name
                 << "); the no-device case cannot be produced here";
  EXPECT_NE(s.status().find("no audio output device"), std::string::npos) << s.status();
  EXPECT_FALSE(s.open(AudioSettings{}));
  EXPECT_FALSE(s.is_open());
  EXPECT_NE(s.status().find("no audio output device"), std::string::npos) << s.status();
  s.rescan_devices();  // restarts PortAudio: still nothing, still no exception
  EXPECT_TRUE(s.devices().empty());
  EXPECT_EQ(s.steps_for_frame(1.0 / 60, 500), 500);  // no pacing without a clock to pace to
  std::vector<std::vector<double>> h(1, std::vector<double>(4800, 0.25));
  s.push_history(h, 48000.0);
  s.update();
  EXPECT_EQ(s.recording()[0].size(), 4800u);
  const auto out = home.home / "rec.wav";
  EXPECT_TRUE(s.export_recording(out.string(), {})) << s.message();
  EXPECT_TRUE(std::filesystem::exists(out));
}
