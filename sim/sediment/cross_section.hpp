#pragma once
// h and s along one row (fixed j, along x) or column (fixed i, along y) of
// the basin, for the panel's cross-section plot. Reads device views with one
// strided copy on the given stream (the model's), host views directly.
#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "sediment/sediment_view.hpp"

namespace ws {

enum class SectionAxis { Row, Column };

struct CrossSection {
  SectionAxis axis = SectionAxis::Row;
  int index = 0;                    // j for a row, i for a column
  std::vector<double> position_m;   // cell centres along the section
  std::vector<double> h_m, s;
};

// std::invalid_argument when index is outside [0, ny) for a row or [0, nx) for a column.
CrossSection extract_cross_section(const SedimentFieldView& h, const SedimentFieldView& s, SectionAxis axis, int index,
                                   cudaStream_t stream = 0);

}  // namespace ws
