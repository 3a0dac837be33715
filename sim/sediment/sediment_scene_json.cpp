// Strict JSON reading and writing of sediment scenes (see sediment_scene.hpp).
#include <cmath>

#include "scene/json_checks.hpp"
#include "scene/scene_json.hpp"
#include "sediment/sediment_scene.hpp"
#include "sediment/sediment_setup.hpp"

namespace ws {

using nlohmann::json;
using namespace json_checks;

const char* to_string(BasinSide s) {
  switch (s) {
    case BasinSide::West: return "west";
    case BasinSide::East: return "east";
    case BasinSide::South: return "south";
    case BasinSide::North: return "north";
  }
  return "?";
}

namespace {

int grid_count(const json& v, const std::string& key) {
  const double x = number(v, key);
  if (x != std::floor(x) || x < 3 || x > 32768)
    throw SceneError(key + " = " + show(v) + " is not allowed: expected a whole number of cells, 3 .. 32768");
  return (int)x;
}

double fraction(const json& v, const std::string& key) {
  const double x = number(v, key);
  if (!(x >= 0.0 && x <= 1.0)) throw SceneError(key + " = " + show(v) + " is not allowed: expected 0 .. 1");
  return x;
}

double non_negative(const json& v, const std::string& key) {
  const double x = number(v, key);
  if (!(x >= 0.0)) throw SceneError(key + " = " + show(v) + " is not allowed: expected a number >= 0");
  return x;
}

BasinSide parse_side(const json& v, const std::string& key) {
  const std::string s = string(v, key);
  if (s == "west") return BasinSide::West;
  if (s == "east") return BasinSide::East;
  if (s == "south") return BasinSide::South;
  if (s == "north") return BasinSide::North;
  throw SceneError(key + " = \"" + s + "\" is not allowed; allowed: west, east, south, north");
}

// A number (constant m^2/s) or {"type": "constant" | "river_mouth", ...}.
DiffusivitySpec parse_diffusivity(const json& v, const std::string& key) {
  DiffusivitySpec d;
  if (v.is_number()) {
    d.value_m2_s = positive(v, key);
    return d;
  }
  if (!v.is_object())
    throw SceneError(key + " = " + show(v) + " is not allowed: expected a number (m^2/s) or an object with \"type\"");
  const std::string type = v.contains("type") ? string(v.at("type"), key + ".type") : "constant";
  d.type = type;
  if (type == "constant") {
    only_keys(v, key + ".", {"type", "value_m2_s"});
    if (!v.contains("value_m2_s")) throw SceneError(key + ".value_m2_s is required for a constant field (m^2/s > 0)");
    d.value_m2_s = positive(v.at("value_m2_s"), key + ".value_m2_s");
  } else if (type == "river_mouth") {
    only_keys(v, key + ".", {"type", "background_m2_s", "peak_m2_s", "side", "centre_m", "width_m", "decay_m"});
    for (const char* req : {"background_m2_s", "peak_m2_s", "side", "centre_m", "width_m", "decay_m"})
      if (!v.contains(req)) throw SceneError(key + "." + req + " is required for a river_mouth field");
    d.background_m2_s = positive(v.at("background_m2_s"), key + ".background_m2_s");
    d.peak_m2_s = positive(v.at("peak_m2_s"), key + ".peak_m2_s");
    d.side = parse_side(v.at("side"), key + ".side");
    d.centre_m = number(v.at("centre_m"), key + ".centre_m");
    d.width_m = positive(v.at("width_m"), key + ".width_m");
    d.decay_m = positive(v.at("decay_m"), key + ".decay_m");
  } else {
    throw SceneError(key + ".type = \"" + type + "\" is not allowed; allowed: constant, river_mouth");
  }
  return d;
}

TopographySpec parse_topography(const json& v, const std::string& key) {
  object_at(v, key);
  TopographySpec t;
  t.type = v.contains("type") ? string(v.at("type"), key + ".type") : "flat";
  if (t.type == "flat") {
    only_keys(v, key + ".", {"type", "height_m"});
    if (v.contains("height_m")) t.base_m = number(v.at("height_m"), key + ".height_m");
  } else if (t.type == "slope") {
    only_keys(v, key + ".", {"type", "base_m", "gradient_x", "gradient_y"});
    if (v.contains("base_m")) t.base_m = number(v.at("base_m"), key + ".base_m");
    if (v.contains("gradient_x")) t.gradient_x = number(v.at("gradient_x"), key + ".gradient_x");
    if (v.contains("gradient_y")) t.gradient_y = number(v.at("gradient_y"), key + ".gradient_y");
  } else if (t.type == "bump") {
    only_keys(v, key + ".", {"type", "base_m", "height_m", "centre_m", "radius_m"});
    if (v.contains("base_m")) t.base_m = number(v.at("base_m"), key + ".base_m");
    if (v.contains("height_m")) t.height_m = number(v.at("height_m"), key + ".height_m");
    if (!v.contains("centre_m") || !v.at("centre_m").is_array() || v.at("centre_m").size() != 2)
      throw SceneError(key + ".centre_m = " + (v.contains("centre_m") ? show(v.at("centre_m")) : "(absent)") +
                       " is not allowed: expected [x, y] in metres");
    t.centre_m = {number(v.at("centre_m")[0], key + ".centre_m[0]"), number(v.at("centre_m")[1], key + ".centre_m[1]")};
    if (!v.contains("radius_m")) throw SceneError(key + ".radius_m is required for a bump (m > 0)");
    t.radius_m = positive(v.at("radius_m"), key + ".radius_m");
  } else {
    throw SceneError(key + ".type = \"" + t.type + "\" is not allowed; allowed: flat, slope, bump");
  }
  return t;
}

BoundaryFluxSpec parse_flux(const json& v, const std::string& key, double side_length_m) {
  object_at(v, key);
  only_keys(v, key + ".", {"flux_m2_s", "sand_fraction", "from_m", "to_m"});
  BoundaryFluxSpec b;
  if (v.contains("flux_m2_s")) b.flux_m2_s = number(v.at("flux_m2_s"), key + ".flux_m2_s");
  if (v.contains("sand_fraction")) b.sand_fraction = fraction(v.at("sand_fraction"), key + ".sand_fraction");
  if (v.contains("from_m")) b.from_m = non_negative(v.at("from_m"), key + ".from_m");
  if (v.contains("to_m")) b.to_m = non_negative(v.at("to_m"), key + ".to_m");
  const double from = b.from_m.value_or(0.0), to = b.to_m.value_or(side_length_m);
  if (!(from < to) || to > side_length_m)
    throw SceneError(key + " segment [" + std::to_string(from) + ", " + std::to_string(to) +
                     "] m is not allowed: expected 0 <= from_m < to_m <= side length " + std::to_string(side_length_m) +
                     " m");
  return b;
}

}  // namespace

SedimentScene parse_sediment_scene(const json& j) {
  if (scene_model(j) != "sediment2d")
    throw SceneError("model = " + (j.contains("model") ? show(j.at("model")) : std::string("(absent)")) +
                     " is not allowed for a sediment scene; allowed: sediment2d");
  only_keys(j, "", {"model", "name", "grid", "compaction_sand", "compaction_mud", "top_layer_m", "alpha_m2_s",
                    "beta_m2_s", "initial_h", "initial_s", "boundary_flux", "dt_s", "dt_fraction", "precision",
                    "duration_s"});
  SedimentScene s;
  if (j.contains("name")) s.name = string(j.at("name"), "name");
  if (!j.contains("grid")) throw SceneError("grid is required: {\"nx\", \"ny\", \"dx_m\", \"dy_m\"}");
  const json& g = object_at(j.at("grid"), "grid");
  only_keys(g, "grid.", {"nx", "ny", "dx_m", "dy_m"});
  for (const char* req : {"nx", "ny", "dx_m"})
    if (!g.contains(req)) throw SceneError(std::string("grid.") + req + " is required");
  s.nx = grid_count(g.at("nx"), "grid.nx");
  s.ny = grid_count(g.at("ny"), "grid.ny");
  s.dx_m = positive(g.at("dx_m"), "grid.dx_m");
  s.dy_m = g.contains("dy_m") ? positive(g.at("dy_m"), "grid.dy_m") : s.dx_m;
  if (j.contains("compaction_sand")) s.compaction_sand = positive(j.at("compaction_sand"), "compaction_sand");
  if (j.contains("compaction_mud")) s.compaction_mud = positive(j.at("compaction_mud"), "compaction_mud");
  if (j.contains("top_layer_m")) s.top_layer_m = positive(j.at("top_layer_m"), "top_layer_m");
  if (!j.contains("alpha_m2_s")) throw SceneError("alpha_m2_s is required (sand diffusion, m^2/s)");
  if (!j.contains("beta_m2_s")) throw SceneError("beta_m2_s is required (mud diffusion, m^2/s)");
  s.alpha = parse_diffusivity(j.at("alpha_m2_s"), "alpha_m2_s");
  s.beta = parse_diffusivity(j.at("beta_m2_s"), "beta_m2_s");
  if (j.contains("initial_h")) s.initial_h = parse_topography(j.at("initial_h"), "initial_h");
  if (j.contains("initial_s")) s.initial_s = fraction(j.at("initial_s"), "initial_s");
  if (j.contains("boundary_flux")) {
    const json& b = object_at(j.at("boundary_flux"), "boundary_flux");
    only_keys(b, "boundary_flux.", {"west", "east", "south", "north"});
    for (BasinSide side : {BasinSide::West, BasinSide::East, BasinSide::South, BasinSide::North}) {
      const std::string name = to_string(side);
      const double len = (side == BasinSide::West || side == BasinSide::East) ? s.length_y_m() : s.length_x_m();
      if (b.contains(name)) s.boundary[(int)side] = parse_flux(b.at(name), "boundary_flux." + name, len);
    }
  }
  if (j.contains("dt_s") && j.contains("dt_fraction"))
    throw SceneError("dt_s and dt_fraction are both given; allowed: one of them (dt_fraction of the stability limit)");
  if (j.contains("dt_s")) s.dt_s = positive(j.at("dt_s"), "dt_s");
  if (j.contains("dt_fraction")) {
    s.dt_fraction = positive(j.at("dt_fraction"), "dt_fraction");
    if (s.dt_fraction > 1.0)
      throw SceneError("dt_fraction = " + show(j.at("dt_fraction")) + " is not allowed: expected 0 < dt_fraction <= 1");
  }
  if (j.contains("precision")) {
    const std::string p = string(j.at("precision"), "precision");
    try {
      s.precision = parse_precision(p);
    } catch (const std::invalid_argument&) {
      throw SceneError("precision = \"" + p + "\" is not allowed; allowed: float, double");
    }
  }
  if (j.contains("duration_s")) s.duration_s = positive(j.at("duration_s"), "duration_s");
  // Derive once so that a time step above the stability limit is refused at load time.
  derive_sediment_grid(s);
  return s;
}

SedimentScene load_sediment_scene(const std::string& path) {
  const json j = load_json_file(path);
  try {
    return parse_sediment_scene(j);
  } catch (const SceneError& e) {
    throw SceneError(path + ": " + e.what());
  }
}

namespace {
json to_json(const DiffusivitySpec& d) {
  if (d.type == "constant") return d.value_m2_s;
  return {{"type", d.type},          {"background_m2_s", d.background_m2_s}, {"peak_m2_s", d.peak_m2_s},
          {"side", to_string(d.side)}, {"centre_m", d.centre_m},               {"width_m", d.width_m},
          {"decay_m", d.decay_m}};
}
json to_json(const TopographySpec& t) {
  if (t.type == "flat") return {{"type", "flat"}, {"height_m", t.base_m}};
  if (t.type == "slope")
    return {{"type", "slope"}, {"base_m", t.base_m}, {"gradient_x", t.gradient_x}, {"gradient_y", t.gradient_y}};
  return {{"type", "bump"}, {"base_m", t.base_m}, {"height_m", t.height_m}, {"centre_m", t.centre_m},
          {"radius_m", t.radius_m}};
}
}  // namespace

json to_json(const SedimentScene& s) {
  json j;
  j["model"] = "sediment2d";
  j["name"] = s.name;
  j["grid"] = {{"nx", s.nx}, {"ny", s.ny}, {"dx_m", s.dx_m}, {"dy_m", s.dy_m}};
  j["compaction_sand"] = s.compaction_sand;
  j["compaction_mud"] = s.compaction_mud;
  j["top_layer_m"] = s.top_layer_m;
  j["alpha_m2_s"] = to_json(s.alpha);
  j["beta_m2_s"] = to_json(s.beta);
  j["initial_h"] = to_json(s.initial_h);
  j["initial_s"] = s.initial_s;
  json b = json::object();
  for (BasinSide side : {BasinSide::West, BasinSide::East, BasinSide::South, BasinSide::North}) {
    const BoundaryFluxSpec& f = s.boundary[(int)side];
    if (f.flux_m2_s == 0.0) continue;
    json e = {{"flux_m2_s", f.flux_m2_s}, {"sand_fraction", f.sand_fraction}};
    if (f.from_m) e["from_m"] = *f.from_m;
    if (f.to_m) e["to_m"] = *f.to_m;
    b[to_string(side)] = e;
  }
  j["boundary_flux"] = b;
  if (s.dt_s) j["dt_s"] = *s.dt_s;
  else j["dt_fraction"] = s.dt_fraction;
  j["precision"] = to_string(s.precision);
  if (s.duration_s > 0) j["duration_s"] = s.duration_s;
  return j;
}

}  // namespace ws
