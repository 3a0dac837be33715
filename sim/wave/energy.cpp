#include "wave/energy.hpp"

#include <unordered_map>

namespace ws {

double scheme_energy(const std::vector<double>& un, const std::vector<double>& uo, const FieldLayout& L,
                     const Stencil& st, double courant, const BoundaryPlan* plan) {
  // Boundary nodes and solid nodes use their own Laplacian row (see boundary_plan.hpp).
  std::unordered_map<int64_t, size_t> special;
  if (plan) {
    for (size_t b = 0; b < plan->node.size(); ++b) special[plan->node[b]] = b;
    for (int64_t q : plan->solid) special[q] = (size_t)-1;
  }
  const int64_t off[6] = {-1, 1, -L.pitch, L.pitch, -L.plane, L.plane};
  double kinetic = 0.0, potential = 0.0;
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const int64_t q = L.index(i, j, k);
        double lu = 0.0;
        auto it = special.empty() ? special.end() : special.find(q);
        if (it != special.end()) {
          if (it->second == (size_t)-1) continue;  // solid: held at zero
          const size_t b = it->second;
          for (int d = 0; d < 6; ++d)
            if (plan->neighbours[b] & (1u << d)) lu += uo[q + off[d]];
          lu -= plan->count[b] * uo[q];
        } else {
          for (const auto& p : st.points)
            lu += p.w * uo[q + (int64_t)p.dz * L.plane + (int64_t)p.dy * L.pitch + p.dx];
        }
        const double d = un[q] - uo[q];
        kinetic += d * d;
        potential += un[q] * lu;
      }
  return 0.5 * kinetic - 0.5 * courant * courant * potential;
}

}  // namespace ws
