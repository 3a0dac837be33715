#pragma once
// A PNG plot like Hamilton et al.'s Fig. 7: compute time per node (ns, y) against
// the number of stencil points K (x), one line per stencil family and precision
// (solid float, dashed double; colours per family), for the best kernel on one
// grid size. Drawn with libpng directly: axes, ticks with numbers, lines with
// markers, a title and a legend in a built-in 3x5 bitmap font (upper case).
#include <string>

#include "bench/stencil_bench.hpp"

namespace ws::cli {

// Plots the rows with best == true for `size` (e.g. "large"); throws
// std::runtime_error when the file cannot be written or no row matches.
void write_ctpn_plot_png(const std::string& path, const bench::StencilBenchResult& result, const std::string& size);

}  // namespace ws::cli
