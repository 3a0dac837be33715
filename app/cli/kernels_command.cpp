// `wavescope kernels`: every kernel registry as tables (or JSON): the wave
// model's CUDA kernels and the sediment model's h- and s-kernels.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "bench/text_table.hpp"
#include "cli/commands.hpp"
#include "cuda/autotune.hpp"
#include "cuda/kernel_registry.hpp"
#include "sediment/sediment_kernels.hpp"

namespace ws::cli {

namespace {

std::string block_text(const KernelVariant& v) {
  std::string s = std::to_string(v.default_block.x) + "x" + std::to_string(v.default_block.y);
  if (v.block_uses_z) s += "x" + std::to_string(v.default_block.z);
  if (v.block_for) s += " (per stencil)";  // e.g. ztma_leggy: the block width follows the radius
  return s;
}

std::string block_text(const SedimentKernel& k) {
  std::string s = std::to_string(k.default_block.x) + "x" + std::to_string(k.default_block.y);
  if (k.halo_threads) s += " (with halo threads)";  // OPT-3: the block includes a one-thread halo
  return s;
}

template <class K>
std::string precisions(const K& v) {
  std::string s;
  if (v.launch_float) s += "float";
  if (v.launch_double) s += s.empty() ? "double" : ",double";
  return s;
}

nlohmann::json registries_json() {
  nlohmann::json j = nlohmann::json::array();
  for (const auto& v : KernelRegistry::instance().all())
    j.push_back({{"registry", "wave"}, {"id", v.id}, {"name", v.name}, {"family", v.family},
                 {"stencils", v.stencils}, {"precisions", precisions(v)}, {"default_block", block_text(v)},
                 {"readonly_cache_toggle", v.has_readonly_toggle}});
  for (const auto& k : SedimentKernelRegistry::instance().all())
    j.push_back({{"registry", "sediment"}, {"id", k.id}, {"name", k.name},
                 {"kind", std::string(to_string(k.kind)) + "-kernel"}, {"version", k.version},
                 {"precisions", precisions(k)}, {"default_block", block_text(k)}});
  return j;
}

void print_tables(std::ostream& out) {
  using A = bench::TextTable::Align;
  const auto& wave = KernelRegistry::instance().all();
  out << "wave model (wave3d): " << wave.size() << " CUDA kernels; `--kernel <id>` in run, render and the GUI\n";
  bench::TextTable w({{"id", A::Left}, {"name", A::Left}, {"family", A::Left}, {"stencils", A::Left},
                      {"precisions", A::Left}, {"default block", A::Left}});
  for (const auto& v : wave) w.add_row({v.id, v.name, v.family, v.stencils, precisions(v), block_text(v)});
  w.print(out);
  // What `--kernel auto` chose on this device, driver and build (sim/cuda/autotune.hpp).
  std::string note;
  const auto chosen = cached_auto_choices(note);
  out << "auto: " << note << "\n";
  if (!chosen.empty()) {
    bench::TextTable a({{"grid (stencil/precision/size)", A::Left}, {"auto \u2192 kernel", A::Left},
                        {"block", A::Left}, {"us/step", A::Right}});
    for (const auto& [key, e] : chosen) {
      char t[32];
      snprintf(t, sizeof t, "%.2f", e.seconds_per_step * 1e6);
      a.add_row({key, e.kernel, std::to_string(e.block[0]) + "x" + std::to_string(e.block[1]) + "x" +
                                    std::to_string(e.block[2]), t});
    }
    a.print(out);
  }
  const auto& sed = SedimentKernelRegistry::instance().all();
  out << "\nsediment model (sediment2d): " << sed.size()
      << " CUDA kernels, h- and s-kernels in Su et al.'s four versions; `bench sediment --kernels <id,...>`\n";
  bench::TextTable s({{"id", A::Left}, {"name", A::Left}, {"kind", A::Left}, {"version", A::Left},
                      {"precisions", A::Left}, {"default block", A::Left}});
  for (const auto& k : sed)
    s.add_row({k.id, k.name, std::string(to_string(k.kind)) + "-kernel", k.version, precisions(k), block_text(k)});
  s.print(out);
}

}  // namespace

void add_kernels_command(CLI::App& app) {
  auto json_out = std::make_shared<bool>(false);
  CLI::App* c = app.add_subcommand("kernels", "list the registered CUDA kernels of every model");
  c->add_flag("--json", *json_out, "print JSON instead of tables (one entry per kernel, with its \"registry\")");
  c->callback([json_out] {
    if (*json_out) std::cout << registries_json().dump(2) << "\n";
    else print_tables(std::cout);
  });
}

}  // namespace ws::cli
