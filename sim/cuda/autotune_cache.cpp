#include "cuda/autotune_cache.hpp"

#include "cuda/z_waves.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace ws {

namespace {

const nlohmann::json& field(const nlohmann::json& j, const char* name, const std::string& where) {
  auto it = j.find(name);
  if (it == j.end()) throw std::runtime_error(where + " has no \"" + name + "\"");
  return *it;
}

std::string text_field(const nlohmann::json& j, const char* name, const std::string& where) {
  const auto& v = field(j, name, where);
  if (!v.is_string()) throw std::runtime_error(where + "." + name + " is not a string");
  return v.get<std::string>();
}

}  // namespace

AutotuneCache AutotuneCache::parse(const std::string& text) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("not JSON: ") + e.what());
  }
  if (!j.is_object()) throw std::runtime_error("the top level is not an object");
  const auto& ver = field(j, "version", "the cache");
  if (!ver.is_number_integer() || ver.get<long long>() != kVersion)
    throw std::runtime_error("version " + ver.dump() + " is not " + std::to_string(kVersion));
  AutotuneCache c;
  c.identity.device = text_field(j, "device", "the cache");
  c.identity.driver = text_field(j, "driver", "the cache");
  c.identity.build = text_field(j, "build", "the cache");
  const auto& entries = field(j, "entries", "the cache");
  if (!entries.is_object()) throw std::runtime_error("entries is not an object");
  for (auto it = entries.begin(); it != entries.end(); ++it) {
    const std::string where = "entries[\"" + it.key() + "\"]";
    const auto& e = it.value();
    if (!e.is_object()) throw std::runtime_error(where + " is not an object");
    AutotuneCacheEntry out;
    out.kernel = text_field(e, "kernel", where);
    if (out.kernel.empty()) throw std::runtime_error(where + ".kernel is empty");
    const auto& b = field(e, "block", where);
    if (!b.is_array() || b.size() != 3) throw std::runtime_error(where + ".block is not [x, y, z]");
    for (int q = 0; q < 3; ++q) {
      if (!b[q].is_number_integer()) throw std::runtime_error(where + ".block holds a non-integer");
      const long long v = b[q].get<long long>();
      if (v < 1 || v > 1024) throw std::runtime_error(where + ".block side " + std::to_string(v) + " is not in 1..1024");
      out.block[q] = (int)v;
    }
    if ((long long)out.block[0] * out.block[1] * out.block[2] > 1024)
      throw std::runtime_error(where + ".block has more than 1024 threads");
    const auto& s = field(e, "seconds_per_step", where);
    if (!s.is_number() || !(s.get<double>() > 0.0))
      throw std::runtime_error(where + ".seconds_per_step is not a positive number");
    out.seconds_per_step = s.get<double>();
    if (e.contains("z_waves")) {
      const auto& w = e["z_waves"];
      if (!w.is_number_integer() || w.get<long long>() < 0 || w.get<long long>() > kMaxZWaves)
        throw std::runtime_error(where + ".z_waves is not an integer in 0.." + std::to_string(kMaxZWaves));
      out.z_waves = (int)w.get<long long>();
    }
    c.entries[it.key()] = out;
  }
  return c;
}

std::string AutotuneCache::dump() const {
  nlohmann::json e = nlohmann::json::object();
  for (const auto& [key, v] : entries) {
    e[key] = {{"kernel", v.kernel}, {"block", {v.block[0], v.block[1], v.block[2]}},
              {"seconds_per_step", v.seconds_per_step}};
    if (v.z_waves > 0) e[key]["z_waves"] = v.z_waves;
  }
  const nlohmann::json j = {{"version", kVersion},
                            {"device", identity.device},
                            {"driver", identity.driver},
                            {"build", identity.build},
                            {"entries", e}};
  return j.dump(2) + "\n";
}

bool read_cache_file(const std::string& path, AutotuneCache& out, std::string& why) {
  why.clear();
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream text;
  text << in.rdbuf();
  try {
    out = AutotuneCache::parse(text.str());
  } catch (const std::exception& e) {
    why = e.what();
    return false;
  }
  return true;
}

std::string problem_key(const TuneProblem& p) {
  return p.stencil + "/" + to_string(p.precision) + "/" + std::to_string(p.nx) + "x" + std::to_string(p.ny) + "x" +
         std::to_string(p.nz);
}

std::string default_autotune_cache_path() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  // The XDG base directory spec: a relative value is invalid and is ignored.
  if (xdg && xdg[0] == '/') return std::string(xdg) + "/wavescope/autotune.json";
  const char* home = std::getenv("HOME");
  if (home && home[0]) return std::string(home) + "/.cache/wavescope/autotune.json";
  return "";
}

}  // namespace ws
