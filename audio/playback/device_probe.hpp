#pragma once
// Guards around PortAudio's start-up, so that audio can never take the
// picture down and never litters the terminal.
//
// PortAudio's host APIs assert on environments they did not expect: with an
// unreadable ALSA configuration (ALSA_CONFIG_PATH naming a missing file, a
// minimal container) ALSA's BuildDeviceList fails `devIdx < numDeviceNames`
// and calls abort() inside Pa_Initialize. An assertion cannot be caught, and
// checking ALSA's preconditions ourselves covers only the failures we know
// of; initialising lazily only moves the abort to the Open button. So the
// device scan runs first in a forked child (run_in_child): only when the child
// came back cleanly does the process initialise PortAudio itself, in the same
// environment and therefore with the same outcome. The cost is one fork and
// one scan (a few hundred milliseconds) at start and on every rescan.
#include <functional>
#include <string>

namespace ws::audio {

struct ChildOutcome {
  bool clean = false;  // the child returned from its function and exited 0
  std::string reason;  // when not clean: what happened, one line
  std::string report;  // what the function wrote to its report descriptor
  std::string stderr_tail;  // the child's last stderr line (an assertion's text)
};

// Runs fn in a forked child with its stderr captured; fn may write a short
// report to the descriptor it is given. The child ends with _exit (no atexit
// handlers, no stdio flush of the parent's buffers). A child still running
// after timeout_s is killed. The caller's process is not touched by whatever
// fn does: an abort, a segfault or a hang shows in the outcome only.
ChildOutcome run_in_child(const std::function<void(int report_fd)>& fn, double timeout_s);

struct PortAudioProbe {
  bool usable = false;  // Pa_Initialize, the device list and Pa_Terminate came back in the child
  std::string reason;   // when not usable: why, for the audio panel
};
// Pa_Initialize, the device list and Pa_Terminate in a child (run_in_child).
PortAudioProbe probe_portaudio(double timeout_s = 10.0);

// The files named by ALSA_CONFIG_PATH that cannot be read, as a sentence for
// the panel; empty when the variable is unset or all of them can be read.
std::string alsa_config_problem();

// Points stderr (descriptor 2) at /dev/null while it lives: ALSA and JACK
// print a page of messages while PortAudio scans for devices (no sound card,
// no JACK server), and the audio panel already says what exists.
// WS_AUDIO_DEBUG=1 in the environment keeps stderr as it is.
class QuietStderr {
 public:
  QuietStderr();
  ~QuietStderr();
  QuietStderr(const QuietStderr&) = delete;
  QuietStderr& operator=(const QuietStderr&) = delete;

 private:
  int saved_ = -1;
};

}  // namespace ws::audio
