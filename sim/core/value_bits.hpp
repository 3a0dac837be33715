#pragma once
// A float's or double's bit pattern, as a key: tables that share equal coefficients must
// tell +0 from -0 (the kernels' results differ in the sign of a zero) and must not
// compare a NaN, which breaks the ordering std::map relies on.
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace ws {

template <class T>
uint64_t value_bits(T v) {
  static_assert(std::is_floating_point<T>::value && (sizeof(T) == 4 || sizeof(T) == 8), "float or double");
  if constexpr (sizeof(T) == 4) {
    uint32_t u = 0;
    std::memcpy(&u, &v, sizeof u);
    return u;
  } else {
    uint64_t u = 0;
    std::memcpy(&u, &v, sizeof u);
    return u;
  }
}

}  // namespace ws
