#pragma once
// A wave scene: the room, the medium, the discretisation and the sources and
// receivers, all in SI units; plus what follows from them (grid spacing, time
// step, grid dimensions, node indices).
#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "boundary/wall_conditions.hpp"
#include "core/precision.hpp"
#include "core/source_signal.hpp"
#include "stencil/stencil.hpp"

namespace ws {

// Bad scene input: the message names the key, the value and what is allowed.
class SceneError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct SourceSpec {
  std::array<double, 3> position_m{};
  SourceSignal signal;
};

struct ReceiverSpec {
  std::string name;
  std::array<double, 3> position_m{};
};

struct WaveScene {
  std::string name = "untitled";
  std::array<double, 3> room_m{3.4, 4.0, 2.8};
  double sound_speed_m_s = 343.0;
  double sample_rate_hz = 44100.0;
  std::optional<double> courant;           // absent: the stencil's stability limit
  double courant_fraction = 1.0;           // used when courant is absent
  std::string stencil = "7pt";
  Precision precision = Precision::Float;
  BoxWalls walls{};                        // x_min, x_max, y_min, y_max, z_min, z_max; all fixed by default
  nlohmann::json geometry = nlohmann::json::object();  // "materials" and "obstacles", parsed by sim/geometry
  std::string scene_dir = ".";             // where relative mesh paths are resolved
  std::vector<SourceSpec> sources;
  std::vector<ReceiverSpec> receivers;
  double duration_s = 0.1;                 // default length of `wavescope run`
};

struct GridIndex {
  int i = 0, j = 0, k = 0;
};

// Everything derived from a scene: X = c T / lambda, dimensions, node indices.
struct DerivedGrid {
  Stencil stencil;
  double dt_s = 0.0;
  double courant = 0.0;   // lambda = c T / X
  double spacing_m = 0.0; // X
  int nx = 0, ny = 0, nz = 0;  // interior (updated) points
  std::vector<GridIndex> source_nodes;
  std::vector<GridIndex> receiver_nodes;
  long long points() const { return (long long)nx * ny * nz; }
};

// Position in metres of interior node i along an axis: the boundary nodes sit
// at 0 and at the far wall, interior node i at (i + 1) X.
inline double node_position_m(int i, double spacing_m) { return (i + 1) * spacing_m; }

DerivedGrid derive_grid(const WaveScene& scene);

// Grid index of a position, or SceneError naming `what` when it lies outside the room.
GridIndex position_to_node(const std::array<double, 3>& p_m, const WaveScene& scene, const DerivedGrid& g,
                           const std::string& what);

}  // namespace ws
