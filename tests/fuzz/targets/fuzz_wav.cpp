// libFuzzer: a WAV file as the audio panel's dry-signal loader reads it
// (read_wav takes a path: the input goes into an in-memory file named through
// /proc/self/fd), then the mix to mono it is played as. Refusals are
// WavError; anything else that escapes, a crash, a leak or undefined
// behaviour is a finding. libsndfile itself is the system's, not instrumented.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "wavio/wav_file.hpp"

namespace {
int memory_file() {
  static const int fd = [] {
    const int f = memfd_create("fuzz.wav", MFD_CLOEXEC);
    if (f < 0) std::abort();
    return f;
  }();
  return fd;
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const int fd = memory_file();
  if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size) std::abort();
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  try {
    ws::audio::WavLimits lim;
    lim.max_duration_s = 5.0;  // the fuzzer's inputs are small; keep a hostile header's promise small too
    const ws::audio::AudioClip clip = ws::audio::read_wav(path, lim);
    (void)ws::audio::mix_to_mono(clip);
  } catch (const ws::audio::WavError&) {
  }
  return 0;
}
