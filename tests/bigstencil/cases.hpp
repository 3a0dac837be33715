#pragma once
// Every (registered kernel, test stencil, precision) combination the kernel runs.
// Iterating the registry means a new variant is tested as soon as it registers.
#include <ostream>
#include <string>
#include <vector>

#include "bigstencil/test_stencils.hpp"
#include "cuda/kernel_registry.hpp"

namespace ws::testing {

struct KernelCase {
  std::string kernel;
  std::string stencil;
  Precision precision;
};

// The ids registered by sim/cuda/kernels/bigstencil_families.cpp.
inline const std::vector<std::string>& bigstencil_kernel_ids() {
  static const std::vector<std::string> ids{"ztma_leggy", "zvec_leggy", "ztile_leggy", "zsweep_leggy", "zsweep_box", "regqueue_leggy", "compact_tiled", "kernelB", "pencils_leggy", "kernelA"};
  return ids;
}

inline bool is_bigstencil_kernel(const std::string& id) {
  for (const auto& k : bigstencil_kernel_ids())
    if (k == id) return true;
  return false;
}

inline std::vector<KernelCase> kernel_cases() {
  std::vector<KernelCase> out;
  for (const auto& name : test_stencil_names()) {
    const Stencil s = test_stencil(name);
    for (const auto& v : KernelRegistry::instance().all())
      for (Precision p : {Precision::Float, Precision::Double})
        if (v.has_precision(p) && v.supports(s)) out.push_back({v.id, name, p});
  }
  return out;
}

inline std::string case_name(const KernelCase& c) {
  std::string s = c.kernel + "_" + c.stencil + "_" + to_string(c.precision);
  for (char& ch : s)
    if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9'))) ch = '_';
  return s;
}

// gtest prints parameters with this (instead of the struct's bytes).
inline void PrintTo(const KernelCase& c, std::ostream* os) { *os << case_name(c); }

}  // namespace ws::testing
