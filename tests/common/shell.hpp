#pragma once
// A command run through the shell, its standard output and error captured together:
// for the tests that start the wavescope binary (the CLI, the GUI under Xvfb).
#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace ws::test {

struct ShellResult {
  int status = -1;  // exit status; 128 + n when killed by signal n
  std::string output;
};

inline ShellResult shell(const std::string& cmd) {
  ShellResult r;
  FILE* f = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!f) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) r.output.append(buf, n);
  const int st = ::pclose(f);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : -1;
  return r;
}

}  // namespace ws::test
