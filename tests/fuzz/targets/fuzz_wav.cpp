// libFuzzer: a WAV file as the audio panel's dry-signal loader reads it
// (read_wav takes a path: the input goes into an in-memory file named through
// /proc/self/fd), then the mix to mono it is played as, and the same file as a
// scene's source signal (mono, resampled to a simulation rate). Refusals are
// WavError; anything else that escapes, a crash, a leak or undefined
// behaviour is a finding. libsndfile itself is the system's, not instrumented.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "source/sampled_sources.hpp"
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
    // As a scene's source plays it: converted to a simulation rate chosen from the input
    // (a pass-through, or libsamplerate at some ratio), read in windows like the solvers.
    if (clip.frames() <= 48000 && size > 0) {
      static const double rates[] = {8000.0, 16000.0, 44100.0, (double)clip.sample_rate_hz, 100000.0};
      ws::audio::WavSampleStream s(path, rates[data[size - 1] % 5]);
      float window[4097];
      for (long long first = -1; first < s.length() + 10 && first < 20000; first += 4096) s.read(first, 4097, window);
    }
  } catch (const ws::audio::WavError&) {
  }
  return 0;
}
