#pragma once
// A grid that does not fit the memory it would run in (host or GPU): bad input for
// this machine, refused before allocating, with the size that fits in the message
// (cpu/host_memory.hpp, cuda/device_info.hpp). `run` exits 2 on it; a live switch
// that meets it keeps the running simulation.
#include <stdexcept>

namespace ws {

class GridTooLargeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ws
