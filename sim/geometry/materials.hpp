#pragma once
// Surface materials: absorption coefficient <-> specific admittance.
//
// A locally reacting surface with normal-incidence specific admittance beta
// (its admittance times rho c) reflects a normally incident plane wave with
// pressure reflection coefficient R = (1 - beta) / (1 + beta); the energy it
// absorbs is a = 1 - R^2. Inverting, with R >= 0 (a surface stiffer than
// air, beta <= 1):  R = sqrt(1 - a),  beta = (1 - R) / (1 + R).
// a = 0 gives beta = 0 (rigid), a = 1 gives beta = 1 (matched, no reflection).
#include <nlohmann/json.hpp>
#include <vector>

#include "geometry/geometry.hpp"

namespace ws::geo {

double absorption_to_admittance(double absorption);
double admittance_to_absorption(double admittance);

// "materials": {"<name>": {"absorption": a} | {"admittance": beta}, ...}
// Returns "rigid" (beta 0) first, then the scene's materials in key order.
// "rigid" cannot be redefined; at most 255 materials fit the mask's bytes.
std::vector<Material> parse_materials(const nlohmann::json& scene);

}  // namespace ws::geo
