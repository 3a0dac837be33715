#pragma once
// The compact explicit 27-point family of Kowalczyk & van Walstijn ("Room acoustics simulation
// using 3-D compact explicit FDTD schemes", IEEE TASLP 19(1), 2011):
//   delta_t^2 u = lambda^2 [ (dxx + dyy + dzz) + a (dxx dyy + dyy dzz + dzz dxx) + b dxx dyy dzz ] u
// with dxx u = u(x+1) - 2u + u(x-1) along each axis. Expanding the products gives weights
//   centre -6 + 12a - 8b,  axis (1,0,0): 1 - 4a + 4b,  edge (1,1,0): a - 2b,  corner (1,1,1): b,
// which sum to zero for every (a, b); the a and b terms are O(k^4), so every member is a
// consistent second-order Laplacian. The named schemes are particular (a, b):
//   srl   (0, 0)              standard rectilinear, 7 points
//   ccp   (1/4, 0)            cubic close-packed: axis weight 0, 13 points (FCC lattice)
//   octa  (1/2, 1/4)          octahedral: axis and edge weights 0, 9 points (BCC lattice)
//   idwm  (0.2034, 0.0438)    interpolated digital waveguide mesh
//   iiso  (1/6, 0)            interpolated isotropic (4th-order isotropic error), 19 points
//   iiso2 (1/6, 1/48)         interpolated isotropic, 27-point variant
//   iwb   (1/4, 1/16)         interpolated wideband (at lambda = 1: fourth-order accurate)
// Points whose weight is exactly zero are left out (ccp and octa use sublattices).
#include <string>
#include <vector>

#include "stencil/stencil.hpp"

namespace ws {

struct Named27Scheme {
  const char* name;
  double a, b;
  const char* description;
};

// The table above, in that order.
const std::vector<Named27Scheme>& named27_schemes();

// The scheme named `name` (one of the table), or nullptr.
const Named27Scheme* find_named27(const std::string& name);

// The 27-point (or fewer, where weights vanish) Laplacian with parameters (a, b).
std::vector<StencilPoint> compact27_points(double a, double b);

// The stencil of a named scheme; throws std::invalid_argument for an unknown name.
Stencil make_named27(const std::string& name);

}  // namespace ws
