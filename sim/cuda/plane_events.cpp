#include "cuda/plane_events.hpp"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "core/value_bits.hpp"

namespace ws {

template <class T>
PlaneEvents<T> make_plane_events(const ColumnEvents& g, int nz, const std::vector<uint8_t>& mask,
                                 const std::vector<uint8_t>& nf, const std::vector<T>& cd, const std::vector<T>& cl) {
  if (g.group < 2 || g.group > kPlaneLanes)
    throw std::invalid_argument("make_plane_events: events listed per group of " + std::to_string(g.group) +
                                " columns; allowed: 2 to " + std::to_string(kPlaneLanes));
  if (g.lane.size() != g.code.size() || g.k.size() != g.code.size())
    throw std::invalid_argument("make_plane_events: the listing's k, code and lane arrays differ in length (" +
                                std::to_string(g.k.size()) + ", " + std::to_string(g.code.size()) + ", " +
                                std::to_string(g.lane.size()) + ")");
  if (g.start.empty() || g.start.front() != 0 || g.start.back() != (int)g.code.size())
    throw std::invalid_argument("make_plane_events: the listing's start must run from 0 to its " +
                                std::to_string(g.code.size()) + " events (groups + 1 entries)");
  for (size_t c = 0; c + 1 < g.start.size(); ++c) {
    if (g.start[c + 1] < g.start[c])
      throw std::invalid_argument("make_plane_events: group " + std::to_string(c) + " starts at event " +
                                  std::to_string(g.start[c]) + " and ends before it, at " +
                                  std::to_string(g.start[c + 1]));
    for (int e = g.start[c]; e < g.start[c + 1]; ++e) {
      const int k = g.k[(size_t)e];
      if (k < 0 || k >= nz || (e > g.start[c] && k < g.k[(size_t)e - 1]))
        throw std::invalid_argument("make_plane_events: event " + std::to_string(e) + " of group " +
                                    std::to_string(c) + " at plane " + std::to_string(k) +
                                    "; allowed: planes 0 to " + std::to_string(nz - 1) +
                                    ", not before the group's previous event");
    }
  }
  PlaneEvents<T> out;
  out.group = g.group;
  const size_t groups = g.start.size() - 1;
  out.start.assign(groups + 1, 0);
  // Pairs are told apart by their bits (value_bits.hpp: +0 and -0 are two pairs).
  std::map<std::pair<uint64_t, uint64_t>, uint32_t> ids;
  std::vector<std::pair<T, T>> pairs;
  for (size_t c = 0; c < groups; ++c) {
    const size_t first_rec = out.rec.size();
    for (int e = g.start[c]; e < g.start[c + 1];) {
      const int k = g.k[(size_t)e];
      PlaneRecord r;
      uint8_t taken = 0;  // lanes with a boundary, solid or plain event at this plane
      for (; e < g.start[c + 1] && g.k[(size_t)e] == k; ++e) {
        const int code = g.code[(size_t)e];
        const int lane = g.lane[(size_t)e];
        if (lane >= g.group)
          throw std::invalid_argument("make_plane_events: event " + std::to_string(e) + " at lane " +
                                      std::to_string(lane) + " of a group of " + std::to_string(g.group));
        if (code < kEventPlain) {  // a source
          if (r.src < 0) r.src = (int)out.src_code.size();
          else out.src_last.back() = 0;
          out.src_code.push_back(code);
          out.src_lane.push_back((uint8_t)lane);
          out.src_last.push_back(1);
          continue;
        }
        if (taken & (1u << lane))
          throw std::invalid_argument("make_plane_events: two boundary, solid or plain events at lane " +
                                      std::to_string(lane) + " of plane " + std::to_string(k) + " (event " +
                                      std::to_string(e) + ")");
        taken |= (uint8_t)(1u << lane);
        if (code == kEventSolid) {
          r.lane[lane] = plane_lane_word(kLaneSolid, 0, 0, 0);
        } else if (code == kEventPlain) {
          r.lane[lane] = plane_lane_word(kLanePlain, 0, 0, 0);
        } else {
          const size_t b = (size_t)code;
          if (b >= mask.size() || b >= nf.size() || b >= cd.size() || b >= cl.size())
            throw std::invalid_argument("make_plane_events: event " + std::to_string(e) + " names boundary node " +
                                        std::to_string(b) + " of " + std::to_string(mask.size()));
          if (mask[b] > 63 || nf[b] > 7)
            throw std::invalid_argument("make_plane_events: boundary node " + std::to_string(b) + " has mask " +
                                        std::to_string(mask[b]) + " and fixed count " + std::to_string(nf[b]) +
                                        "; allowed: a 6-bit mask and at most 7");
          const auto [it, added] =
              ids.emplace(std::make_pair(value_bits(cd[b]), value_bits(cl[b])), (uint32_t)ids.size());
          if (added) pairs.emplace_back(cd[b], cl[b]);
          if (it->second > kMaxPlaneCoeffId)
            throw std::length_error("make_plane_events: more than " + std::to_string(kMaxPlaneCoeffId + 1) +
                                    " distinct boundary coefficient pairs");
          r.lane[lane] = plane_lane_word(kLaneBoundary, mask[b], nf[b], it->second);
        }
      }
      if (out.rec.size() > first_rec) out.rec.back().next_k = k;
      out.k.push_back(k);
      out.rec.push_back(r);
    }
    out.start[c + 1] = (int)out.rec.size();
  }
  for (const auto& [a, b] : pairs) {
    out.coeff.push_back(a);
    out.coeff.push_back(b);
  }
  // The cursors over the records, as over events.
  ColumnEvents planes;
  planes.start = out.start;
  planes.k = out.k;
  make_event_cursors(planes, (int64_t)groups, nz);
  out.cursor_row = std::move(planes.cursor_row);
  out.first_at = std::move(planes.first_at);
  out.cursor_columns = planes.cursor_columns;
  return out;
}

template PlaneEvents<float> make_plane_events(const ColumnEvents&, int, const std::vector<uint8_t>&,
                                              const std::vector<uint8_t>&, const std::vector<float>&,
                                              const std::vector<float>&);
template PlaneEvents<double> make_plane_events(const ColumnEvents&, int, const std::vector<uint8_t>&,
                                               const std::vector<uint8_t>&, const std::vector<double>&,
                                               const std::vector<double>&);

}  // namespace ws
