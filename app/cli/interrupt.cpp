#include "cli/interrupt.hpp"

#include <signal.h>

#include <atomic>

namespace ws::cli {

namespace {

// Written by the handler, read by the command's thread: a lock-free atomic is
// safe in a signal handler, a plain bool is not.
std::atomic<int> g_signal{0};
static_assert(std::atomic<int>::is_always_lock_free);

struct sigaction g_old_int, g_old_term;

void on_signal(int sig) {
  int expected = 0;
  if (!g_signal.compare_exchange_strong(expected, sig)) {
    // The second signal: the user insists; die of it as without a handler.
    ::signal(sig, SIG_DFL);
    ::raise(sig);
  }
}

}  // namespace

InterruptScope::InterruptScope() {
  g_signal.store(0);
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;  // blocking calls go on; the flag is polled between chunks
  sigaction(SIGINT, &sa, &g_old_int);
  sigaction(SIGTERM, &sa, &g_old_term);
}

InterruptScope::~InterruptScope() {
  sigaction(SIGINT, &g_old_int, nullptr);
  sigaction(SIGTERM, &g_old_term, nullptr);
}

bool interrupted() { return g_signal.load() != 0; }
int interrupt_signal() { return g_signal.load(); }
int interrupted_exit_code() { return 128 + g_signal.load(); }
std::string interrupt_name() {
  const int s = g_signal.load();
  return s == SIGINT ? "SIGINT" : s == SIGTERM ? "SIGTERM" : "signal " + std::to_string(s);
}

}  // namespace ws::cli
