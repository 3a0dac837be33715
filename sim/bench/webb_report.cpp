// Options, the table and the JSON records of the Webb benchmark (the timing
// itself is in webb_bench.cu).
#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <stdexcept>

#include "bench/text_table.hpp"
#include "bench/webb_bench.hpp"
#include "stencil/stencil.hpp"
#include "wave/wave_solver.hpp"

namespace ws::bench {

namespace {

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  std::string item;
  std::istringstream in(text);
  while (std::getline(in, item, ',')) out.push_back(item);
  if (!text.empty() && text.back() == ',') out.push_back("");
  return out;
}

std::string block_text(const BlockShape& b, bool uses_z) {
  std::string s = std::to_string(b.x) + "x" + std::to_string(b.y);
  if (uses_z) s += "x" + std::to_string(b.z);
  return s;
}

std::string fixed(double v, int digits) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << v;
  return os.str();
}

}  // namespace

std::array<int, 3> parse_size_with_boundary(const std::string& text) {
  const auto items = split_commas(text);
  if (items.size() != 3)
    throw std::invalid_argument("--size '" + text + "': expected NX,NY,NZ (three integers, boundary included)");
  std::array<int, 3> n{};
  for (int a = 0; a < 3; ++a) {
    char* end = nullptr;
    const long v = std::strtol(items[a].c_str(), &end, 10);
    if (items[a].empty() || *end != '\0' || v < 3 || v > 100000)
      throw std::invalid_argument("--size '" + text + "': '" + items[a] +
                                  "' is not allowed; each value is an integer from 3 to 100000 "
                                  "(points including the one-point fixed boundary on each side)");
    n[a] = (int)v;
  }
  return n;
}

BlockShape parse_block(const std::string& text) {
  const auto items = split_commas(text);
  if (items.size() != 2 && items.size() != 3)
    throw std::invalid_argument("--block '" + text + "': expected BX,BY or BX,BY,BZ");
  int v[3] = {1, 1, 1};
  for (size_t a = 0; a < items.size(); ++a) {
    char* end = nullptr;
    const long x = std::strtol(items[a].c_str(), &end, 10);
    if (items[a].empty() || *end != '\0' || x < 1 || x > 1024)
      throw std::invalid_argument("--block '" + text + "': '" + items[a] + "' is not allowed; each side is 1 to 1024");
    v[a] = (int)x;
  }
  const BlockShape b{v[0], v[1], v[2]};
  if (b.threads() > 1024)
    throw std::invalid_argument("--block '" + text + "' has " + std::to_string(b.threads()) +
                                " threads; at most 1024 are allowed");
  return b;
}

std::vector<std::string> parse_id_list(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& id : split_commas(text)) {
    if (id.empty()) throw std::invalid_argument("--variants '" + text + "': empty kernel id in the list");
    if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
  }
  return out;
}

void validate_webb_config(const WebbConfig& c) {
  for (int v : c.size_with_boundary)
    if (v < 3) throw std::invalid_argument("grid size " + std::to_string(v) + " is too small; each axis needs >= 3 points");
  if (c.steps < kWebbMinSteps)
    throw std::invalid_argument("--steps " + std::to_string(c.steps) + " is too few; allowed: at least " +
                                std::to_string(kWebbMinSteps) + " (extrapolated to 44,100) or 44,100 for the full run");
  if (c.precisions.empty()) throw std::invalid_argument("no precision selected");
  if (c.readonly_modes.empty()) throw std::invalid_argument("no cache mode selected");
  if (c.segments < 1) throw std::invalid_argument("segments must be >= 1");
  (void)webb_variants(c);
}

std::vector<const KernelVariant*> webb_variants(const WebbConfig& c) {
  const auto& reg = KernelRegistry::instance();
  const Stencil st = make_stencil("7pt");
  std::vector<const KernelVariant*> out;
  if (c.variants.empty()) {
    for (const auto& v : reg.all())
      if (v.supports && v.supports(st)) out.push_back(&v);
    return out;
  }
  for (const auto& id : c.variants) {
    const KernelVariant& v = reg.at(id);  // throws listing the valid ids
    if (!v.supports || !v.supports(st))
      throw std::invalid_argument("kernel '" + id + "' does not run the 7-point stencil (it runs " + v.stencils +
                                  "); Webb's benchmark needs the 7-point stencil");
    out.push_back(&v);
  }
  return out;
}

double webb_k20_seconds(const std::string& id) {
  // Webb (2013), Table 3: Tesla K20, double precision, 256 x 296 x 212, 44,100 steps.
  if (id == "tiling3d") return 156.9;
  if (id == "tiling3d_shared") return 218.7;
  if (id == "tiling3d_ext_shared") return 198.1;
  if (id == "slicing2d") return 183.3;
  if (id == "slicing2d_shared") return 164.6;
  if (id == "slicing2d_ext_shared") return 150.8;
  return -1.0;
}

void print_webb_table(const WebbResult& r, std::ostream& out) {
  const auto& c = r.config;
  const auto n = c.interior();
  const long long timed = r.rows.empty() ? c.steps : r.rows.front().steps_timed;
  const bool extrapolated = timed != kWebbSteps;
  out << "Webb's standard simulation" << (c.is_webb_standard() ? "" : " (non-standard size)") << ": "
      << c.size_with_boundary[0] << " x " << c.size_with_boundary[1] << " x " << c.size_with_boundary[2]
      << " points including the one-point fixed boundary (interior " << n[0] << " x " << n[1] << " x " << n[2]
      << " = " << (long long)n[0] * n[1] * n[2] << " points updated per step)\n"
      << "raised-cosine soft source, "
      << (c.walls == "fixed" ? std::string("fixed boundaries")
                             : std::string("absorbing walls (admittance 0.2: boundary-node kernels run every step)"))
      << ", Courant limit lambda = 1/sqrt(3), 44,100 steps; ";
  if (extrapolated)
    out << "times EXTRAPOLATED to 44,100 steps from " << timed << " timed steps (median of " << c.segments
        << " segments)\n";
  else
    out << "times measured over 44,100 steps (median of " << c.segments << " segments, scaled to the run)\n";
  out << "device: " << r.device << ", device-to-device copy bandwidth " << fixed(r.copy_gbs, 1)
      << " GB/s (read + write), L2 bandwidth " << fixed(r.l2_gbs, 1)
      << " GB/s, both measured in this run (\"of L2\": the fraction of the L2 roofline, for grids that fit)\n";

  for (Precision p : c.precisions) {
    for (bool ro : c.readonly_modes) {
      const double bpp = scheme_bytes_per_point(p);
      out << "\n" << to_string(p) << ", read-only cache " << (ro ? "on" : "off") << ": roofline "
          << fixed(roofline_gpoints(r.copy_gbs, bpp), 1) << " Gpoints/s (" << (int)bpp << " bytes per point)\n";
      using A = TextTable::Align;
      TextTable t({{"Kernel method", A::Left}, {"block", A::Left}, {"Time (s)", A::Right}, {"Ratio", A::Right},
                   {"Gpoints/s", A::Right}, {"Roofline", A::Right}, {"of L2", A::Right}, {"K20 (s)", A::Right}});
      for (const auto& row : r.rows) {
        if (row.precision != p || row.readonly_cache != ro) continue;
        const KernelVariant* v = KernelRegistry::instance().find(row.id);
        const bool uses_z = v ? v->block_uses_z : true;
        const std::string ratio =
            row.id == "tiling3d" ? "-" : row.ratio_to_tiling3d < 0 ? "n/a" : fixed(100.0 * row.ratio_to_tiling3d, 1) + "%";
        t.add_row({row.name, block_text(row.block, uses_z), fixed(row.seconds_full, 2), ratio,
                   fixed(row.gpoints_per_s, 2), fixed(100.0 * row.roofline_fraction, 1) + "%",
                   r.l2_gbs > 0 ? fixed(100.0 * row.gpoints_per_s / roofline_gpoints(r.l2_gbs, bpp), 1) + "%" : "-",
                   row.k20_s > 0 ? fixed(row.k20_s, 1) : std::string("-")});
      }
      t.print(out);
    }
  }
  if (extrapolated) out << "\n(Time (s) is extrapolated to 44,100 steps from " << timed << " timed steps.)\n";
}

std::vector<BenchRecord> webb_records(const WebbResult& r) {
  std::vector<BenchRecord> out;
  const auto n = r.config.interior();
  for (const auto& row : r.rows) {
    BenchRecord b;
    b.benchmark = "webb";
    b.variant = row.id;
    b.precision = to_string(row.precision);
    b.nx = n[0];
    b.ny = n[1];
    b.nz = n[2];
    b.steps = kWebbSteps;
    b.seconds = row.seconds_full;
    b.extrapolated = row.steps_timed != kWebbSteps;
    b.gpoints_per_s = row.gpoints_per_s;
    b.bytes_per_point = scheme_bytes_per_point(row.precision);
    b.copy_gbs = r.copy_gbs;
    b.roofline_fraction = row.roofline_fraction;
    b.device = r.device;
    const KernelVariant* v = KernelRegistry::instance().find(row.id);
    b.extra = {{"name", row.name},
               {"l2_gbs", r.l2_gbs},
               {"l2_roofline_fraction",
                r.l2_gbs > 0 ? row.gpoints_per_s / roofline_gpoints(r.l2_gbs, b.bytes_per_point) : 0.0},
               {"walls", r.config.walls},
               {"readonly_cache", row.readonly_cache},
               {"block", block_text(row.block, v ? v->block_uses_z : true)},
               {"steps_timed", row.steps_timed},
               {"segments", r.config.segments},
               {"step_s_median", row.step_s},
               {"step_s_min", row.step_min_s},
               {"step_s_max", row.step_max_s},
               {"size_with_boundary", {r.config.size_with_boundary[0], r.config.size_with_boundary[1],
                                       r.config.size_with_boundary[2]}},
               {"ratio_to_tiling3d", row.ratio_to_tiling3d < 0 ? nlohmann::json(nullptr) : nlohmann::json(row.ratio_to_tiling3d)},
               {"k20_seconds", row.k20_s < 0 ? nlohmann::json(nullptr) : nlohmann::json(row.k20_s)}};
    out.push_back(b);
  }
  return out;
}

}  // namespace ws::bench
