// `wavescope kernels`: the registry as a table (or JSON).
#include <algorithm>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cuda/kernel_registry.hpp"

namespace ws::cli {

namespace {

std::string block_text(const KernelVariant& v) {
  std::string s = std::to_string(v.default_block.x) + "x" + std::to_string(v.default_block.y);
  if (v.block_uses_z) s += "x" + std::to_string(v.default_block.z);
  if (v.block_for) s += " (per stencil)";  // e.g. ztma_leggy: the block width follows the radius
  return s;
}

std::string precisions(const KernelVariant& v) {
  std::string s;
  if (v.launch_float) s += "float";
  if (v.launch_double) s += s.empty() ? "double" : ",double";
  return s;
}

}  // namespace

void add_kernels_command(CLI::App& app) {
  auto json_out = std::make_shared<bool>(false);
  CLI::App* c = app.add_subcommand("kernels", "list the registered CUDA kernel variants");
  c->add_flag("--json", *json_out, "print JSON instead of a table");
  c->callback([json_out] {
    const auto& all = KernelRegistry::instance().all();
    if (*json_out) {
      nlohmann::json j = nlohmann::json::array();
      for (const auto& v : all)
        j.push_back({{"id", v.id}, {"name", v.name}, {"family", v.family}, {"stencils", v.stencils},
                     {"precisions", precisions(v)}, {"default_block", block_text(v)},
                     {"readonly_cache_toggle", v.has_readonly_toggle}});
      std::cout << j.dump(2) << "\n";
      return;
    }
    // Column widths from the content, two spaces apart.
    size_t w[5] = {2, 4, 6, 8, 10};
    for (const auto& v : all) {
      w[0] = std::max(w[0], v.id.size());
      w[1] = std::max(w[1], v.name.size());
      w[2] = std::max(w[2], v.family.size());
      w[3] = std::max(w[3], v.stencils.size());
      w[4] = std::max(w[4], precisions(v).size());
    }
    auto row = [&](const std::string& a, const std::string& b, const std::string& c, const std::string& d,
                   const std::string& e, const std::string& f) {
      std::cout << std::left << std::setw(w[0] + 2) << a << std::setw(w[1] + 2) << b << std::setw(w[2] + 2) << c
                << std::setw(w[3] + 2) << d << std::setw(w[4] + 2) << e << f << "\n";
    };
    row("id", "name", "family", "stencils", "precisions", "default block");
    for (const auto& v : all) row(v.id, v.name, v.family, v.stencils, precisions(v), block_text(v));
  });
}

}  // namespace ws::cli
