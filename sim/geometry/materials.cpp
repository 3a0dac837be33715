#include "geometry/materials.hpp"

#include <cmath>

#include "scene/json_checks.hpp"

namespace ws::geo {

using nlohmann::json;
using namespace json_checks;

double absorption_to_admittance(double a) {
  const double r = std::sqrt(1.0 - a);
  return (1.0 - r) / (1.0 + r);
}

double admittance_to_absorption(double beta) {
  const double r = (1.0 - beta) / (1.0 + beta);
  return 1.0 - r * r;
}

std::vector<Material> parse_materials(const json& scene) {
  std::vector<Material> out{{"rigid", 0.0}};
  if (!scene.contains("materials")) return out;
  const json& m = object_at(scene.at("materials"), "materials");
  for (auto it = m.begin(); it != m.end(); ++it) {
    const std::string where = "materials." + it.key();
    if (it.key() == "rigid")
      throw SceneError(where + " is not allowed: 'rigid' is predefined (admittance 0); choose another name");
    if (it.key().empty()) throw SceneError("materials: an empty material name is not allowed");
    object_at(it.value(), where);
    only_keys(it.value(), where + ".", {"absorption", "admittance"});
    const bool has_a = it.value().contains("absorption"), has_b = it.value().contains("admittance");
    if (has_a == has_b)
      throw SceneError(where + " = " + show(it.value()) +
                       " is not allowed: give exactly one of \"absorption\" (0 .. 1) or \"admittance\" (>= 0)");
    Material mat{it.key(), 0.0};
    if (has_a) {
      const double a = number(it.value().at("absorption"), where + ".absorption");
      if (!(a >= 0.0 && a <= 1.0))
        throw SceneError(where + ".absorption = " + show(it.value().at("absorption")) +
                         " is not allowed: expected a number in [0, 1]");
      mat.admittance = absorption_to_admittance(a);
    } else {
      const double b = number(it.value().at("admittance"), where + ".admittance");
      if (!(b >= 0.0) || !std::isfinite(b))
        throw SceneError(where + ".admittance = " + show(it.value().at("admittance")) +
                         " is not allowed: expected a finite number >= 0");
      mat.admittance = b;
    }
    out.push_back(mat);
  }
  if (out.size() > 255)
    throw SceneError("materials: " + std::to_string(out.size()) +
                     " materials (with 'rigid') is not allowed: at most 255 fit the solid mask");
  return out;
}

}  // namespace ws::geo
