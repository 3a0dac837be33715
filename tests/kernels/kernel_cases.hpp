#pragma once
// The cases the kernel tests iterate: every registered variant that runs the
// 7-point stencil x precision x read-only-cache mode, plus the block shapes and
// grid sizes worth trying on them.
#include <cstdio>
#include <ostream>
#include <string>
#include <vector>

#include "core/precision.hpp"
#include "cuda/kernel_registry.hpp"
#include "stencil/stencil.hpp"

namespace ws::testing {

struct KernelCase {
  std::string id;
  Precision precision;
  bool readonly_cache;
};

inline std::vector<KernelCase> seven_point_cases() {
  const Stencil st = make_stencil("7pt");
  std::vector<KernelCase> out;
  for (const auto& v : KernelRegistry::instance().all()) {
    if (!v.supports || !v.supports(st)) continue;
    for (Precision p : {Precision::Float, Precision::Double}) {
      if (!v.has_precision(p)) continue;
      out.push_back({v.id, p, true});
      if (v.has_readonly_toggle) out.push_back({v.id, p, false});
    }
  }
  return out;
}

inline std::string case_name(const KernelCase& c) {
  return c.id + "_" + to_string(c.precision) + (c.readonly_cache ? "_ro" : "_plain");
}

// gtest prints parameters with this instead of a byte dump.
inline void PrintTo(const KernelCase& c, std::ostream* os) { *os << case_name(c); }

struct GridSize {
  int nx, ny, nz;
  int steps;  // for the multi-step comparison
};

// Not multiples of any block, a point-thick slab along each axis, and one grid
// large enough for several blocks in x and y and several z chunks.
inline std::vector<GridSize> test_sizes() {
  return {{37, 29, 23, 500}, {1, 19, 13, 300}, {21, 1, 9, 300}, {17, 11, 1, 300}, {150, 67, 70, 40}};
}

// Why kernel v cannot run an nx x ny x nz grid in precision p here ("" when it can): kernels
// bounded by on-chip memory (KernelVariant::grid_error) skip the larger test grids, with a line.
inline std::string grid_refusal(const KernelVariant& v, Precision p, int nx, int ny, int nz) {
  if (!v.grid_error) return "";
  const std::string why = v.grid_error(nx, ny, nz, p);
  if (!why.empty()) std::printf("[ skipped  ] %s on %dx%dx%d: %s\n", v.id.c_str(), nx, ny, nz, why.c_str());
  return why;
}

// Non-default blocks for the variants of Webb's, FDTD3d's and Su's families
// (other families may constrain their blocks; they are run at their default).
// Odd shapes, one-wide blocks, warps that straddle rows, and 1024 threads.
inline std::vector<BlockShape> alternate_blocks(const KernelVariant& v) {
  static const std::vector<std::string> ours = {"tiling3d",        "tiling3d_shared",      "tiling3d_ext_shared",
                                                "slicing2d",       "slicing2d_shared",     "slicing2d_ext_shared",
                                                "register_queue",  "zstream_cached",       "halo_threads",
                                                "zstream_vec"};
  bool mine = false;
  for (const auto& id : ours) mine = mine || id == v.id;
  if (!mine) return {};
  if (v.id == "halo_threads") return {{3, 3, 1}, {7, 5, 1}, {18, 10, 1}, {34, 30, 1}};
  std::vector<BlockShape> b = {{16, 8, 1}, {24, 3, 1}, {1, 32, 1}, {32, 32, 1}, {7, 5, 1}, {1, 1024, 1}};
  if (v.block_uses_z) {
    b.push_back({8, 4, 4});
    b.push_back({5, 3, 7});
    b.push_back({32, 4, 8});
  }
  return b;
}

}  // namespace ws::testing
