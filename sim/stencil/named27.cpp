#include "stencil/named27.hpp"

#include <stdexcept>

namespace ws {

const std::vector<Named27Scheme>& named27_schemes() {
  // (a, b) of Kowalczyk & van Walstijn (2011), as also used by an independent implementation
  // (J. Botts, Spectrum-GUI, SpectrumGUI.m); docs/stencils.md lists the sources.
  static const std::vector<Named27Scheme> table = {
      {"srl", 0.0, 0.0, "standard rectilinear (Kowalczyk & van Walstijn a = 0, b = 0)"},
      {"ccp", 0.25, 0.0, "cubic close-packed, face-centred cubic sublattice (a = 1/4, b = 0)"},
      {"octa", 0.5, 0.25, "octahedral, body-centred cubic sublattice (a = 1/2, b = 1/4)"},
      {"idwm", 0.2034, 0.0438, "interpolated digital waveguide mesh (a = 0.2034, b = 0.0438)"},
      {"iiso", 1.0 / 6.0, 0.0, "interpolated isotropic (a = 1/6, b = 0)"},
      {"iiso2", 1.0 / 6.0, 1.0 / 48.0, "interpolated isotropic, 27-point (a = 1/6, b = 1/48)"},
      {"iwb", 0.25, 1.0 / 16.0, "interpolated wideband (a = 1/4, b = 1/16)"},
  };
  return table;
}

const Named27Scheme* find_named27(const std::string& name) {
  for (const auto& s : named27_schemes())
    if (name == s.name) return &s;
  return nullptr;
}

std::vector<StencilPoint> compact27_points(double a, double b) {
  const double w_centre = -6.0 + 12.0 * a - 8.0 * b;
  const double w_axis = 1.0 - 4.0 * a + 4.0 * b;
  const double w_edge = a - 2.0 * b;
  const double w_corner = b;
  std::vector<StencilPoint> pts;
  pts.push_back({0, 0, 0, w_centre});
  for (int dz = -1; dz <= 1; ++dz)
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int nz = (dx != 0) + (dy != 0) + (dz != 0);
        if (nz == 0) continue;
        const double w = nz == 1 ? w_axis : nz == 2 ? w_edge : w_corner;
        if (w != 0.0) pts.push_back({dx, dy, dz, w});
      }
  return pts;
}

Stencil make_named27(const std::string& name) {
  const Named27Scheme* s = find_named27(name);
  if (!s) throw std::invalid_argument("unknown 27-point scheme '" + name + "'");
  Stencil st;
  st.name = s->name;
  st.family = StencilFamily::Named27;
  st.points = compact27_points(s->a, s->b);
  return st;
}

}  // namespace ws
