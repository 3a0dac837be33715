#pragma once
// Solvers with boundary plans for the boundary tests.
#include <memory>

#include "cpu/cpu_solver.hpp"
#include "wave/energy.hpp"

namespace ws::testing {

struct PlannedSolver {
  std::unique_ptr<WaveSolver> solver;
  BoundaryPlan plan;
};

inline PlannedSolver planned_cpu(int nx, int ny, int nz, const BoxWalls& walls, const SolidNodes& solids = {},
                                 double courant_fraction = 1.0, double rate_hz = 8000.0) {
  const Stencil st = make_stencil("7pt");
  PlannedSolver p;
  p.solver = make_cpu_solver(Precision::Double, st, nx, ny, nz, st.courant_max * courant_fraction, 1.0 / rate_hz);
  p.plan = make_boundary_plan(p.solver->layout(), walls, solids, st.courant_max * courant_fraction);
  p.solver->set_boundary(p.plan);
  return p;
}

inline double energy(PlannedSolver& p) {
  std::vector<double> u, up;
  p.solver->read_state(u, up);
  return scheme_energy(u, up, p.solver->layout(), p.solver->stencil(), p.solver->courant(), &p.plan);
}

inline BoxWalls walls_all(WallCondition c) {
  BoxWalls w;
  w.fill(c);
  return w;
}

// A solid block of material 1 inside the grid.
inline SolidNodes block_solid(int nx, int ny, int nz, int i0, int i1, int j0, int j1, int k0, int k1, double beta) {
  SolidNodes s;
  s.material.assign((size_t)nx * ny * nz, 0);
  s.admittance = {beta};
  for (int k = k0; k < k1; ++k)
    for (int j = j0; j < j1; ++j)
      for (int i = i0; i < i1; ++i) s.material[i + (size_t)nx * (j + (size_t)ny * k)] = 1;
  return s;
}

}  // namespace ws::testing
