// `wavescope kernels`: the registry as a table (or JSON).
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
    std::cout << std::left << std::setw(22) << "id" << std::setw(46) << "name" << std::setw(10) << "family"
              << std::setw(14) << "stencils" << std::setw(14) << "precisions" << "default block\n";
    for (const auto& v : all)
      std::cout << std::setw(22) << v.id << std::setw(46) << v.name << std::setw(10) << v.family << std::setw(14)
                << v.stencils << std::setw(14) << precisions(v) << block_text(v) << "\n";
  });
}

}  // namespace ws::cli
