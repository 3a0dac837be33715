#pragma once
// Small strict readers for JSON objects: each names the key path, the value
// and what is allowed when the input is wrong.
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "scene/scene.hpp"

namespace ws::json_checks {

using nlohmann::json;

inline std::string show(const json& v) {
  std::string s = v.dump();
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

inline void only_keys(const json& obj, const std::string& where, const std::set<std::string>& allowed) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    if (!allowed.count(it.key())) {
      std::string list;
      for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
      throw SceneError("unknown key '" + where + it.key() + "'; allowed keys here: " + list);
    }
  }
}

inline const json& object_at(const json& v, const std::string& key) {
  if (!v.is_object()) throw SceneError(key + " = " + show(v) + " is not allowed: expected a JSON object");
  return v;
}

inline double number(const json& v, const std::string& key) {
  if (!v.is_number()) throw SceneError(key + " = " + show(v) + " is not allowed: expected a number");
  return v.get<double>();
}

inline double positive(const json& v, const std::string& key) {
  const double x = number(v, key);
  if (!(x > 0.0)) throw SceneError(key + " = " + show(v) + " is not allowed: expected a number > 0");
  return x;
}

inline std::string string(const json& v, const std::string& key) {
  if (!v.is_string()) throw SceneError(key + " = " + show(v) + " is not allowed: expected a string");
  return v.get<std::string>();
}

inline std::array<double, 3> vec3(const json& v, const std::string& key) {
  if (!v.is_array() || v.size() != 3)
    throw SceneError(key + " = " + show(v) + " is not allowed: expected an array of 3 numbers [x, y, z]");
  std::array<double, 3> r{};
  for (int d = 0; d < 3; ++d) r[d] = number(v[d], key + "[" + std::to_string(d) + "]");
  return r;
}

}  // namespace ws::json_checks
