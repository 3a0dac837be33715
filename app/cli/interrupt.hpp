#pragma once
// SIGINT (Ctrl-C) and SIGTERM during a long command (`run`, `render`, the
// benchmarks): the handler only records the signal; the command checks
// `interrupted()` between chunks of work, writes what it has computed and
// exits with 128 + the signal number (130 for SIGINT, 143 for SIGTERM), as a
// shell reports a process killed by that signal. A second signal while the
// command is finishing ends the process at once (the default action).
#include <algorithm>
#include <string>

namespace ws::cli {

// Installs the handlers for its lifetime; the previous ones come back after.
class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;
};

bool interrupted();
int interrupt_signal();       // 0 when none arrived
int interrupted_exit_code();  // 128 + the signal
std::string interrupt_name(); // "SIGINT", "SIGTERM"

// Advances a model (anything with advance(int)) by `steps` in chunks of at
// most 256, so that a signal is noticed within a chunk's time.
template <class Model>
void advance_until_interrupted(Model& model, long long steps) {
  while (steps > 0 && !interrupted()) {
    const int chunk = (int)std::min<long long>(steps, 256);
    model.advance(chunk);
    steps -= chunk;
  }
}

}  // namespace ws::cli
