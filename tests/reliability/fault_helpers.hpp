#pragma once
// Helpers for the fault tests: temporary folders, a child process for faults
// that must not touch the test runner (a file-size limit standing in for a
// full disk, dropped privileges for a read-only folder), and the wavescope
// binary run through a shell.
#include <grp.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <poll.h>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "common/shell.hpp"
#include <string>
#include <vector>

namespace ws::test {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name) {
    path = fs::temp_directory_path() / ("ws_" + name + "_" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
    fs::permissions(path, fs::perms::all);  // nobody (a dropped-privilege child) may write here unless a test says no
  }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path, ec);
  }
  std::string operator/(const std::string& name) const { return (path / name).string(); }
};

inline std::string read_file(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Names in `dir` that look like a temporary file of an atomic write.
inline std::vector<std::string> temp_leftovers(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().find(".tmp-") != std::string::npos) out.push_back(e.path().string());
  return out;
}

struct ChildResult {
  int exit_code = -1;   // -1: killed by a signal
  std::string message;  // what the child wrote to its pipe
};

// Runs fn in a forked child; fn returns the exit code and may fill `message`.
inline ChildResult in_child(const std::function<int(std::string& message)>& fn) {
  int p[2];
  if (::pipe(p) != 0) return {};
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(p[0]);
    std::string msg;
    int code = 99;
    try {
      code = fn(msg);
    } catch (const std::exception& e) {
      msg = std::string("uncaught: ") + e.what();
    }
    (void)!::write(p[1], msg.data(), msg.size());
    ::_exit(code);
  }
  ::close(p[1]);
  ChildResult r;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(p[0], buf, sizeof buf)) > 0) r.message.append(buf, (size_t)n);
  ::close(p[0]);
  int st = 0;
  ::waitpid(pid, &st, 0);
  r.exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

// A full disk, as far as one process can tell: files may not grow past
// `bytes` (writes fail with EFBIG; SIGXFSZ is ignored so they fail rather
// than kill). For use inside in_child only.
inline void limit_file_size(rlim_t bytes) {
  ::signal(SIGXFSZ, SIG_IGN);
  rlimit r{bytes, bytes};
  ::setrlimit(RLIMIT_FSIZE, &r);
}

// Drops root to nobody so that folder permissions apply (root ignores them).
// For use inside in_child only; false when it could not.
inline bool drop_to_nobody() {
  if (::geteuid() != 0) return true;
  return ::setgroups(0, nullptr) == 0 && ::setgid(65534) == 0 && ::setuid(65534) == 0;
}

// The command prefix that does the same for a shell command.
inline std::string unprivileged_prefix() {
  return ::geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
}

// Starts argv (stdout and stderr into one pipe), waits until its output
// contains `wait_for` `times` times and `after_s` seconds have passed (or the
// process ends, or wait_s passes), sends `sig`, and collects the rest.
// status: exit status, 128 + n when killed by signal n.
struct SignalledRun {
  bool signalled = false;  // the text appeared and the signal was sent
  int status = -1;
  std::string output;
};

inline size_t count_of(const std::string& text, const std::string& what) {
  if (what.empty()) return 1;
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

inline SignalledRun run_and_signal(const std::vector<std::string>& argv, const std::string& wait_for, int sig,
                                   double wait_s = 120.0, size_t times = 1, double after_s = 0.0) {
  SignalledRun r;
  int p[2];
  if (::pipe(p) != 0) return r;
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(p[1], 1);
    ::dup2(p[1], 2);
    ::close(p[0]);
    ::close(p[1]);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  ::close(p[1]);
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::duration<double>(wait_s);
  char buf[4096];
  for (;;) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!r.signalled && count_of(r.output, wait_for) >= times && elapsed >= after_s) {
      ::kill(pid, sig);
      r.signalled = true;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      ::kill(pid, SIGKILL);
      break;
    }
    pollfd pf{p[0], POLLIN, 0};
    if (::poll(&pf, 1, (int)std::min<long long>(left.count(), r.signalled ? left.count() : 100)) <= 0) continue;
    const ssize_t n = ::read(p[0], buf, sizeof buf);
    if (n <= 0) break;
    r.output.append(buf, (size_t)n);
  }
  ::close(p[0]);
  int st = 0;
  ::waitpid(pid, &st, 0);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
  return r;
}

}  // namespace ws::test
