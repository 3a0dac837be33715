#pragma once
// A sediment scene ("model": "sediment2d"): the basin grid, the sediment
// constants, the diffusion fields alpha and beta, the initial topography and
// sand fraction, the prescribed boundary fluxes and the time step, in SI units.
// Parsing is strict like the wave scenes: SceneError names key, value, allowed.
#include <array>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/precision.hpp"
#include "scene/scene.hpp"  // SceneError

namespace ws {

enum class BasinSide : int { West = 0, East = 1, South = 2, North = 3 };
const char* to_string(BasinSide s);

// A diffusion field (alpha or beta, m^2/s): constant, or a river mouth on one
// side: background + (peak - background) exp(-(a/width)^2) exp(-d/decay), a =
// distance along the side from centre_m, d = distance into the basin.
struct DiffusivitySpec {
  std::string type = "constant";  // "constant" | "river_mouth"
  double value_m2_s = 1.0;        // constant
  double background_m2_s = 0.1, peak_m2_s = 1.0;
  BasinSide side = BasinSide::West;
  double centre_m = 0.0, width_m = 1.0, decay_m = 1.0;
};

// Initial basin height h(x, y, 0) in metres.
struct TopographySpec {
  std::string type = "flat";  // "flat" | "slope" | "bump"
  double base_m = 0.0;        // flat height, plane offset, or the bump's base
  double gradient_x = 0.0, gradient_y = 0.0;  // slope: h = base + gx x + gy y (m/m)
  double height_m = 0.0;                      // bump: base + height exp(-r^2 / radius^2)
  std::array<double, 2> centre_m{0.0, 0.0};
  double radius_m = 1.0;
};

// Prescribed sediment flux through one side, per metre of boundary (m^2/s,
// positive into the basin), on the segment [from_m, to_m] along the side
// (measured from the side's start: x for south/north, y for west/east); zero
// elsewhere. sand_fraction: the incoming sediment's sand fraction.
struct BoundaryFluxSpec {
  double flux_m2_s = 0.0;
  double sand_fraction = 0.5;
  std::optional<double> from_m, to_m;  // absent: the whole side
};

struct SedimentScene {
  std::string name = "untitled basin";
  int nx = 128, ny = 128;       // interior cells
  double dx_m = 100.0, dy_m = 100.0;
  double compaction_sand = 0.7;  // C_s
  double compaction_mud = 0.6;   // C_m
  double top_layer_m = 1.0;      // A: thickness of the transport (top) layer
  DiffusivitySpec alpha, beta;   // sand and mud diffusion coefficients
  TopographySpec initial_h;
  double initial_s = 0.5;
  std::array<BoundaryFluxSpec, 4> boundary{};  // indexed by BasinSide
  std::optional<double> dt_s;    // absent: dt_fraction of the stability limit
  double dt_fraction = 0.5;
  Precision precision = Precision::Double;
  double duration_s = 0.0;       // 0: no default run length

  double length_x_m() const { return nx * dx_m; }
  double length_y_m() const { return ny * dy_m; }
};

SedimentScene parse_sediment_scene(const nlohmann::json& j);
SedimentScene load_sediment_scene(const std::string& path);
nlohmann::json to_json(const SedimentScene& s);

}  // namespace ws
