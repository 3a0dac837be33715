#include "cuda/plane_events.hpp"

#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace ws {

template <class T>
PlaneEvents<T> make_plane_events(const ColumnEvents& g, int nz, const std::vector<uint8_t>& mask,
                                 const std::vector<uint8_t>& nf, const std::vector<T>& cd, const std::vector<T>& cl) {
  if (g.group < 2 || g.group > kPlaneLanes)
    throw std::invalid_argument("make_plane_events: events listed per group of " + std::to_string(g.group) +
                                " columns; allowed: 2 to " + std::to_string(kPlaneLanes));
  if (g.lane.size() != g.code.size() || g.k.size() != g.code.size() || g.start.empty())
    throw std::invalid_argument("make_plane_events: the listing's k, code and lane arrays differ in length");
  PlaneEvents<T> out;
  out.group = g.group;
  const size_t groups = g.start.size() - 1;
  out.start.assign(groups + 1, 0);
  std::map<std::pair<T, T>, uint32_t> ids;
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
          const auto it = ids.emplace(std::make_pair(cd[b], cl[b]), (uint32_t)ids.size()).first;
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
  out.coeff.assign(2 * ids.size(), T(0));
  for (const auto& [pair, id] : ids) {
    out.coeff[2 * (size_t)id] = pair.first;
    out.coeff[2 * (size_t)id + 1] = pair.second;
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
