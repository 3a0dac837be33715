#pragma once
// A small sediment basin for the height-surface tests: odd sizes (not
// multiples of any block), a bump and an inflow so h, its normals and s all
// vary, and the host reference of the surface vertices from the model's state.
#include <vector>

#include "sediment/sediment_model.hpp"
#include "sediment/surface_mesh.hpp"

namespace ws::testing {

inline SedimentScene height_test_scene(Precision p) {
  SedimentScene s;
  s.name = "height test";
  s.nx = 203;
  s.ny = 77;
  s.dx_m = s.dy_m = 100.0;
  s.initial_h.type = "bump";
  s.initial_h.base_m = -4.0;
  s.initial_h.height_m = 3.0;
  s.initial_h.centre_m = {8000.0, 3000.0};
  s.initial_h.radius_m = 2500.0;
  s.initial_s = 0.3;
  s.boundary[(int)BasinSide::West].flux_m2_s = 0.05;
  s.boundary[(int)BasinSide::West].sand_fraction = 0.9;
  s.precision = p;
  return s;
}

// The vertices write_surface_vertices_host makes from the model's current state
// (read back in double): what any upload path must reproduce.
inline std::vector<float> reference_vertices(SedimentModel& m, const SurfaceMeshSpec& spec) {
  std::vector<double> h, s;
  m.solver().read_state(h, s);
  const SedimentLayout L = make_sediment_layout(m.scene().nx, m.scene().ny, 8);
  auto view = [&](const std::vector<double>& v) {
    SedimentFieldView f;
    f.data = v.data();
    f.precision = Precision::Double;
    f.nx = L.nx;
    f.ny = L.ny;
    f.pitch = L.pitch;
    f.origin = L.index(0, 0);
    f.on_device = false;
    f.dx_m = m.scene().dx_m;
    f.dy_m = m.scene().dy_m;
    return f;
  };
  const SurfaceMeshDims d = surface_mesh_dims(L.nx, L.ny, spec.stride);
  std::vector<float> out(d.floats);
  write_surface_vertices_host(view(h), view(s), spec, out.data());
  return out;
}

}  // namespace ws::testing
