#pragma once
// Copies the interior of a padded array into another layout (different element
// alignment after a precision switch, different halo after a stencil switch).
// The new halo is the fixed boundary: zero.
#include <stdexcept>
#include <vector>

#include "core/field_layout.hpp"

namespace ws {

inline std::vector<double> relayout(const std::vector<double>& u, const FieldLayout& from, const FieldLayout& to) {
  if (from.nx != to.nx || from.ny != to.ny || from.nz != to.nz)
    throw std::invalid_argument("relayout: interior sizes differ");
  std::vector<double> out(to.total, 0.0);
  for (int k = 0; k < to.nz; ++k)
    for (int j = 0; j < to.ny; ++j)
      for (int i = 0; i < to.nx; ++i) out[to.index(i, j, k)] = u[from.index(i, j, k)];
  return out;
}

}  // namespace ws
