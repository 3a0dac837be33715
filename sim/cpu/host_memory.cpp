#include "cpu/host_memory.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace ws {

namespace {

// The value of `key` in a /proc file of "Key:   123 kB" lines, in bytes (-1 when absent).
double proc_kb(const char* file, const std::string& key) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(key + ":", 0) == 0) {
      std::istringstream ss(line.substr(key.size() + 1));
      double kb = -1.0;
      ss >> kb;
      return kb < 0 ? -1.0 : kb * 1024.0;
    }
  return -1.0;
}

// One number from a cgroup file ("max" and unreadable files: -1).
double cgroup_value(const std::string& file) {
  std::ifstream in(file);
  std::string v;
  if (!(in >> v) || v == "max") return -1.0;
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  return end && *end == '\0' ? x : -1.0;
}

// The cgroup v2 path of this process ("0::/path").
std::string own_cgroup() {
  std::ifstream in("/proc/self/cgroup");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("0::", 0) == 0) return line.substr(3);
  return "";
}

std::string gib(double bytes) {
  std::ostringstream os;
  os.precision(bytes < 10.0 * (1 << 30) ? 2 : 3);
  os << bytes / (1 << 30) << " GiB";
  return os.str();
}

}  // namespace

HostMemory available_host_memory() {
  HostMemory m;
  m.available_bytes = -1.0;
  auto take = [&](double bytes, const char* what) {
    if (bytes < 0.0) return;
    if (m.available_bytes < 0.0 || bytes < m.available_bytes) {
      m.available_bytes = bytes;
      m.limited_by = what;
    }
  };
  take(proc_kb("/proc/meminfo", "MemAvailable"), "MemAvailable");
  rlimit as{};
  if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY) {
    const double mapped = std::max(0.0, proc_kb("/proc/self/status", "VmSize"));
    take(std::max(0.0, (double)as.rlim_cur - mapped), "RLIMIT_AS");
  }
  const std::string cg = own_cgroup();
  if (!cg.empty()) {
    const std::string dir = "/sys/fs/cgroup" + (cg == "/" ? std::string() : cg);
    const double max = cgroup_value(dir + "/memory.max"), used = cgroup_value(dir + "/memory.current");
    if (max >= 0.0) take(std::max(0.0, max - std::max(0.0, used)), "cgroup memory.max");
  }
  if (m.available_bytes < 0.0) m.available_bytes = 0.0;
  return m;
}

void check_host_grid_fits(long long nx, long long ny, long long nz, size_t total_elements, int elem_bytes,
                          double extra_bytes) {
  HostMemory mem;
  if (const char* test = std::getenv("WS_TEST_HOST_MEMORY_BYTES")) {
    mem.available_bytes = std::strtod(test, nullptr);
    mem.limited_by = "WS_TEST_HOST_MEMORY_BYTES";
  } else {
    mem = available_host_memory();
    if (mem.limited_by.empty()) return;  // nothing readable: the allocation itself will report
  }
  const double grids = 2.0 * (double)total_elements * elem_bytes;
  const double need = grids + extra_bytes;
  const double budget = 0.9 * mem.available_bytes - 64.0 * 1024 * 1024;  // receivers, the GUI, the OS
  if (need <= budget) return;
  // Same aspect ratio, scaled down: the padded arrays (and the copies) grow like the interior.
  const double scale = budget > 0.0 ? std::cbrt(budget / need) : 0.0;
  std::ostringstream os;
  os << "grid " << nx << "x" << ny << "x" << nz << " (" << (double)nx * ny * nz << " points) needs " << gib(need)
     << " of host memory (two " << elem_bytes * 8 << "-bit grids"
     << (extra_bytes > 0.0 ? ", and " + gib(extra_bytes) + " for copying the field across the switch" : std::string())
     << ") but " << gib(std::max(0.0, budget)) << " are available (" << mem.limited_by << " "
     << gib(mem.available_bytes) << ", less 10% and 64 MiB of headroom); the largest grid of this shape that fits is "
     << "about " << (long long)(nx * scale) << "x" << (long long)(ny * scale) << "x" << (long long)(nz * scale)
     << " points (lower the sample rate or shrink the room" << (elem_bytes > 4 ? ", or use float)" : ")");
  throw GridTooLargeError(os.str());
}

}  // namespace ws
