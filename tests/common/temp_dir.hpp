#pragma once
// A fresh directory under /tmp for one test (mkdtemp: unique even when tests run side by
// side), removed with everything in it when the test ends.
#include <stdlib.h>

#include <filesystem>
#include <string>

namespace ws::testing {

struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& prefix = "ws-test") {
    std::string tmpl = "/tmp/" + prefix + "-XXXXXX";
    path = mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

}  // namespace ws::testing
