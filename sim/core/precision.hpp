#pragma once
#include <stdexcept>
#include <string>

namespace ws {

enum class Precision { Float, Double };

inline const char* to_string(Precision p) { return p == Precision::Float ? "float" : "double"; }

inline Precision parse_precision(const std::string& s) {
  if (s == "float" || s == "single" || s == "fp32") return Precision::Float;
  if (s == "double" || s == "fp64") return Precision::Double;
  throw std::invalid_argument("precision '" + s + "' is not supported; allowed: float, double");
}

inline int bytes_of(Precision p) { return p == Precision::Float ? 4 : 8; }

template <class T> constexpr Precision precision_of();
template <> constexpr Precision precision_of<float>() { return Precision::Float; }
template <> constexpr Precision precision_of<double>() { return Precision::Double; }

}  // namespace ws
