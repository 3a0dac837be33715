#pragma once
// Output files are written all or nothing. The content goes to a temporary
// file `<path>.tmp-XXXXXX` in the same folder (the same file system, so the
// rename is atomic), is flushed to the disk with fsync and then renamed over
// `path`. A failure at any point (no permission, disk full, a writer's own
// error) removes the temporary file and throws AtomicWriteError naming the
// path; `path` then still holds what it held before, or does not exist. So a
// failed or interrupted write never leaves a truncated result behind.
//
// A `path` that exists and is not a regular file (/dev/stdout, a FIFO) cannot
// be replaced by a rename; it is written in place. A symbolic link is
// followed, so the file it points to is replaced and the link stays.
#include <functional>
#include <ostream>
#include <stdexcept>
#include <string>

namespace ws::util {

class AtomicWriteError : public std::runtime_error {
 public:
  AtomicWriteError(const std::string& path, const std::string& message)
      : std::runtime_error(message), path_(path) {}
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// `what` names the kind of file in the message, e.g. "CSV file": "cannot
// write CSV file 'out/r.csv': No space left on device".
// The stream form: `fill` writes into a stream on the temporary file; its
// failbit, a failed flush or close count as a failure.
void write_atomically(const std::string& path, const std::string& what, const std::function<void(std::ostream&)>& fill);

// The path form, for libraries that open files by name (libsndfile, libpng
// through fopen): `fill` writes the temporary file at the path it is given
// (it exists and is empty) and throws on its own errors; the message of what
// it throws is kept.
void write_atomically_via_path(const std::string& path, const std::string& what,
                               const std::function<void(const std::string& temp_path)>& fill);

// "" when a file could be written at `path` now, else the message a write would give,
// naming the path ("cannot write CSV file 'out/r.csv': cannot create a file in 'out': No
// such file or directory", "...: it is a folder"). It creates a temporary file where the
// write would and removes it again. Commands check their outputs with it before they
// compute, so that a mistyped folder costs nothing; the write itself may still fail later
// (a full disk) and then says so as above.
std::string output_path_error(const std::string& path, const std::string& what);

}  // namespace ws::util
