#pragma once
// Boundary nodes of the 7-point scheme: air nodes next to a non-fixed wall or to
// a solid obstacle, updated by their own small kernel so that the interior
// kernels (any registered variant) run unchanged at full speed.
//
// The update at an air node x with the set N(x) of neighbours that take part
// (air nodes, and fixed-wall halo nodes whose value is 0) and missing
// neighbours M(x) (rigid/absorbing walls, solid nodes) with admittances beta_d:
//   (1 + b) u^{n+1} = (2 - |N| lambda^2) u^n + lambda^2 sum_{y in N, air} u^n_y + (b - 1) u^{n-1},
//   b = (lambda / 2) sum_{d in M} beta_d.
// This is the finite-volume (cell-centred) locally reacting wall: the flux through a
// missing face is -(beta/c) dp/dt (Kowalczyk & van Walstijn; Bilbao). The graph
// Laplacian of N is symmetric and negative semi-definite, so the energy
//   E = 1/2 ||u^{n+1} - u^n||^2 - lambda^2/2 <u^{n+1}, L u^n>
// changes by -sum_x b_x (u^{n+1}_x - u^{n-1}_x)^2 <= 0 per step: stable at the
// 7-point Courant limit, edges and corners included, and exactly conservative for rigid walls.
//
// It is evaluated as
//   u^{n+1} = u^n + cd (u^n - u^{n-1}) + cl (sum_{y in N, air} (u^n_y - u^n) - n_fixed u^n),
//   cd = (1 - b) / (1 + b),  cl = lambda^2 / (1 + b),
// n_fixed = |N| minus the air neighbours (the fixed-wall ones). Without fixed
// neighbours every term in the bracket is a difference that is exactly 0 for a
// constant field, so a constant is a fixed point bit for bit (as in the interior
// kernels, sim/cuda/kernels/exact_update.cuh): the room's zero mode, which rigid
// walls do not damp, neither grows nor decays by rounding. The CPU and CUDA
// versions evaluate this same expression in the same order (nvcc may fuse a
// product and a sum into an FMA; with every difference 0 that changes nothing).
//
// Each step: (1) compute the boundary nodes' new values into a side buffer (it reads
// u^{n-1} at those nodes before the interior kernel overwrites it), (2) the interior
// kernel, (3) scatter the side buffer and zero the solid nodes.
#include <cstdint>
#include <vector>

#include "boundary/wall_conditions.hpp"
#include "core/field_layout.hpp"

namespace ws {

// Solid obstacles on the interior grid: material index per node (0 = air), the
// admittance of material m at admittance[m - 1].
struct SolidNodes {
  std::vector<uint8_t> material;    // nx*ny*nz, index i + nx*(j + ny*k); empty = no obstacles
  std::vector<double> admittance;
  bool solid(int i, int j, int k, int nx, int ny) const {
    return !material.empty() && material[i + (size_t)nx * (j + (size_t)ny * k)] != 0;
  }
};

struct BoundaryPlan {
  // Boundary (air) nodes, structure of arrays.
  std::vector<int64_t> node;         // linear index in the layout
  std::vector<uint8_t> neighbours;   // bit d set: neighbour d (-x,+x,-y,+y,-z,+z) is an air node in the sum
  std::vector<uint8_t> count;        // |N|: air neighbours plus fixed-wall neighbours
  std::vector<double> beta_sum;      // sum of the admittances of the missing faces
  std::vector<int64_t> solid;        // solid nodes, held at zero
  double lambda = 0.0;               // the Courant number the coefficients are for

  bool empty() const { return node.empty() && solid.empty(); }
  size_t size() const { return node.size(); }
};

// Builds the plan; throws std::invalid_argument when the stencil is not the
// 7-point one and anything other than fixed walls without obstacles is asked for.
BoundaryPlan make_boundary_plan(const FieldLayout& layout, const BoxWalls& walls, const SolidNodes& solids,
                                double lambda);

// Per-node coefficients of u^{n+1} = u + cd (u - u^{n-1}) + cl (sum_air (u_y - u) - n_fixed u).
struct BoundaryCoeffs {
  double cd, cl;
  int n_fixed;  // fixed-wall (Dirichlet, value 0) neighbours
};
inline BoundaryCoeffs boundary_coeffs(int count, uint8_t air_mask, double beta_sum, double lambda) {
  const double l2 = lambda * lambda, b = 0.5 * lambda * beta_sum;
  int air = 0;
  for (int d = 0; d < 6; ++d) air += (air_mask >> d) & 1;
  return {(1.0 - b) / (1.0 + b), l2 / (1.0 + b), count - air};
}

// CPU application of the three phases (the CUDA versions live in boundary_kernels.cu).
template <class T>
void boundary_compute_cpu(const BoundaryPlan& p, const FieldLayout& L, const T* u_cur, const T* u_prev, T* side);
template <class T>
void boundary_scatter_cpu(const BoundaryPlan& p, const T* side, T* u_next);

}  // namespace ws
