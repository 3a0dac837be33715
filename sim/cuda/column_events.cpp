#include "cuda/column_events.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_set>

namespace ws {

namespace {

struct Event {
  int64_t column;
  int k;
  int kind;  // 0: boundary, solid or plain, 1: source
  int seq;   // the order of the input arrays
  int code;
};

FieldLayout::Point interior_point(const FieldLayout& L, int64_t q) {
  const FieldLayout::Point p = L.point(q);
  if (q < 0 || q >= L.total || p.i < 0 || p.i >= L.nx || p.j < 0 || p.j >= L.ny || p.k < 0 || p.k >= L.nz)
    throw std::invalid_argument("index " + std::to_string(q) + " is not an interior point of the " +
                                std::to_string(L.nx) + "x" + std::to_string(L.ny) + "x" + std::to_string(L.nz) +
                                " grid");
  return p;
}

// Calls f(i, j, k) for every node on a face of the box, once each.
template <class F>
void for_each_face_node(const FieldLayout& L, F f) {
  for (int k = 0; k < L.nz; ++k)
    for (int j = 0; j < L.ny; ++j) {
      if (k == 0 || k == L.nz - 1 || j == 0 || j == L.ny - 1) {
        for (int i = 0; i < L.nx; ++i) f(i, j, k);
      } else {
        f(0, j, k);
        if (L.nx > 1) f(L.nx - 1, j, k);
      }
    }
}

// Whether solid node q (at p) is enclosed: its six neighbours are solid nodes of the grid,
// and neither it nor any of them is a source (column_events.hpp says why such a node needs
// no event).
bool enclosed_solid(const FieldLayout& L, const FieldLayout::Point& p, int64_t q,
                    const std::unordered_set<int64_t>& solids, const std::unordered_set<int64_t>& sources) {
  if (p.i == 0 || p.j == 0 || p.k == 0 || p.i == L.nx - 1 || p.j == L.ny - 1 || p.k == L.nz - 1) return false;
  if (sources.count(q)) return false;
  const int64_t nb[6] = {q - 1, q + 1, q - L.pitch, q + L.pitch, q - L.plane, q + L.plane};
  for (int64_t n : nb)
    if (!solids.count(n) || sources.count(n)) return false;
  return true;
}

}  // namespace

ColumnEvents make_column_events(const FieldLayout& L, const std::vector<int64_t>& bnd,
                                const std::vector<int>& bnd_coeffs, const std::vector<int64_t>& solid,
                                const std::vector<int64_t>& src) {
  if (bnd_coeffs.size() != bnd.size())
    throw std::invalid_argument("make_column_events: " + std::to_string(bnd_coeffs.size()) +
                                " coefficient ids for " + std::to_string(bnd.size()) + " boundary nodes");
  ColumnEvents out;
  out.class_bnd.fill(-1);
  // Each class's usual coefficients: the id most of its boundary nodes have.
  std::vector<int> cls(bnd.size());
  std::array<std::map<int, int>, kFaceClasses> ids;
  for (size_t r = 0; r < bnd.size(); ++r) {
    const FieldLayout::Point p = interior_point(L, bnd[r]);
    cls[r] = face_class(L, p.i, p.j, p.k);
    if (cls[r] != 0) ++ids[(size_t)cls[r]][bnd_coeffs[r]];
  }
  std::array<int, kFaceClasses> usual;
  usual.fill(-1);
  for (int c = 1; c < kFaceClasses; ++c) {
    int best = 0;
    for (const auto& [id, n] : ids[(size_t)c])
      if (n > best) best = n, usual[(size_t)c] = id;
  }
  for (size_t r = 0; r < bnd.size(); ++r)
    if (cls[r] != 0 && out.class_bnd[(size_t)cls[r]] < 0 && bnd_coeffs[r] == usual[(size_t)cls[r]])
      out.class_bnd[(size_t)cls[r]] = (int)r;

  std::vector<Event> ev;
  auto add = [&](const FieldLayout::Point& p, int kind, int seq, int code) {
    ev.push_back({p.i + (int64_t)L.nx * p.j, p.k, kind, seq, code});
  };
  for (size_t r = 0; r < bnd.size(); ++r)
    if (cls[r] == 0 || bnd_coeffs[r] != usual[(size_t)cls[r]]) add(L.point(bnd[r]), 0, (int)r, (int)r);
  const std::unordered_set<int64_t> listed(bnd.begin(), bnd.end());
  std::unordered_set<int64_t> solids(solid.begin(), solid.end());
  for (int64_t q : solid)
    if (listed.count(q))
      throw std::invalid_argument("node " + std::to_string(q) + " is listed both as a boundary node and as a solid");
  const std::unordered_set<int64_t> sources(src.begin(), src.end());
  for (size_t r = 0; r < solid.size(); ++r) {
    const FieldLayout::Point p = interior_point(L, solid[r]);
    if (!enclosed_solid(L, p, solid[r], solids, sources)) add(p, 0, (int)(bnd.size() + r), kEventSolid);
  }
  // Face nodes of a class with boundary coefficients that are neither boundary nodes nor solids.
  for_each_face_node(L, [&](int i, int j, int k) {
    if (out.class_bnd[(size_t)face_class(L, i, j, k)] < 0) return;
    const int64_t q = L.index(i, j, k);
    if (!listed.count(q) && !solids.count(q)) add({i, j, k}, 0, (int)(bnd.size() + solid.size()), kEventPlain);
  });
  for (size_t r = 0; r < src.size(); ++r) add(interior_point(L, src[r]), 1, (int)r, event_source_code((int)r));
  std::sort(ev.begin(), ev.end(), [](const Event& a, const Event& b) {
    return std::tie(a.column, a.k, a.kind, a.seq) < std::tie(b.column, b.k, b.kind, b.seq);
  });
  const int64_t columns = (int64_t)L.nx * L.ny;
  out.start.assign((size_t)columns + 1, 0);
  for (const Event& e : ev) {
    ++out.start[(size_t)e.column + 1];
    out.k.push_back(e.k);
    out.code.push_back(e.code);
  }
  for (int64_t c = 0; c < columns; ++c) out.start[(size_t)c + 1] += out.start[(size_t)c];
  make_event_cursors(out, columns, L.nz);
  return out;
}

ColumnEvents group_column_events(const ColumnEvents& ev, int nx, int ny, int nz, int group) {
  if (group < 2 || group > 255)
    throw std::invalid_argument("group_column_events: a group of " + std::to_string(group) +
                                " columns; allowed: 2 to 255");
  if (ev.group != 1 || ev.start.size() != (size_t)nx * (size_t)ny + 1)
    throw std::invalid_argument("group_column_events: the events are not listed per column of a " +
                                std::to_string(nx) + " x " + std::to_string(ny) + " grid");
  ColumnEvents out;
  out.class_bnd = ev.class_bnd;
  out.group = group;
  const int groups_x = (nx + group - 1) / group;
  const int64_t groups = (int64_t)groups_x * ny;
  out.start.assign((size_t)groups + 1, 0);
  out.k.reserve(ev.k.size());
  out.code.reserve(ev.code.size());
  out.lane.reserve(ev.k.size());
  struct Listed {
    int k, lane, at;  // plane, lane, position in its column's list
    int e;            // index in ev
  };
  std::vector<Listed> g;
  for (int j = 0; j < ny; ++j)
    for (int gx = 0; gx < groups_x; ++gx) {
      g.clear();
      for (int q = 0; q < group && gx * group + q < nx; ++q) {
        const int64_t c = gx * group + q + (int64_t)nx * j;
        for (int e = ev.start[(size_t)c]; e < ev.start[(size_t)c + 1]; ++e)
          g.push_back({ev.k[(size_t)e], q, e - ev.start[(size_t)c], e});
      }
      // By plane, then lane; each lane's events keep their order.
      std::sort(g.begin(), g.end(), [](const Listed& a, const Listed& b) {
        return std::tie(a.k, a.lane, a.at) < std::tie(b.k, b.lane, b.at);
      });
      const int64_t id = gx + (int64_t)groups_x * j;
      out.start[(size_t)id + 1] = out.start[(size_t)id] + (int)g.size();
      for (const Listed& x : g) {
        out.k.push_back(x.k);
        out.code.push_back(ev.code[(size_t)x.e]);
        out.lane.push_back((uint8_t)x.lane);
      }
    }
  make_event_cursors(out, groups, nz);
  return out;
}

void make_event_cursors(ColumnEvents& ev, int64_t columns, int nz) {
  ev.cursor_row.assign((size_t)columns, -1);
  ev.first_at.clear();
  ev.cursor_columns = 0;
  for (int64_t c = 0; c < columns; ++c) {
    const int n = ev.start[(size_t)c + 1] - ev.start[(size_t)c];
    if (n > kMaxCursorOffset) {
      ev.cursor_row.assign((size_t)columns, -1);
      ev.cursor_columns = 0;
      return;
    }
    if (n > 0) ev.cursor_row[(size_t)c] = ev.cursor_columns++;
  }
  const size_t rows = (size_t)ev.cursor_columns;
  ev.first_at.assign(rows * (size_t)std::max(nz, 0), 0);
  for (int64_t c = 0; c < columns; ++c) {
    const int row = ev.cursor_row[(size_t)c];
    if (row < 0) continue;
    const int e0 = ev.start[(size_t)c], e1 = ev.start[(size_t)c + 1];
    int e = e0;
    for (int k = 0; k < nz; ++k) {
      while (e < e1 && ev.k[(size_t)e] < k) ++e;
      ev.first_at[(size_t)k * rows + (size_t)row] = (uint16_t)(e - e0);
    }
  }
}

}  // namespace ws
