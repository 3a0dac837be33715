#pragma once
// A wave scene: the room, the medium, the discretisation and the sources and
// receivers, all in SI units; plus what follows from them (grid spacing, time
// step, grid dimensions, node indices).
#include <array>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "boundary/wall_conditions.hpp"
#include "core/precision.hpp"
#include "core/sample_stream.hpp"
#include "core/source_signal.hpp"
#include "stencil/stencil.hpp"

namespace ws {

// Bad scene input: the message names the key, the value and what is allowed.
class SceneError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// What a source's signal is (docs/physics.md):
//   volume_velocity: q(t) in m^3/s, an acoustic monopole: the free-field pressure is
//                    rho q'(t - r/c) / (4 pi r) Pa whatever the sample rate;
//   scheme:          a raw number added to one node per step (benchmarks, experts).
enum class SourceQuantity { VolumeVelocity, Scheme };
// How a position maps onto the grid: the nearest node, or the 8 nodes around it
// with trilinear weights (sources spread, receivers read).
enum class Interpolation { Nearest, Trilinear };

struct SourceSpec {
  std::array<double, 3> position_m{};
  SourceSignal signal;
  SourceQuantity quantity = SourceQuantity::VolumeVelocity;
  Injection injection = Injection::Difference;  // scheme sources may choose; volume velocity is always Difference
  Interpolation interpolation = Interpolation::Nearest;
  SampledSignalSpec sampled;  // signal.kind == Sampled: a WAV file or a dry signal, and its stream once loaded
};

struct ReceiverSpec {
  std::string name;
  std::array<double, 3> position_m{};
  Interpolation interpolation = Interpolation::Nearest;
};

inline const char* to_string(SourceQuantity q) {
  return q == SourceQuantity::VolumeVelocity ? "volume_velocity" : "scheme";
}
inline const char* to_string(Interpolation i) { return i == Interpolation::Nearest ? "nearest" : "trilinear"; }
inline const char* to_string(Injection i) { return i == Injection::Value ? "value" : "difference"; }

struct WaveScene {
  std::string name = "untitled";
  std::array<double, 3> room_m{3.4, 4.0, 2.8};
  double sound_speed_m_s = 343.0;
  double air_density_kg_m3 = 1.2;
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

// One node of a source's spreading or a receiver's reading, with its weight.
struct GridTap {
  GridIndex node;
  double weight = 1.0;
};

// Where the walls sit relative to the nodes (docs/physics.md, "Walls"):
//   fixed wall (Dirichlet): a halo node lies on the wall, the first interior node one cell in;
//   rigid, absorbing, open walls (cell-centred, finite volume): the wall is the face half a
//   cell beyond the outermost node.
// So along an axis with walls of offsets o_min, o_max (1 or 1/2 cells) and n interior
// nodes, node i sits at (i + o_min) X and the modelled wall-to-wall distance is
// (n - 1 + o_min + o_max) X; n = round(L / X + 1 - o_min - o_max) keeps it within X/2 of L.
inline double wall_offset_cells(const WallCondition& w) { return w.kind == WallKind::Fixed ? 1.0 : 0.5; }

// Everything derived from a scene: X = c T / lambda, dimensions, node indices.
struct DerivedGrid {
  Stencil stencil;
  double dt_s = 0.0;
  double courant = 0.0;   // lambda = c T / X
  double spacing_m = 0.0; // X
  int nx = 0, ny = 0, nz = 0;  // interior (updated) points
  std::array<double, 3> first_node_m{};  // position of interior node 0 along each axis
  std::array<double, 3> modelled_m{};    // wall-to-wall distance the grid models
  std::vector<GridIndex> source_nodes;   // nearest node of each source
  std::vector<GridIndex> receiver_nodes; // nearest node of each receiver
  std::vector<std::vector<GridTap>> source_taps;    // per source: the nodes it spreads onto
  std::vector<std::vector<GridTap>> receiver_taps;  // per receiver: the nodes it reads
  long long points() const { return (long long)nx * ny * nz; }
  int dim(int axis) const { return axis == 0 ? nx : axis == 1 ? ny : nz; }
  // Position in metres of interior node i along an axis.
  double node_position_m(int axis, int i) const { return first_node_m[axis] + i * spacing_m; }
  std::array<double, 3> node_position_m(const GridIndex& g) const {
    return {node_position_m(0, g.i), node_position_m(1, g.j), node_position_m(2, g.k)};
  }
  // Whether the modelled room differs from room_m by more than rounding.
  bool resized(const std::array<double, 3>& room_m) const {
    for (int d = 0; d < 3; ++d)
      if (std::fabs(modelled_m[d] - room_m[d]) > 1e-9 * room_m[d]) return true;
    return false;
  }
};

DerivedGrid derive_grid(const WaveScene& scene);

// Grid index of a position, or SceneError naming `what` when it lies outside the room.
GridIndex position_to_node(const std::array<double, 3>& p_m, const WaveScene& scene, const DerivedGrid& g,
                           const std::string& what);
// The nodes a position maps to: the nearest (weight 1) or the trilinear 8 (weights
// summing to 1, positions beyond the outermost nodes clamped onto them).
std::vector<GridTap> position_taps(const std::array<double, 3>& p_m, Interpolation how, const WaveScene& scene,
                                   const DerivedGrid& g, const std::string& what);

}  // namespace ws
