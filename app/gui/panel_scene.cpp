// The scene loader and what the scene became: grid, spacing, time step,
// Courant number, memory. A scene that fails to load shows its error here and
// the previous scene keeps running.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <cuda_runtime.h>

#include "gui/panel.hpp"

namespace ws::gui {

void draw_scene_section(GuiContext& ctx) {
  ImGui::InputText("##scene", &ctx.scene_path_input);
  ImGui::SameLine();
  if (ImGui::Button("Load")) ctx.pending.load_scene = ctx.scene_path_input;
  if (!ctx.scene_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.4f, 0.35f, 1));
    ImGui::TextWrapped("%s", ctx.scene_error.c_str());
    ImGui::PopStyleColor();
  }
  const WaveModel& m = ctx.model();
  const DerivedGrid& g = m.grid();
  ImGui::Text("'%s' (%s)", m.scene().name.c_str(), ctx.session->path().c_str());
  ImGui::Text("grid %d x %d x %d = %.2f M points", g.nx, g.ny, g.nz, g.points() * 1e-6);
  ImGui::Text("X = %.4f m, T = %.3f us (%.0f Hz)", g.spacing_m, g.dt_s * 1e6, 1.0 / g.dt_s);
  ImGui::Text("courant %.5f (limit %.5f), stencil %s", g.courant, g.stencil.courant_max, g.stencil.name.c_str());
  ImGui::Text("precision %s, backend %s", to_string(m.solver().precision()), m.solver().backend().c_str());
  const auto& slices = ctx.session->slices();
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
}

}  // namespace ws::gui
