#include "playback/device_probe.hpp"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <portaudio.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ws::audio {

namespace {

void write_all(int fd, const char* p, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    p += w;
    n -= (size_t)w;
  }
}

// The line to quote from a dead child's stderr: an assertion's text when there
// is one (without glibc's "program: " prefix), else the last non-empty line.
std::string telling_line(const std::string& text) {
  std::string last, assertion;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty()) {
      last = line;
      if (line.find("Assertion") != std::string::npos) assertion = line;
    }
    start = end + 1;
  }
  std::string pick = assertion.empty() ? last : assertion;
  const std::string prefix = std::string(program_invocation_short_name) + ": ";
  if (pick.compare(0, prefix.size(), prefix) == 0) pick.erase(0, prefix.size());
  return pick;
}

}  // namespace

ChildOutcome run_in_child(const std::function<void(int)>& fn, double timeout_s) {
  ChildOutcome r;
  int rep[2], err[2];
  if (::pipe2(rep, O_CLOEXEC) != 0) {
    r.reason = std::string("cannot create a pipe: ") + std::strerror(errno);
    return r;
  }
  if (::pipe2(err, O_CLOEXEC) != 0) {
    r.reason = std::string("cannot create a pipe: ") + std::strerror(errno);
    ::close(rep[0]);
    ::close(rep[1]);
    return r;
  }
  std::fflush(nullptr);  // nothing buffered in the parent is written twice
  const pid_t pid = ::fork();
  if (pid < 0) {
    r.reason = std::string("cannot fork: ") + std::strerror(errno);
    for (int fd : {rep[0], rep[1], err[0], err[1]}) ::close(fd);
    return r;
  }
  if (pid == 0) {
    ::close(rep[0]);
    ::close(err[0]);
    ::dup2(err[1], STDERR_FILENO);
    ::signal(SIGPIPE, SIG_IGN);
    const rlimit no_core{0, 0};  // a crash here is expected and reported; it leaves no core file
    ::setrlimit(RLIMIT_CORE, &no_core);
    fn(rep[1]);
    ::_exit(0);
  }
  ::close(rep[1]);
  ::close(err[1]);
  std::string err_text;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  pollfd fds[2] = {{rep[0], POLLIN, 0}, {err[0], POLLIN, 0}};
  int open_fds = 2;
  bool timed_out = false;
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    const int n = ::poll(fds, 2, (int)left.count());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    for (auto& p : fds) {
      if (p.fd < 0 || !(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[4096];
      const ssize_t got = ::read(p.fd, buf, sizeof buf);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        ::close(p.fd);
        p.fd = -1;
        --open_fds;
        continue;
      }
      std::string& into = p.fd == rep[0] ? r.report : err_text;
      into.append(buf, (size_t)got);
      if (into.size() > (1u << 16)) into.erase(0, into.size() - (1u << 15));  // the tail is what tells
    }
  }
  for (auto& p : fds)
    if (p.fd >= 0) ::close(p.fd);
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  pid_t w;
  while ((w = ::waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  r.stderr_tail = telling_line(err_text);
  if (timed_out) {
    r.reason = "did not finish within " + std::to_string((int)timeout_s) + " s";
  } else if (w < 0) {
    r.reason = std::string("cannot wait for the child: ") + std::strerror(errno);
  } else if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    r.reason = std::string("died of signal ") + std::to_string(sig) + " (" + strsignal(sig) + ")";
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    r.reason = "exited with status " + std::to_string(WEXITSTATUS(status));
  } else {
    r.clean = true;
  }
  if (!r.clean && !r.stderr_tail.empty()) r.reason += ": " + r.stderr_tail;
  return r;
}

std::string alsa_config_problem() {
  const char* p = std::getenv("ALSA_CONFIG_PATH");
  if (!p || !*p) return "";
  std::string missing, list = p;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(':', start);
    if (end == std::string::npos) end = list.size();
    const std::string file = list.substr(start, end - start);
    if (!file.empty() && ::access(file.c_str(), R_OK) != 0) missing += (missing.empty() ? "" : ", ") + file;
    start = end + 1;
  }
  return missing.empty() ? "" : "ALSA's configuration cannot be read (ALSA_CONFIG_PATH names " + missing + ")";
}

PortAudioProbe probe_portaudio(double timeout_s) {
  const ChildOutcome c = run_in_child(
      [](int fd) {
        if (Pa_Initialize() != paNoError) {  // a clean failure: the parent gets the same error itself
          write_all(fd, "init-failed\n", 12);
          return;
        }
        const int n = Pa_GetDeviceCount();
        for (int i = 0; i < n; ++i) (void)Pa_GetDeviceInfo(i);
        (void)Pa_GetDefaultOutputDevice();
        Pa_Terminate();
        write_all(fd, "ok\n", 3);
      },
      timeout_s);
  PortAudioProbe p;
  if (c.clean && !c.report.empty()) {
    p.usable = true;
    return p;
  }
  p.reason = "audio disabled: PortAudio's device scan " + (c.clean ? std::string("ended without a result") : c.reason) +
             " (it ran in a separate process, so only sound is lost)";
  if (const std::string alsa = alsa_config_problem(); !alsa.empty()) p.reason += "; " + alsa;
  return p;
}

QuietStderr::QuietStderr() {
  if (const char* d = std::getenv("WS_AUDIO_DEBUG"); d && *d && std::string(d) != "0") return;
  const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null_fd < 0) return;
  std::fflush(stderr);
  saved_ = ::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
  if (saved_ >= 0) ::dup2(null_fd, STDERR_FILENO);
  ::close(null_fd);
}

QuietStderr::~QuietStderr() {
  if (saved_ < 0) return;
  std::fflush(stderr);
  ::dup2(saved_, STDERR_FILENO);
  ::close(saved_);
}

}  // namespace ws::audio
