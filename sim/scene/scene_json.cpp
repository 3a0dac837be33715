#include "scene/scene_json.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "geometry/geometry.hpp"
#include "scene/json_checks.hpp"

namespace ws {

using nlohmann::json;
using namespace json_checks;

json load_json_file(const std::string& path) {
  // A folder opens like a file on Linux and fails only on the first read.
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw SceneError("scene file '" + path + "' is a folder, not a file");
  std::ifstream in(path);
  if (!in) throw SceneError("cannot open scene file '" + path + "'");
  try {
    return json::parse(in);
  } catch (const json::parse_error& e) {
    throw SceneError("scene file '" + path + "' is not valid JSON: " + e.what());
  }
}

std::string scene_model(const json& j) {
  if (!j.is_object()) throw SceneError("a scene must be a JSON object, got " + show(j));
  if (!j.contains("model")) return "wave3d";
  const std::string m = string(j.at("model"), "model");
  if (m != "wave3d" && m != "sediment2d")
    throw SceneError("model = \"" + m + "\" is not allowed; allowed: wave3d, sediment2d");
  return m;
}

namespace {

// A WAV file or a dry signal: samples at the simulation rate, loaded later
// (audio::load_scene_signals). The file must exist now, so a typo fails at load time.
SourceSignal parse_sampled_signal(const json& j, const std::string& where, const std::string& type,
                                  const std::string& scene_dir, SampledSignalSpec& sampled) {
  SourceSignal s;
  s.kind = SignalKind::Sampled;
  if (type == "wav") {
    only_keys(j, where + ".", {"type", "path", "amplitude", "delay_s"});
    if (!j.contains("path"))
      throw SceneError(where + ".path is required for a wav signal (a WAV file, relative to the scene's folder)");
    sampled.kind = SampledSignalSpec::Kind::Wav;
    sampled.path = string(j.at("path"), where + ".path");
    if (sampled.path.empty()) throw SceneError(where + ".path = \"\" is not allowed: expected a WAV file's path");
    sampled.resolved_path =
        sampled.path[0] == '/' || scene_dir.empty() ? sampled.path : scene_dir + "/" + sampled.path;
    std::error_code ec;
    if (!std::filesystem::exists(sampled.resolved_path, ec))
      throw SceneError(where + ".path = \"" + sampled.path + "\": no such file ('" + sampled.resolved_path + "')");
    if (std::filesystem::is_directory(sampled.resolved_path, ec))
      throw SceneError(where + ".path = \"" + sampled.path + "\" is a folder, not a WAV file");
  } else {
    only_keys(j, where + ".", {"type", "name", "amplitude", "delay_s"});
    std::string allowed;
    for (const auto& n : dry_signal_names()) allowed += (allowed.empty() ? "" : ", ") + n;
    if (!j.contains("name")) throw SceneError(where + ".name is required for a dry signal; allowed: " + allowed);
    sampled.kind = SampledSignalSpec::Kind::Dry;
    sampled.dry_name = string(j.at("name"), where + ".name");
    const auto& names = dry_signal_names();
    if (std::find(names.begin(), names.end(), sampled.dry_name) == names.end())
      throw SceneError(where + ".name = \"" + sampled.dry_name + "\" is not allowed; allowed: " + allowed);
  }
  if (j.contains("amplitude")) s.amplitude = number(j.at("amplitude"), where + ".amplitude");
  if (j.contains("delay_s")) {
    s.delay_s = number(j.at("delay_s"), where + ".delay_s");
    if (!(s.delay_s >= 0)) throw SceneError(where + ".delay_s = " + show(j.at("delay_s")) + " is not allowed: expected >= 0");
  }
  return s;
}

SourceSignal parse_signal(const json& j, const std::string& where, const std::string& scene_dir,
                          SampledSignalSpec& sampled) {
  object_at(j, where);
  const std::string type = j.contains("type") ? string(j.at("type"), where + ".type") : "raised_cosine";
  if (type == "wav" || type == "dry") return parse_sampled_signal(j, where, type, scene_dir, sampled);
  only_keys(j, where + ".", {"type", "amplitude", "width_s", "frequency_hz", "delay_s"});
  SourceSignal s;
  if (type == "raised_cosine") s.kind = SignalKind::RaisedCosine;
  else if (type == "gaussian") s.kind = SignalKind::Gaussian;
  else if (type == "sine") s.kind = SignalKind::Sine;
  else if (type == "impulse") s.kind = SignalKind::Impulse;
  else if (type == "ricker") s.kind = SignalKind::Ricker;
  else if (type == "gaussian_derivative") s.kind = SignalKind::GaussianDerivative;
  else
    throw SceneError(where + ".type = \"" + type +
                     "\" is not allowed; allowed: raised_cosine, gaussian, gaussian_derivative, ricker, sine, impulse, "
                     "wav, dry");
  if (j.contains("amplitude")) s.amplitude = number(j.at("amplitude"), where + ".amplitude");
  if (j.contains("width_s")) s.width_s = positive(j.at("width_s"), where + ".width_s");
  if (j.contains("delay_s")) {
    s.delay_s = number(j.at("delay_s"), where + ".delay_s");
    if (s.delay_s < 0) throw SceneError(where + ".delay_s = " + show(j.at("delay_s")) + " is not allowed: expected >= 0");
  }
  if (j.contains("frequency_hz")) s.frequency_hz = positive(j.at("frequency_hz"), where + ".frequency_hz");
  if ((s.kind == SignalKind::Sine || s.kind == SignalKind::Ricker) && !j.contains("frequency_hz"))
    throw SceneError(where + ".frequency_hz is required for a " + to_string(s.kind) + " signal (a number > 0)");
  return s;
}

// One of `names` (the enum values in the same order), or SceneError listing them.
template <class E>
E parse_choice(const json& v, const std::string& where, std::initializer_list<std::pair<const char*, E>> names) {
  const std::string text = string(v, where);
  std::string allowed;
  for (const auto& [name, value] : names) {
    if (text == name) return value;
    allowed += (allowed.empty() ? "" : ", ") + std::string(name);
  }
  throw SceneError(where + " = \"" + text + "\" is not allowed; allowed: " + allowed);
}

Interpolation parse_interpolation(const json& v, const std::string& where) {
  return parse_choice<Interpolation>(v, where, {{"nearest", Interpolation::Nearest}, {"trilinear", Interpolation::Trilinear}});
}

SourceSpec parse_source(const json& j, const std::string& w, const std::string& scene_dir) {
  object_at(j, w);
  only_keys(j, w + ".", {"position_m", "signal", "quantity", "injection", "interpolation"});
  if (!j.contains("position_m")) throw SceneError(w + ".position_m is required ([x, y, z] in metres)");
  SourceSpec src;
  src.position_m = vec3(j.at("position_m"), w + ".position_m");
  if (j.contains("signal")) src.signal = parse_signal(j.at("signal"), w + ".signal", scene_dir, src.sampled);
  if (j.contains("quantity"))
    src.quantity = parse_choice<SourceQuantity>(
        j.at("quantity"), w + ".quantity",
        {{"volume_velocity", SourceQuantity::VolumeVelocity}, {"scheme", SourceQuantity::Scheme}});
  if (j.contains("injection")) {
    if (src.quantity != SourceQuantity::Scheme)
      throw SceneError(w + ".injection is only allowed for \"quantity\": \"scheme\" sources (a volume velocity is "
                       "always injected as its centred difference)");
    src.injection = parse_choice<Injection>(j.at("injection"), w + ".injection",
                                            {{"value", Injection::Value}, {"difference", Injection::Difference}});
  } else if (src.quantity == SourceQuantity::Scheme) {
    src.injection = Injection::Value;  // today's raw soft source
  }
  if (j.contains("interpolation")) src.interpolation = parse_interpolation(j.at("interpolation"), w + ".interpolation");
  return src;
}

WallCondition parse_wall(const json& v, const std::string& where) {
  const std::string allowed = "\"fixed\", \"rigid\", \"open\", {\"absorption\": a in [0, 1]} or {\"admittance\": beta >= 0}";
  if (v.is_string()) {
    const std::string k = v.get<std::string>();
    if (k == "fixed") return WallCondition::fixed();
    if (k == "rigid") return WallCondition::rigid();
    if (k == "open") return WallCondition::open();
    throw SceneError(where + " = " + show(v) + " is not allowed; allowed: " + allowed);
  }
  if (v.is_object() && v.size() == 1 && v.contains("absorption")) {
    const double a = number(v.at("absorption"), where + ".absorption");
    if (!(a >= 0.0 && a <= 1.0))
      throw SceneError(where + ".absorption = " + show(v.at("absorption")) + " is not allowed: expected 0 .. 1");
    return WallCondition::with_absorption(a);
  }
  if (v.is_object() && v.size() == 1 && v.contains("admittance")) {
    const double b = number(v.at("admittance"), where + ".admittance");
    if (!(b >= 0.0 && b < 1e6))
      throw SceneError(where + ".admittance = " + show(v.at("admittance")) + " is not allowed: expected >= 0");
    return b == 0.0 ? WallCondition::rigid() : WallCondition::with_admittance(b);
  }
  throw SceneError(where + " = " + show(v) + " is not allowed; allowed: " + allowed);
}

BoxWalls parse_walls(const json& v) {
  BoxWalls w{};
  const bool per_wall = v.is_object() && !v.contains("absorption") && !v.contains("admittance");
  if (!per_wall) {
    w.fill(parse_wall(v, "boundary"));
    return w;
  }
  only_keys(v, "boundary.", {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"});
  for (int d = 0; d < 6; ++d)
    if (v.contains(wall_name(d))) w[d] = parse_wall(v.at(wall_name(d)), std::string("boundary.") + wall_name(d));
  return w;
}

std::string wall_text(const WallCondition& c) {
  switch (c.kind) {
    case WallKind::Fixed: return "fixed";
    case WallKind::Rigid: return "rigid";
    case WallKind::Open: return "open";
    case WallKind::Absorbing: return "";
  }
  return "";
}

}  // namespace

WaveScene parse_wave_scene(const json& j, const std::string& scene_dir) {
  if (scene_model(j) != "wave3d")  // else every sediment key would be refused as unknown
    throw SceneError("model = " + show(j.at("model")) +
                     " is not allowed for a wave scene; allowed: wave3d (sediment scenes run in the GUI, "
                     "`wavescope render` and `wavescope bench sediment`)");
  only_keys(j, "", {"model", "name", "room_m", "sound_speed_m_s", "air_density_kg_m3", "sample_rate_hz", "courant", "courant_fraction",
                    "stencil", "precision", "boundary", "sources", "receivers", "duration_s", "materials",
                    "obstacles"});
  WaveScene s;
  if (j.contains("name")) s.name = string(j.at("name"), "name");
  if (j.contains("room_m")) {
    s.room_m = vec3(j.at("room_m"), "room_m");
    for (int d = 0; d < 3; ++d)
      if (!(s.room_m[d] > 0))
        throw SceneError("room_m[" + std::to_string(d) + "] = " + show(j.at("room_m")[d]) +
                         " is not allowed: room sizes must be > 0 m");
  }
  if (j.contains("sound_speed_m_s")) s.sound_speed_m_s = positive(j.at("sound_speed_m_s"), "sound_speed_m_s");
  if (j.contains("air_density_kg_m3")) {
    s.air_density_kg_m3 = number(j.at("air_density_kg_m3"), "air_density_kg_m3");
    if (!(s.air_density_kg_m3 > 0.0 && s.air_density_kg_m3 < 1e5))
      throw SceneError("air_density_kg_m3 = " + show(j.at("air_density_kg_m3")) +
                       " is not allowed: expected a density > 0 and < 1e5 kg/m^3");
  }
  if (j.contains("sample_rate_hz")) {
    s.sample_rate_hz = positive(j.at("sample_rate_hz"), "sample_rate_hz");
    if (s.sample_rate_hz < 1000 || s.sample_rate_hz > 1e7)
      throw SceneError("sample_rate_hz = " + show(j.at("sample_rate_hz")) + " is not allowed: expected 1000 .. 1e7 Hz");
  }
  if (j.contains("courant")) s.courant = positive(j.at("courant"), "courant");
  if (j.contains("courant_fraction")) s.courant_fraction = positive(j.at("courant_fraction"), "courant_fraction");
  if (j.contains("stencil")) s.stencil = string(j.at("stencil"), "stencil");
  if (j.contains("precision")) {
    const std::string p = string(j.at("precision"), "precision");
    try {
      s.precision = parse_precision(p);
    } catch (const std::invalid_argument&) {
      throw SceneError("precision = \"" + p + "\" is not allowed; allowed: float, double");
    }
  }
  if (j.contains("boundary")) s.walls = parse_walls(j.at("boundary"));
  for (const char* key : {"materials", "obstacles"})
    if (j.contains(key)) s.geometry[key] = j.at(key);
  if (j.contains("duration_s")) s.duration_s = positive(j.at("duration_s"), "duration_s");
  if (j.contains("sources")) {
    const json& a = j.at("sources");
    if (!a.is_array()) throw SceneError("sources = " + show(a) + " is not allowed: expected an array of sources");
    for (size_t q = 0; q < a.size(); ++q) {
      s.sources.push_back(parse_source(a[q], "sources[" + std::to_string(q) + "]", scene_dir));
    }
  }
  if (j.contains("receivers")) {
    const json& a = j.at("receivers");
    if (!a.is_array()) throw SceneError("receivers = " + show(a) + " is not allowed: expected an array of receivers");
    for (size_t q = 0; q < a.size(); ++q) {
      const std::string w = "receivers[" + std::to_string(q) + "]";
      object_at(a[q], w);
      only_keys(a[q], w + ".", {"name", "position_m", "interpolation"});
      if (!a[q].contains("position_m")) throw SceneError(w + ".position_m is required ([x, y, z] in metres)");
      ReceiverSpec r;
      r.name = a[q].contains("name") ? string(a[q].at("name"), w + ".name") : "r" + std::to_string(q);
      r.position_m = vec3(a[q].at("position_m"), w + ".position_m");
      if (a[q].contains("interpolation"))
        r.interpolation = parse_interpolation(a[q].at("interpolation"), w + ".interpolation");
      s.receivers.push_back(r);
    }
  }
  s.scene_dir = scene_dir;
  // Materials and obstacles (mesh files included) are checked now, so a bad file never replaces a good scene.
  if (!s.geometry.empty()) geo::parse_geometry(s.geometry, s.scene_dir);
  // Derive once so that every error (stencil, Courant, positions) surfaces at load time.
  derive_grid(s);
  return s;
}

WaveScene load_wave_scene(const std::string& path) {
  const json j = load_json_file(path);
  try {
    const auto slash = path.find_last_of('/');
    return parse_wave_scene(j, slash == std::string::npos ? "." : path.substr(0, slash));
  } catch (const SceneError& e) {
    throw SceneError(path + ": " + e.what());
  }
}

json to_json(const WaveScene& s) {
  json j;
  j["model"] = "wave3d";
  j["name"] = s.name;
  j["room_m"] = s.room_m;
  j["sound_speed_m_s"] = s.sound_speed_m_s;
  j["air_density_kg_m3"] = s.air_density_kg_m3;
  j["sample_rate_hz"] = s.sample_rate_hz;
  if (s.courant) j["courant"] = *s.courant;
  else j["courant_fraction"] = s.courant_fraction;
  j["stencil"] = s.stencil;
  j["precision"] = to_string(s.precision);
  json walls = json::object();
  for (int d = 0; d < 6; ++d) {
    const std::string t = wall_text(s.walls[d]);
    walls[wall_name(d)] = t.empty() ? json{{"admittance", s.walls[d].admittance}} : json(t);
  }
  j["boundary"] = walls;
  for (auto it = s.geometry.begin(); it != s.geometry.end(); ++it) j[it.key()] = it.value();
  j["duration_s"] = s.duration_s;
  j["sources"] = json::array();
  for (const auto& src : s.sources) {
    json sig{{"type", to_string(src.signal.kind)}, {"amplitude", src.signal.amplitude},
             {"width_s", src.signal.width_s}, {"delay_s", src.signal.delay_s}};
    if (src.signal.kind == SignalKind::Sine || src.signal.kind == SignalKind::Ricker)
      sig["frequency_hz"] = src.signal.frequency_hz;
    if (src.signal.kind == SignalKind::Sampled) {
      sig = {{"amplitude", src.signal.amplitude}, {"delay_s", src.signal.delay_s}};
      if (src.sampled.kind == SampledSignalSpec::Kind::Wav) {
        sig["type"] = "wav";
        sig["path"] = src.sampled.path;
      } else {
        sig["type"] = "dry";
        sig["name"] = src.sampled.dry_name;
      }
    }
    json js{{"position_m", src.position_m}, {"signal", sig}, {"quantity", to_string(src.quantity)},
            {"interpolation", to_string(src.interpolation)}};
    if (src.quantity == SourceQuantity::Scheme) js["injection"] = to_string(src.injection);
    j["sources"].push_back(js);
  }
  j["receivers"] = json::array();
  for (const auto& r : s.receivers)
    j["receivers"].push_back(
        {{"name", r.name}, {"position_m", r.position_m}, {"interpolation", to_string(r.interpolation)}});
  return j;
}

}  // namespace ws
