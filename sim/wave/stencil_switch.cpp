#include "wave/stencil_switch.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/relayout.hpp"

namespace ws {

namespace {

struct Tap {
  int64_t offset;
  double w;
};

std::vector<Tap> taps_of(const Stencil& st, const FieldLayout& L) {
  std::vector<Tap> t;
  for (const auto& p : st.points) t.push_back({(int64_t)p.dz * L.plane + (int64_t)p.dy * L.pitch + p.dx, p.w});
  return t;
}

// (L u)(q) at interior node q; the halo (at least the stencil's radius) holds zeros.
inline double apply(const std::vector<Tap>& taps, const double* u, int64_t q) {
  double s = 0.0;
  for (const Tap& t : taps) s += t.w * u[q + t.offset];
  return s;
}

// Q = ||a - b||^2 - lambda^2 <a, L b> over the interior of L (halo >= the radius).
double energy_in(const std::vector<double>& a, const std::vector<double>& b, const FieldLayout& L,
                 const Stencil& st, double courant) {
  const auto taps = taps_of(st, L);
  double kinetic = 0.0, potential = 0.0;
#pragma omp parallel for collapse(2) reduction(+ : kinetic, potential)
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j)
      for (int i = 0; i < L.nx; ++i) {
        const int64_t q = L.index(i, j, k);
        const double d = a[q] - b[q];
        kinetic += d * d;
        potential += a[q] * apply(taps, b.data(), q);
      }
  return kinetic - courant * courant * potential;
}

FieldLayout working_layout(const FieldLayout& like, int halo) {
  return make_layout(like.nx, like.ny, like.nz, std::max(halo, 1), (int)sizeof(double));
}

}  // namespace

double switch_energy(const std::vector<double>& u_cur, const std::vector<double>& u_prev, const FieldLayout& layout,
                     const Stencil& st, double courant) {
  if (layout.halo >= st.radius) return energy_in(u_cur, u_prev, layout, st, courant);
  const FieldLayout W = working_layout(layout, st.radius);
  return energy_in(relayout(u_cur, layout, W), relayout(u_prev, layout, W), W, st, courant);
}

StencilSwitchResult carry_across_stencil_switch(std::vector<double> u_cur, std::vector<double> u_prev,
                                                const FieldLayout& from, const FieldLayout& to,
                                                const Stencil& from_st, const Stencil& to_st, double courant) {
  if (u_cur.size() != (size_t)from.total || u_prev.size() != (size_t)from.total)
    throw std::invalid_argument("carry_across_stencil_switch: the arrays do not match their layout");
  const FieldLayout W = working_layout(from, std::max(from_st.radius, to_st.radius));
  const std::vector<double> u = relayout(u_cur, from, W);
  std::vector<double>().swap(u_cur);
  std::vector<double> v = relayout(u_prev, from, W);
  std::vector<double>().swap(u_prev);

  StencilSwitchResult r;
  r.energy_before = energy_in(u, v, W, from_st, courant);

  // 1. Keep u^n and its centred derivative: u'^{n-1} = u^{n-1} + lambda^2/2 (L_2 - L_1) u^n.
  const auto t1 = taps_of(from_st, W), t2 = taps_of(to_st, W);
  const double half_l2 = 0.5 * courant * courant;
#pragma omp parallel for collapse(2)
  for (int k = 0; k < W.nz; ++k)
    for (int j = 0; j < W.ny; ++j)
      for (int i = 0; i < W.nx; ++i) {
        const int64_t q = W.index(i, j, k);
        v[q] += half_l2 * (apply(t2, u.data(), q) - apply(t1, u.data(), q));
      }

  // 2. Start the new scheme with the old one's energy.
  const double q2 = energy_in(u, v, W, to_st, courant);
  r.scale = 1.0;
  if (r.energy_before > 0.0 && q2 > 0.0 && std::isfinite(r.energy_before) && std::isfinite(q2))
    r.scale = std::sqrt(r.energy_before / q2);
  r.u_cur = relayout(u, W, to);
  r.u_prev = relayout(v, W, to);
  if (r.scale != 1.0) {
    for (double& x : r.u_cur) x *= r.scale;
    for (double& x : r.u_prev) x *= r.scale;
  }
  r.energy_after = q2 * r.scale * r.scale;
  return r;
}

}  // namespace ws
