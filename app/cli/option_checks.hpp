#pragma once
// Validators for numeric options whose refusal names the value and what is allowed
// (CLI11's PositiveNumber prints the whole range of a double). CLI11 prefixes the
// option's name: "--steps: -1 is not allowed; expected a number > 0".
#include <CLI/CLI.hpp>

#include <cmath>
#include <sstream>
#include <string>

#include "atomic_file.hpp"
#include "cuda/kernel_registry.hpp"

namespace ws::cli {

// A finite number above `low` (or at least `low` when `inclusive`).
inline CLI::Validator number_above(double low, bool inclusive, const std::string& what = "a number") {
  std::ostringstream bound;
  bound << low;
  const std::string rule = what + (inclusive ? " >= " : " > ") + bound.str();
  return CLI::Validator(
      [low, inclusive, rule](std::string& in) -> std::string {
        double v = 0.0;
        if (!CLI::detail::lexical_cast(in, v) || !std::isfinite(v)) return "'" + in + "' is not allowed; expected " + rule;
        if (inclusive ? !(v >= low) : !(v > low)) return in + " is not allowed; expected " + rule;
        return std::string();
      },
      rule);
}

inline CLI::Validator positive() { return number_above(0.0, false); }
inline CLI::Validator non_negative() { return number_above(0.0, true); }
inline CLI::Validator at_least_one_step() { return number_above(1.0, true, "a whole number of steps"); }

// `--kernel ID`: "auto" or a registered wave kernel; empty when allowed, else the message
// (the value and every allowed id). Checked on every backend: the CPU solver has no kernels,
// but a misspelt id must not pass unnoticed.
inline std::string kernel_id_error(const std::string& id) {
  if (id.empty() || id == "auto" || KernelRegistry::instance().find(id)) return "";
  std::string list = "auto";
  for (const auto& v : KernelRegistry::instance().all()) list += ", " + v.id;
  return "--kernel '" + id + "' is not a kernel id; allowed: " + list + " (see `wavescope kernels`)";
}

// An output file option (`--json FILE`, `--png FILE`): refused at once, with status 2, when
// no file can be created there (util::output_path_error), instead of after the computation.
inline CLI::Validator writable_output(const std::string& what) {
  return CLI::Validator([what](std::string& in) { return util::output_path_error(in, what); }, "FILE");
}

}  // namespace ws::cli
