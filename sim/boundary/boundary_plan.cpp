#include "boundary/boundary_plan.hpp"

#include <stdexcept>

namespace ws {

std::string describe(const WallCondition& c) {
  switch (c.kind) {
    case WallKind::Fixed: return "fixed";
    case WallKind::Rigid: return "rigid";
    case WallKind::Open: return "open";
    case WallKind::Absorbing: return "admittance " + std::to_string(c.admittance);
  }
  return "?";
}

BoundaryPlan make_boundary_plan(const FieldLayout& L, const BoxWalls& walls, const SolidNodes& solids, double lambda) {
  BoundaryPlan p;
  p.lambda = lambda;
  const bool has_solids = !solids.material.empty();
  if (all_fixed(walls) && !has_solids) return p;
  if (has_solids && solids.material.size() != (size_t)L.nx * L.ny * L.nz)
    throw std::invalid_argument("solid mask size does not match the grid");
  const int n[3] = {L.nx, L.ny, L.nz};
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        if (solids.solid(i, j, k, L.nx, L.ny)) {
          p.solid.push_back(L.index(i, j, k));
          continue;
        }
        const int c[3] = {i, j, k};
        uint8_t mask = 0;
        int count = 0;
        double beta = 0.0;
        bool special = false;
        for (int d = 0; d < 6; ++d) {
          const int axis = d / 2, dir = (d % 2) ? 1 : -1;
          int q[3] = {c[0], c[1], c[2]};
          q[axis] += dir;
          if (q[axis] < 0 || q[axis] >= n[axis]) {
            const WallCondition& w = walls[d];
            if (w.kind == WallKind::Fixed) {
              ++count;  // a neighbour of value 0: the Dirichlet wall
            } else {
              beta += w.admittance;
              special = true;
            }
          } else if (solids.solid(q[0], q[1], q[2], L.nx, L.ny)) {
            const uint8_t m = solids.material[q[0] + (size_t)L.nx * (q[1] + (size_t)L.ny * q[2])];
            beta += solids.admittance.at(m - 1);
            special = true;
          } else {
            mask |= uint8_t(1u << d);
            ++count;
          }
        }
        if (!special) continue;  // an ordinary interior node: the interior kernel is right
        p.node.push_back(L.index(i, j, k));
        p.neighbours.push_back(mask);
        p.count.push_back((uint8_t)count);
        p.beta_sum.push_back(beta);
      }
  return p;
}

template <class T>
void boundary_compute_cpu(const BoundaryPlan& p, const FieldLayout& L, const T* uc, const T* up, T* side) {
  const int64_t off[6] = {-1, 1, -L.pitch, L.pitch, -L.plane, L.plane};
#pragma omp parallel for schedule(static) if (p.node.size() >= 16384)  // small plans: a fork costs more than it saves
  for (int64_t b = 0; b < (int64_t)p.node.size(); ++b) {
    const int64_t q = p.node[b];
    const BoundaryCoeffs c = boundary_coeffs(p.count[b], p.neighbours[b], p.beta_sum[b], p.lambda);
    const T u = uc[q];
    T s = T(0);
    for (int d = 0; d < 6; ++d)
      if (p.neighbours[b] & (1u << d)) s += uc[q + off[d]] - u;
    if (c.n_fixed != 0) s -= T(c.n_fixed) * u;
    side[b] = u + (T(c.cd) * (u - up[q]) + T(c.cl) * s);
  }
}

template <class T>
void boundary_scatter_cpu(const BoundaryPlan& p, const T* side, T* un) {
  for (size_t b = 0; b < p.node.size(); ++b) un[p.node[b]] = side[b];
  for (int64_t q : p.solid) un[q] = T(0);
}

template void boundary_compute_cpu<float>(const BoundaryPlan&, const FieldLayout&, const float*, const float*, float*);
template void boundary_compute_cpu<double>(const BoundaryPlan&, const FieldLayout&, const double*, const double*,
                                           double*);
template void boundary_scatter_cpu<float>(const BoundaryPlan&, const float*, float*);
template void boundary_scatter_cpu<double>(const BoundaryPlan&, const double*, double*);

}  // namespace ws
