#include "wave/placement.hpp"

#include <cmath>
#include <sstream>

namespace ws {

namespace {

std::string triple(const std::array<double, 3>& p) {
  std::ostringstream os;
  os.precision(5);
  os << "(" << p[0] << ", " << p[1] << ", " << p[2] << ") m";
  return os.str();
}

std::string where(const std::string& what, const std::array<double, 3>& p, Interpolation how, const GridIndex& node,
                  const DerivedGrid& g) {
  std::ostringstream os;
  os << what << " at " << triple(p);
  if (how == Interpolation::Trilinear) {
    os << ": trilinear over the 8 nodes around it";
  } else {
    const auto at = g.node_position_m(node);
    double off = 0.0;
    for (int d = 0; d < 3; ++d) off = std::fmax(off, std::fabs(at[d] - p[d]));
    os << ": nearest node (" << node.i << ", " << node.j << ", " << node.k << ") at " << triple(at);
    if (off > 1e-9) os << ", " << off * 1e3 << " mm away";
  }
  return os.str();
}

}  // namespace

std::string receiver_unit(const WaveScene& s) {
  for (const auto& src : s.sources)
    if (src.quantity == SourceQuantity::Scheme) return "scheme units";
  return "Pa";
}

std::vector<std::string> placement_report(const WaveScene& s, const DerivedGrid& g) {
  std::vector<std::string> lines;
  if (g.resized(s.room_m)) {
    std::ostringstream os;
    os.precision(5);
    os << "modelled room " << g.modelled_m[0] << " x " << g.modelled_m[1] << " x " << g.modelled_m[2]
       << " m (room_m " << s.room_m[0] << " x " << s.room_m[1] << " x " << s.room_m[2]
       << " m): walls sit on whole cells of X = " << g.spacing_m
       << " m (fixed walls on a node, rigid, absorbing and open walls half a cell beyond the outermost node)";
    lines.push_back(os.str());
  }
  for (size_t q = 0; q < s.sources.size() && q < g.source_nodes.size(); ++q)
    lines.push_back(where("source " + std::to_string(q) + " (" + to_string(s.sources[q].quantity) + ")",
                          s.sources[q].position_m, s.sources[q].interpolation, g.source_nodes[q], g));
  for (size_t q = 0; q < s.receivers.size() && q < g.receiver_nodes.size(); ++q)
    lines.push_back(where("receiver " + s.receivers[q].name, s.receivers[q].position_m, s.receivers[q].interpolation,
                          g.receiver_nodes[q], g));
  lines.push_back("receivers record pressure in " + receiver_unit(s));
  return lines;
}

}  // namespace ws
