// The wave scene as it runs: grid, spacing, time step, Courant number,
// memory, the six walls' conditions, and the obstacles (count, solid nodes,
// the geometry's warnings).
#include <imgui.h>

#include <cuda_runtime.h>

#include "gui/gui_context.hpp"
#include "gui/wave_view.hpp"
#include "wave/placement.hpp"

namespace ws::gui {

namespace {

void walls_and_obstacles(const WaveView& v, const WaveModel& m) {
  const BoxWalls& walls = m.scene().walls;
  if (ImGui::TreeNodeEx("walls", all_fixed(walls) ? 0 : ImGuiTreeNodeFlags_DefaultOpen, "walls: %s",
                        all_fixed(walls) ? "all fixed (Dirichlet)" : "per wall")) {
    for (int w = 0; w < 6; ++w) ImGui::BulletText("%s: %s", wall_name(w), describe(walls[w]).c_str());
    ImGui::TreePop();
  }
  const auto& ob = v.obstacles();
  if (ob.obstacle_count == 0) {
    ImGui::TextDisabled("no obstacles");
    return;
  }
  const DerivedGrid& g = m.grid();
  ImGui::Text("%zu obstacles, %zu triangles; %lld solid nodes (%.2f m^3, %.1f%% of the grid)", ob.obstacle_count,
              ob.triangles.size(), v.solid_nodes(), v.solid_nodes() * g.spacing_m * g.spacing_m * g.spacing_m,
              100.0 * v.solid_nodes() / std::max(1LL, g.points()));
  if (ImGui::TreeNode("materials")) {
    for (size_t q = 0; q < ob.materials.size(); ++q) {
      const glm::vec3 c = render::material_colour((int)q + 1);
      ImGui::ColorButton(("##m" + std::to_string(q)).c_str(), ImVec4(c.r, c.g, c.b, 1), ImGuiColorEditFlags_NoTooltip,
                         ImVec2(12, 12));
      ImGui::SameLine();
      ImGui::Text("%s: admittance %.3g", ob.materials[q].name.c_str(), ob.materials[q].admittance);
    }
    ImGui::TreePop();
  }
  for (const auto& w : ob.warnings) ImGui::TextColored(ImVec4(1, 0.75f, 0.3f, 1), "warning: %s", w.c_str());
}

}  // namespace

void WaveView::draw_scene_info(GuiContext& ctx) {
  const WaveModel& m = session_->model();
  const DerivedGrid& g = m.grid();
  ImGui::Text("'%s' (%s)", m.scene().name.c_str(), session_->path().c_str());
  ImGui::Text("grid %d x %d x %d = %.2f M points", g.nx, g.ny, g.nz, g.points() * 1e-6);
  ImGui::Text("X = %.4f m, T = %.3f us (%.0f Hz)", g.spacing_m, g.dt_s * 1e6, 1.0 / g.dt_s);
  ImGui::Text("courant %.5f (limit %.5f), stencil %s", g.courant, g.stencil.courant_max, g.stencil.name.c_str());
  ImGui::Text("precision %s, backend %s", to_string(m.solver().precision()), m.solver().backend().c_str());
  const auto& slices = session_->slices();
  const double slice_bytes = 4.0 * ((double)slices.width(render::SliceAxis::XY) * slices.height(render::SliceAxis::XY) +
                                    (double)slices.width(render::SliceAxis::XZ) * slices.height(render::SliceAxis::XZ) +
                                    (double)slices.width(render::SliceAxis::YZ) * slices.height(render::SliceAxis::YZ));
  ImGui::Text("memory: solver %.1f MiB, slice textures %.2f MiB", m.solver().memory_bytes() / 1048576.0,
              slice_bytes / 1048576.0);
  if (m.solver().backend() == "cuda") {
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess)
      ImGui::Text("device memory: %.0f MiB used of %.0f MiB", (total_b - free_b) / 1048576.0, total_b / 1048576.0);
  }
  ImGui::TextWrapped("slices: %s%s%s", render::to_string(slices.mode()), slices.interop_note().empty() ? "" : " - ",
                     slices.interop_note().c_str());
  walls_and_obstacles(*this, m);
  // The modelled room when it differs from room_m, where each source and receiver sits, the unit.
  for (const auto& line : placement_report(m.scene(), g)) ImGui::TextWrapped("%s", line.c_str());
  (void)ctx;
}

}  // namespace ws::gui
