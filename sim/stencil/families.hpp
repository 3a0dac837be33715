#pragma once
// Stencil families (Hamilton, Webb, Gray & Bilbao): builds the points and
// weights of a stencil from its name.
#include <string>

#include "stencil/stencil.hpp"

namespace ws {

// Points and weights of the named stencil (radius and courant_max are filled by make_stencil).
Stencil build_stencil_by_name(const std::string& name);

// Leggy stencil S_M: the centred 2M-order second-derivative weights (Fornberg) on each axis.
Stencil make_leggy(int M);

}  // namespace ws
