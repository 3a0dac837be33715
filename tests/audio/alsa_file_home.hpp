#pragma once
// A temporary HOME whose .asoundrc makes ALSA's default PCM the file plugin
// over the null device, so PortAudio plays "to a file" on a machine with no
// sound card. Must be installed before PortAudio initialises (ALSA reads its
// configuration once per process), hence one per test process.
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace ws::audio::test {

struct AlsaFileHome {
  std::filesystem::path home, output;
  // with_device false: an empty HOME, so ALSA has no default device at all here.
  explicit AlsaFileHome(bool with_device) {
    home = std::filesystem::temp_directory_path() / ("ws_alsa_home_" + std::to_string(::getpid()));
    std::filesystem::remove_all(home);
    std::filesystem::create_directories(home);
    output = home / "out.raw";
    if (with_device)
      std::ofstream(home / ".asoundrc") << "pcm.!default { type file slave.pcm \"null\" file \"" << output.string()
                                       << "\" format \"raw\" }\n";
    setenv("HOME", home.c_str(), 1);
    unsetenv("ALSA_CONFIG_PATH");
  }
  ~AlsaFileHome() { std::filesystem::remove_all(home); }

  // The raw file holds what the device got: 32-bit float frames (PortAudio
  // opens the stream as paFloat32 and the null slave accepts it as is).
  std::vector<float> read_output() const {
    std::ifstream in(output, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), {});
    std::vector<float> x(bytes.size() / sizeof(float));
    std::memcpy(x.data(), bytes.data(), x.size() * sizeof(float));
    return x;
  }
};

}  // namespace ws::audio::test
