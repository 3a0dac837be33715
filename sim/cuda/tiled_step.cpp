#include "cuda/tiled_step.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>

#include "core/value_bits.hpp"

namespace ws {

namespace {

template <class V>
DeviceBuffer<V> upload(const std::vector<V>& h) {
  DeviceBuffer<V> d(h.size());
  if (!h.empty()) copy_to_device(d.get(), h.data(), d.bytes());
  return d;
}

template <class T>
DeviceEventListing<T> upload_events(const ColumnEvents& ev, const std::vector<EventRecord<T>>& rec) {
  DeviceEventListing<T> d;
  d.start = upload(ev.start);
  d.k = upload(ev.k);
  d.rec = upload(rec);
  if (ev.cursor_columns > 0) {
    d.cursor_row = upload(ev.cursor_row);
    d.first_at = upload(ev.first_at);
    d.cursor_columns = ev.cursor_columns;
  }
  return d;
}

template <class T>
DevicePlaneListing<T> upload_planes(const PlaneEvents<T>& pe) {
  DevicePlaneListing<T> d;
  d.start = upload(pe.start);
  d.k = upload(pe.k);
  d.rec = upload(pe.rec);
  if (pe.cursor_columns > 0) {
    d.cursor_row = upload(pe.cursor_row);
    d.first_at = upload(pe.first_at);
    d.cursor_columns = pe.cursor_columns;
  }
  std::vector<EventRecord<T>> src;
  for (size_t s = 0; s < pe.src_code.size(); ++s)
    src.push_back({T(0), T(0), pe.src_code[s], (int)pe.src_lane[s] << 16 | (pe.src_last[s] ? kEventPlaneEnd : 0)});
  d.src = upload(src);
  d.coeff = upload(pe.coeff);
  return d;
}

}  // namespace

int64_t box_face_slots(const FieldLayout& L) {
  return 2 * ((int64_t)L.ny * L.nz + (int64_t)L.nx * L.nz + (int64_t)L.nx * L.ny);
}

bool plan_on_box_faces(const BoundaryPlan& plan, const FieldLayout& L) {
  if (!plan.solid.empty()) return false;
  for (int64_t q : plan.node) {
    const FieldLayout::Point p = L.point(q);
    if (box_face_slot(L, p.i, p.j, p.k) < 0) return false;
  }
  return true;
}

int box_wall_faces(const BoundaryPlan& plan, const FieldLayout& L) {
  if (!plan.solid.empty()) return -1;
  const int64_t face_points[6] = {(int64_t)L.ny * L.nz, (int64_t)L.ny * L.nz, (int64_t)L.nx * L.nz,
                                  (int64_t)L.nx * L.nz, (int64_t)L.nx * L.ny, (int64_t)L.nx * L.ny};
  auto faces_of = [&](int64_t q) {
    const FieldLayout::Point p = L.point(q);
    return box_faces_of(L, p.i, p.j, p.k);
  };
  int64_t on_face[6] = {0, 0, 0, 0, 0, 0};
  for (int64_t q : plan.node) {
    const int f = faces_of(q);
    for (int b = 0; b < 6; ++b) on_face[b] += (f >> b) & 1;
  }
  int full = 0;
  for (int b = 0; b < 6; ++b)
    if (on_face[b] == face_points[b]) full |= 1 << b;
  // The plan's nodes (distinct) cover the full faces; they are exactly those faces' points
  // when each of them lies on one.
  for (int64_t q : plan.node)
    if ((faces_of(q) & full) == 0) return -1;
  return full;
}

namespace {

// Whether the nodes of each face class share their air mask, count and admittance sum.
bool face_classes_share_coefficients(const BoundaryPlan& plan, const FieldLayout& L) {
  std::array<int, kFaceClasses> first;
  first.fill(-1);
  for (size_t r = 0; r < plan.node.size(); ++r) {
    const FieldLayout::Point p = L.point(plan.node[r]);
    int& f = first[(size_t)face_class(L, p.i, p.j, p.k)];
    if (f < 0) {
      f = (int)r;
      continue;
    }
    if (plan.neighbours[r] != plan.neighbours[(size_t)f] || plan.count[r] != plan.count[(size_t)f] ||
        value_bits(plan.beta_sum[r]) != value_bits(plan.beta_sum[(size_t)f]))
      return false;
  }
  return true;
}

}  // namespace

bool box_wall_classes(const BoundaryPlan& plan, const FieldLayout& L) {
  return plan.empty() || (box_wall_faces(plan, L) >= 0 && face_classes_share_coefficients(plan, L));
}

KernelVariant::MultiWalls plan_walls_class(const BoundaryPlan* plan, const FieldLayout& L) {
  using W = KernelVariant::MultiWalls;
  if (!plan || plan->empty()) return W::None;
  if (box_wall_faces(*plan, L) >= 0) return face_classes_share_coefficients(*plan, L) ? W::ClassFaces : W::WholeFaces;
  return plan_on_box_faces(*plan, L) ? W::BoxFaces : W::All;
}

std::vector<int> box_face_nodes(const FieldLayout& L, const std::vector<int64_t>& nodes) {
  std::vector<int> f((size_t)box_face_slots(L), -1);
  for (size_t r = 0; r < nodes.size(); ++r) {
    const FieldLayout::Point p = L.point(nodes[r]);
    const int64_t slot = box_face_slot(L, p.i, p.j, p.k);
    if (slot < 0) throw std::invalid_argument("box_face_nodes: a boundary node lies on no face of the box");
    f[(size_t)slot] = (int)r;
  }
  return f;
}

template <class T>
DeviceTiledStep<T>::DeviceTiledStep(const FieldLayout& L, const TileShape& shape, const BoundaryPlan& plan,
                                    const std::vector<DeviceSource>& sources, int event_group, bool plane_records)
    : tiles_(make_tile_grid(L, shape)), event_group_(event_group), plane_records_(plane_records) {
  if (plane_records && (event_group < 2 || event_group > kPlaneLanes))
    throw std::invalid_argument("DeviceTiledStep: plane records hold groups of 2 to " + std::to_string(kPlaneLanes) +
                                " columns, not " + std::to_string(event_group));
  const TileGroups b = group_by_tile(L, tiles_, plan.node);
  std::vector<T> cd, cl;
  std::vector<uint8_t> nf;
  for (int r : b.order) {
    const BoundaryCoeffs c = boundary_coeffs(plan.count[(size_t)r], plan.neighbours[(size_t)r],
                                             plan.beta_sum[(size_t)r], plan.lambda);
    cd.push_back(T(c.cd));
    cl.push_back(T(c.cl));
    nf.push_back((uint8_t)c.n_fixed);
  }
  // The boundary nodes and their masks in the bnd_* arrays' order, for every table below.
  const std::vector<int64_t> node = gather(plan.node, b.order);
  const std::vector<uint8_t> mask = gather(plan.neighbours, b.order);
  bnd_start_ = upload(b.start);
  bnd_node_ = upload(node);
  bnd_mask_ = upload(mask);
  bnd_nfixed_ = upload(nf);
  bnd_cd_ = upload(cd);
  bnd_cl_ = upload(cl);
  side_ = DeviceBuffer<T>(plan.node.size());

  if (!plan.node.empty() && plan_on_box_faces(plan, L)) face_node_ = upload(box_face_nodes(L, node));
  wall_faces_ = box_wall_faces(plan, L);
  if (wall_faces_ >= 0) {
    const XWallSplit<T> x = split_x_walls(L, wall_faces_, node, mask, nf, cd, cl);
    xwall_[0] = x.x[0];
    xwall_[1] = x.x[1];
    wall_rest_ = upload(x.rest);
  }

  const TileGroups s = group_by_tile(L, tiles_, plan.solid);
  solid_start_ = upload(s.start);
  solid_ = upload(gather(plan.solid, s.order));

  std::vector<int64_t> src_nodes;
  for (const auto& d : sources) src_nodes.push_back(d.index);
  const TileGroups q = group_by_tile(L, tiles_, src_nodes);
  src_start_ = upload(q.start);
  src_ = upload(gather(sources, q.order));
  src_value_ = DeviceBuffer<T>((size_t)kSourceValueSteps * sources.size());

  // Boundary nodes with equal mask, fixed count and coefficients (as the kernel sees them,
  // bit for bit: value_bits.hpp) share an id.
  std::map<std::tuple<uint8_t, uint8_t, uint64_t, uint64_t>, int> coeff_ids;
  std::vector<int> ids;
  for (size_t r = 0; r < cd.size(); ++r)
    ids.push_back(coeff_ids
                      .emplace(std::make_tuple(mask[r], nf[r], value_bits(cd[r]), value_bits(cl[r])),
                               (int)coeff_ids.size())
                      .first->second);
  const ColumnEvents ev = make_column_events(L, node, ids, plan.solid, gather(src_nodes, q.order));
  const std::array<ClassCoeffs<T>, kFaceClasses> cc = class_coeffs_table(ev.class_bnd, mask, nf, cd, cl);
  class_coeffs_ = upload(std::vector<ClassCoeffs<T>>(cc.begin(), cc.end()));
  class_host_ = cc;
  columns_ = upload_events(ev, event_records(ev.code, mask, nf, cd, cl));
  node_events_ = (int)std::count_if(ev.code.begin(), ev.code.end(), [](int c) { return c >= kEventPlain; });
  static std::atomic<long long> listings{0};
  listing_id_ = ++listings;
  if (event_group_ > 1) {
    const ColumnEvents g = group_column_events(ev, L.nx, L.ny, L.nz, event_group_);
    if (plane_records_)
      planes_ = upload_planes(make_plane_events(g, L.nz, mask, nf, cd, cl));
    else
      groups_ = upload_events(g, event_records(g.code, mask, nf, cd, cl, g.lane));
  }
}

template <class T>
XWallSplit<T> split_x_walls(const FieldLayout& L, int wall_faces, const std::vector<int64_t>& node,
                            const std::vector<uint8_t>& mask, const std::vector<uint8_t>& nf, const std::vector<T>& cd,
                            const std::vector<T>& cl) {
  XWallSplit<T> out;
  auto x_face = [&](int64_t q) {
    const FieldLayout::Point p = L.point(q);
    return x_face_off_yz(L, p.i, p.j, p.k);
  };
  bool seen[2] = {false, false};
  for (int f = 0; f < 2; ++f) out.x[f].on = wall_faces >= 0 && ((wall_faces >> f) & 1);
  for (size_t r = 0; r < node.size(); ++r) {
    const int f = x_face(node[r]);
    if (f < 0) continue;
    XWallCoeffs<T>& x = out.x[f];
    // Every neighbour but the wall's is air, none fixed (the kernel's constant mask).
    const uint8_t air = f == 0 ? 0x3e : 0x3d;
    if (mask[r] != air || nf[r] != 0) x.on = 0;
    if (!seen[f]) {
      seen[f] = true;
      x.cd = cd[r];
      x.cl = cl[r];
    } else if (x.cd != cd[r] || x.cl != cl[r]) {
      x.on = 0;
    }
  }
  for (int f = 0; f < 2; ++f) out.x[f].on = out.x[f].on && seen[f];
  for (size_t r = 0; r < node.size(); ++r) {
    const int f = x_face(node[r]);
    if (f < 0 || !out.x[f].on) out.rest.push_back((int)r);
  }
  std::sort(out.rest.begin(), out.rest.end(),
            [&](int x, int y) { return node[(size_t)x] < node[(size_t)y]; });
  return out;
}

template <class T>
std::array<ClassCoeffs<T>, kFaceClasses> class_coeffs_table(const std::array<int, kFaceClasses>& class_bnd,
                                                            const std::vector<uint8_t>& mask,
                                                            const std::vector<uint8_t>& nf, const std::vector<T>& cd,
                                                            const std::vector<T>& cl) {
  std::array<ClassCoeffs<T>, kFaceClasses> out{};
  for (size_t c = 0; c < out.size(); ++c) {
    const int b = class_bnd[c];
    if (b < 0) continue;
    const size_t r = (size_t)b;
    if (r >= mask.size() || r >= nf.size() || r >= cd.size() || r >= cl.size())
      throw std::invalid_argument("class_coeffs_table: face class " + std::to_string(c) + " names boundary node " +
                                  std::to_string(b) + " of " + std::to_string(mask.size()));
    out[c] = ClassCoeffs<T>{cd[r], cl[r], mask[r], nf[r], 1, 0};
  }
  return out;
}

template <class T>
std::vector<EventRecord<T>> event_records(const std::vector<int>& code, const std::vector<uint8_t>& mask,
                                          const std::vector<uint8_t>& nf, const std::vector<T>& cd,
                                          const std::vector<T>& cl, const std::vector<uint8_t>& lane) {
  if (!lane.empty() && lane.size() != code.size())
    throw std::invalid_argument("event_records: " + std::to_string(lane.size()) + " lanes for " +
                                std::to_string(code.size()) + " events");
  std::vector<EventRecord<T>> out;
  out.reserve(code.size());
  for (size_t e = 0; e < code.size(); ++e) {
    EventRecord<T> r{T(0), T(0), code[e], 0};
    if (code[e] >= 0) {
      const size_t b = (size_t)code[e];
      if (b >= mask.size() || b >= nf.size() || b >= cd.size() || b >= cl.size())
        throw std::invalid_argument("event_records: event " + std::to_string(e) + " names boundary node " +
                                    std::to_string(b) + " of " + std::to_string(mask.size()));
      r.cd = cd[b];
      r.cl = cl[b];
      r.flags = (int)mask[b] | (int)nf[b] << 8;
    }
    if (!lane.empty()) r.flags |= (int)lane[e] << 16;
    out.push_back(r);
  }
  return out;
}

template std::vector<EventRecord<float>> event_records(const std::vector<int>&, const std::vector<uint8_t>&,
                                                       const std::vector<uint8_t>&, const std::vector<float>&,
                                                       const std::vector<float>&, const std::vector<uint8_t>&);
template std::vector<EventRecord<double>> event_records(const std::vector<int>&, const std::vector<uint8_t>&,
                                                        const std::vector<uint8_t>&, const std::vector<double>&,
                                                        const std::vector<double>&, const std::vector<uint8_t>&);

template std::array<ClassCoeffs<float>, kFaceClasses> class_coeffs_table(const std::array<int, kFaceClasses>&,
                                                                         const std::vector<uint8_t>&,
                                                                         const std::vector<uint8_t>&,
                                                                         const std::vector<float>&,
                                                                         const std::vector<float>&);
template std::array<ClassCoeffs<double>, kFaceClasses> class_coeffs_table(const std::array<int, kFaceClasses>&,
                                                                          const std::vector<uint8_t>&,
                                                                          const std::vector<uint8_t>&,
                                                                          const std::vector<double>&,
                                                                          const std::vector<double>&);

template XWallSplit<float> split_x_walls(const FieldLayout&, int, const std::vector<int64_t>&,
                                         const std::vector<uint8_t>&, const std::vector<uint8_t>&,
                                         const std::vector<float>&, const std::vector<float>&);
template XWallSplit<double> split_x_walls(const FieldLayout&, int, const std::vector<int64_t>&,
                                          const std::vector<uint8_t>&, const std::vector<uint8_t>&,
                                          const std::vector<double>&, const std::vector<double>&);

template <class T>
TiledStepData<T> DeviceTiledStep<T>::data() const {
  TiledStepData<T> d;
  d.tiles = tiles_;
  d.bnd_start = bnd_start_.get();
  d.bnd_node = bnd_node_.get();
  d.bnd_mask = bnd_mask_.get();
  d.bnd_nfixed = bnd_nfixed_.get();
  d.bnd_cd = bnd_cd_.get();
  d.bnd_cl = bnd_cl_.get();
  d.side = side_.get();
  d.wall_faces = wall_faces_;
  d.xwall[0] = xwall_[0];
  d.xwall[1] = xwall_[1];
  d.wall_rest = wall_rest_.get();
  d.wall_rest_count = (int)wall_rest_.size();
  d.solid_start = solid_start_.get();
  d.solid = solid_.get();
  d.src_start = src_start_.get();
  d.src = src_.get();
  d.src_value = src_value_.get();
  d.src_value_steps = kSourceValueSteps;
  d.bnd_count = (int)bnd_node_.size();
  d.solid_count = (int)solid_.size();
  d.nsrc = (int)src_.size();
  d.face_node = face_node_.get();
  d.class_coeffs = class_coeffs_.get();
  for (int c = 0; c < kFaceClasses; ++c) d.class_table[c] = class_host_[(size_t)c];
  d.cols = columns_.view(1);
  d.node_events = node_events_;
  d.listing_id = listing_id_;
  if (event_group_ > 1 && !plane_records_) d.grp = groups_.view(event_group_);
  if (event_group_ > 1 && plane_records_) d.planes = planes_.view(event_group_);

  return d;
}

template class DeviceTiledStep<float>;
template class DeviceTiledStep<double>;

}  // namespace ws
