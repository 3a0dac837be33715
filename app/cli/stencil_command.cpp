// `wavescope stencil list|info`: the stencil families of Hamilton et al. with their point counts,
// weights, computed stability limits and numerical dispersion.
#include <algorithm>
#include <cmath>
#include <functional>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/commands.hpp"
#include "stencil/dispersion.hpp"
#include "stencil/families.hpp"
#include "stencil/named27.hpp"

namespace ws::cli {

namespace {

constexpr double kPi = 3.14159265358979323846;
const StencilFamily kFamilies[] = {StencilFamily::Leggy, StencilFamily::Compact, StencilFamily::Box,
                                   StencilFamily::Named27};

// Distinct weights grouped by the |offset| pattern sorted descending (the shell triplet q):
// one row per shell, as in Hamilton et al. eq. (11).
struct ShellRow {
  Triplet q;
  int count = 0;
  double w = 0.0;
};

std::vector<ShellRow> shell_rows(const Stencil& s) {
  std::map<Triplet, ShellRow> rows;
  for (const auto& p : s.points) {
    Triplet q = {std::abs(p.dx), std::abs(p.dy), std::abs(p.dz)};
    std::sort(q.begin(), q.end(), std::greater<int>());
    ShellRow& r = rows[q];
    r.q = q;
    r.w = p.w;
    ++r.count;
  }
  std::vector<ShellRow> out;
  for (const auto& [q, r] : rows) out.push_back(r);
  std::sort(out.begin(), out.end(), [](const ShellRow& a, const ShellRow& b) {
    return norm2(a.q) != norm2(b.q) ? norm2(a.q) < norm2(b.q) : a.q < b.q;
  });
  return out;
}

std::string dir_text(const std::array<int, 3>& d) {
  return "(" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]) + ")";
}

const double kInfoKX[] = {kPi / 4, kPi / 2};

void print_list(bool json) {
  nlohmann::json j = nlohmann::json::object();
  for (StencilFamily f : kFamilies) {
    const auto names = family_member_names(f, 20);
    if (!json) {
      std::cout << family_name(f) << " (" << names.size() << " members)\n";
      std::cout << "  " << std::left << std::setw(14) << "name" << std::right << std::setw(8) << "points"
                << std::setw(8) << "radius" << std::setw(14) << "courant_max" << "\n";
    }
    nlohmann::json arr = nlohmann::json::array();
    for (const auto& n : names) {
      const Stencil s = make_stencil(n);
      if (json) {
        arr.push_back({{"name", s.name}, {"points", s.size()}, {"radius", s.radius}, {"courant_max", s.courant_max}});
      } else {
        std::cout << "  " << std::left << std::setw(14) << s.name << std::right << std::setw(8) << s.size()
                  << std::setw(8) << s.radius << std::setw(14) << std::fixed << std::setprecision(6) << s.courant_max
                  << "\n";
        std::cout.unsetf(std::ios::fixed);
      }
    }
    if (json) j[family_name(f)] = arr;
    else std::cout << "\n";
  }
  if (json) std::cout << j.dump(2) << "\n";
}

void print_info(const std::string& name, bool json) {
  const Stencil s = make_stencil(name);
  const auto rows = shell_rows(s);
  std::vector<std::array<double, 3>> disp;  // direction index, kX, v/c
  for (int d = 0; d < 3; ++d) {
    const auto& dir = dispersion_directions()[d];
    for (double kX : kInfoKX)
      disp.push_back({(double)d, kX, relative_phase_velocity(s, s.courant_max, {(double)dir[0], (double)dir[1], (double)dir[2]}, kX)});
  }
  if (json) {
    nlohmann::json j;
    j["name"] = s.name;
    j["family"] = family_name(s.family);
    j["points"] = s.size();
    j["radius"] = s.radius;
    nlohmann::json w = nlohmann::json::array(), shells = nlohmann::json::array();
    for (const auto& r : rows) {
      w.push_back(r.w);
      shells.push_back({{"shell", r.q}, {"count", r.count}, {"weight", r.w}});
    }
    j["weights"] = w;
    j["shells"] = shells;
    j["courant_max"] = s.courant_max;
    nlohmann::json dj = nlohmann::json::array();
    for (const auto& e : disp) {
      nlohmann::json v = std::isfinite(e[2]) ? nlohmann::json(e[2]) : nlohmann::json(nullptr);
      dj.push_back({{"direction", dispersion_directions()[(int)e[0]]}, {"kX", e[1]}, {"v_over_c", v}});
    }
    j["dispersion"] = dj;
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::cout << "stencil " << s.name << " (" << family_name(s.family) << ")\n";
  if (const Named27Scheme* n = find_named27(s.name)) std::cout << "  " << n->description << "\n";
  std::cout << "points       " << s.size() << "\n";
  std::cout << "radius       " << s.radius << " (halo layers)\n";
  std::cout << std::setprecision(10);
  std::cout << "courant_max  " << s.courant_max << " (von Neumann limit from the symbol)\n";
  std::cout << "weights (one per shell; the Laplacian is sum_p w_p u(x+p) / X^2):\n";
  for (const auto& r : rows)
    std::cout << "  " << std::left << std::setw(10) << triplet_text(r.q) << std::right << " x" << std::setw(3)
              << r.count << "  " << std::setprecision(12) << r.w << "\n";
  std::cout << "relative phase velocity v/c at lambda = courant_max:\n";
  std::cout << "  " << std::left << std::setw(12) << "direction" << std::setw(10) << "kX" << "v/c\n";
  for (const auto& e : disp)
    std::cout << "  " << std::left << std::setw(12) << dir_text(dispersion_directions()[(int)e[0]]) << std::setw(10)
              << (e[1] == kPi / 4 ? "pi/4" : "pi/2") << std::setprecision(8) << e[2] << "\n";
}

}  // namespace

void add_stencil_command(CLI::App& app) {
  CLI::App* c = app.add_subcommand("stencil", "stencil families: point counts, weights, stability, dispersion");
  c->require_subcommand(1);
  auto list_json = std::make_shared<bool>(false);
  CLI::App* list = c->add_subcommand("list", "the first 20 members of each family with their point counts");
  list->add_flag("--json", *list_json, "print JSON instead of a table");
  list->callback([list_json] { print_list(*list_json); });

  auto info_json = std::make_shared<bool>(false);
  auto name = std::make_shared<std::string>();
  CLI::App* info = c->add_subcommand("info", "points, weights, stability limit and dispersion of one stencil");
  info->add_option("name", *name, "stencil name: " + stencil_name_forms())->required();
  info->add_flag("--json", *info_json, "print JSON");
  info->callback([name, info_json] {
    try {
      print_info(*name, *info_json);
    } catch (const std::invalid_argument& e) {
      std::cerr << "error: " << e.what() << "\n";
      exit_code() = 2;
    }
  });
}

}  // namespace ws::cli
