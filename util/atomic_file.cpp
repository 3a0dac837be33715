#include "atomic_file.hpp"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <fstream>

namespace ws::util {

namespace {

std::string folder_of(const std::string& p) {
  const auto k = p.find_last_of('/');
  if (k == std::string::npos) return ".";
  return k == 0 ? "/" : p.substr(0, k);
}

// The regular file a path names: symbolic links followed (a relative target
// is relative to the link's folder), so the rename replaces the file and
// keeps the link.
std::string follow_links(std::string p) {
  for (int hop = 0; hop < 40; ++hop) {
    char buf[PATH_MAX];
    const ssize_t n = ::readlink(p.c_str(), buf, sizeof buf - 1);
    if (n < 0) break;
    std::string target(buf, (size_t)n);
    p = target[0] == '/' ? target : folder_of(p) + "/" + target;
  }
  return p;
}

// O_EXCL on a name nobody else uses: `<target>.tmp-` and six characters from
// the time, the process and a counter. Mode 0666 so that the umask applies as
// for any new file.
int create_temp(const std::string& target, std::string& temp) {
  static std::atomic<unsigned> counter{0};
  static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  for (int attempt = 0; attempt < 64; ++attempt) {
    unsigned long long x = (unsigned long long)std::chrono::steady_clock::now().time_since_epoch().count();
    x ^= (unsigned long long)::getpid() << 32;
    x += 0x9e3779b97f4a7c15ull * (counter.fetch_add(1) + 1);
    x ^= x >> 31;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 29;
    std::string suffix(6, 'x');
    for (auto& c : suffix) {
      c = alphabet[x % 62];
      x /= 62;
    }
    temp = target + ".tmp-" + suffix;
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
  errno = EEXIST;
  return -1;
}

std::string quoted(const std::string& what, const std::string& path) { return "cannot write " + what + " '" + path + "'"; }

}  // namespace

std::string output_path_error(const std::string& path, const std::string& what) {
  if (path.empty()) return "cannot write " + what + ": the path is empty";
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return quoted(what, path) + ": it is a folder";
  if (exists && !S_ISREG(st.st_mode)) return "";  // a device or a FIFO: written in place
  const std::string target = follow_links(path);
  std::string temp;
  const int fd = create_temp(target, temp);
  if (fd < 0)
    return quoted(what, path) + ": cannot create a file in '" + folder_of(target) + "': " + std::strerror(errno);
  ::close(fd);
  ::unlink(temp.c_str());
  return "";
}

void write_atomically_via_path(const std::string& path, const std::string& what,
                               const std::function<void(const std::string&)>& fill) {
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) throw AtomicWriteError(path, quoted(what, path) + ": it is a folder");
  if (exists && !S_ISREG(st.st_mode)) {  // a device or a FIFO: nothing to rename over
    fill(path);
    return;
  }
  const std::string target = follow_links(path);
  std::string temp;
  const int fd = create_temp(target, temp);
  if (fd < 0)
    throw AtomicWriteError(path, quoted(what, path) + ": cannot create a file in '" + folder_of(target) +
                                     "': " + std::strerror(errno));
  // A replaced file keeps its permissions.
  if (exists) (void)::fchmod(fd, st.st_mode & 07777);
  ::close(fd);
  try {
    fill(temp);
    const int sync_fd = ::open(temp.c_str(), O_WRONLY | O_CLOEXEC);
    if (sync_fd < 0) throw AtomicWriteError(path, quoted(what, path) + ": " + std::strerror(errno));
    // Delayed allocation reports a full disk only here, and the rename must
    // not reach the disk before the data does.
    const int sync_rc = ::fsync(sync_fd);
    const int sync_errno = errno;
    const int close_rc = ::close(sync_fd);
    if (sync_rc != 0 || close_rc != 0)
      throw AtomicWriteError(path, quoted(what, path) + ": " + std::strerror(sync_rc != 0 ? sync_errno : errno));
    if (::rename(temp.c_str(), target.c_str()) != 0)
      throw AtomicWriteError(path, quoted(what, path) + ": " + std::strerror(errno));
  } catch (...) {
    ::unlink(temp.c_str());
    throw;
  }
  // The rename itself is durable once the folder is synced; a folder that
  // cannot be opened or synced leaves a complete file all the same.
  const int dir_fd = ::open(folder_of(target).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    (void)::fsync(dir_fd);
    ::close(dir_fd);
  }
}

void write_atomically(const std::string& path, const std::string& what, const std::function<void(std::ostream&)>& fill) {
  write_atomically_via_path(path, what, [&](const std::string& file) {
    errno = 0;
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    if (!out) throw AtomicWriteError(path, quoted(what, path) + ": " + std::strerror(errno ? errno : EIO));
    errno = 0;
    fill(out);
    out.flush();
    // errno is the failing write's (ENOSPC, EFBIG, EIO); a stream error
    // without a failed system call leaves it 0.
    if (!out) throw AtomicWriteError(path, quoted(what, path) + ": " + std::strerror(errno ? errno : EIO));
    out.close();
    if (out.fail()) throw AtomicWriteError(path, quoted(what, path) + ": " + std::strerror(errno ? errno : EIO));
  });
}

}  // namespace ws::util
