#include "wave/energy.hpp"

namespace ws {

double scheme_energy(const std::vector<double>& un, const std::vector<double>& uo, const FieldLayout& L,
                     const Stencil& st, double courant) {
  double kinetic = 0.0, potential = 0.0;
#pragma omp parallel for reduction(+ : kinetic, potential) schedule(static)
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const int64_t q = L.index(i, j, k);
        const double d = un[q] - uo[q];
        kinetic += d * d;
        double lu = 0.0;
        for (const auto& p : st.points) lu += p.w * uo[q + (int64_t)p.dz * L.plane + (int64_t)p.dy * L.pitch + p.dx];
        potential += un[q] * lu;
      }
  return 0.5 * kinetic - 0.5 * courant * courant * potential;
}

}  // namespace ws
