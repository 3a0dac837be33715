// The sediment model's kernels (Su et al.'s four versions of the h- and
// s-kernels, from its own registry), the precision and each kernel's block,
// switched live at the frame boundary; and its throughput (steps/s,
// Gpoints/s, GFLOP/s with the paper's 55 + 34 flops per cell).
#include <imgui.h>

#include <algorithm>

#include "gui/panel.hpp"
#include "gui/sediment_view.hpp"
#include "sediment/sediment_kernels.hpp"

namespace ws::gui {

namespace {

// One kernel kind: version dropdown and block size (applied with the button).
void kernel_controls(GuiContext& ctx, CudaSedimentSolver& cuda, SedimentKernelKind kind) {
  const bool is_h = kind == SedimentKernelKind::H;
  const SedimentKernel& cur = is_h ? cuda.h_kernel() : cuda.s_kernel();
  const BlockShape block = is_h ? cuda.h_block() : cuda.s_block();
  ImGui::PushID(is_h ? "h" : "s");
  const std::string label = std::string(to_string(kind)) + "-kernel";
  if (ImGui::BeginCombo(label.c_str(), (cur.version + " (" + cur.id + ")").c_str())) {
    for (const SedimentKernel* k : SedimentKernelRegistry::instance().of_kind(kind)) {
      const bool selected = k->id == cur.id;
      if (ImGui::Selectable((k->version + " (" + k->id + ")").c_str(), selected) && !selected) {
        const std::string id = k->id;
        ctx.pending.actions.push_back([id](GuiContext& c) {
          if (SedimentView* v = c.view->sediment()) v->model().set_kernel(id);  // the kernel's own default block
        });
      }
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("%s, default block %dx%d%s", k->name.c_str(), k->default_block.x, k->default_block.y,
                          k->halo_threads ? " (includes the halo threads)" : "");
    }
    ImGui::EndCombo();
  }
  // Edited freely, applied with the button (a half-typed size would be refused).
  static int edit[2][2] = {{0, 0}, {0, 0}};
  static std::string edit_for[2];
  int* b = edit[is_h ? 0 : 1];
  if (edit_for[is_h ? 0 : 1] != cur.id || !ImGui::IsAnyItemActive()) {
    b[0] = block.x;
    b[1] = block.y;
    edit_for[is_h ? 0 : 1] = cur.id;
  }
  ImGui::InputInt2("block x,y", b);
  ImGui::SameLine();
  if (ImGui::Button("apply")) {
    const std::string id = cur.id;
    const BlockShape want{std::max(1, b[0]), std::max(1, b[1]), 1};
    ctx.pending.actions.push_back([id, want](GuiContext& c) {
      if (SedimentView* v = c.view->sediment()) v->model().set_kernel(id, want);
    });
  }
  ImGui::PopID();
}

}  // namespace

void draw_sediment_kernel_section(GuiContext& ctx) {
  SedimentView* v = ctx.view->sediment();
  if (!v) return;
  SedimentModel& m = v->model();
  int p = m.precision() == Precision::Float ? 0 : 1;
  const int before = p;
  ImGui::RadioButton("float", &p, 0);
  ImGui::SameLine();
  ImGui::RadioButton("double", &p, 1);
  if (p != before) {
    const Precision want = p == 0 ? Precision::Float : Precision::Double;
    ctx.pending.actions.push_back([want](GuiContext& c) {
      if (SedimentView* sv = c.view->sediment()) sv->model().set_precision(want);
    });
  }
  if (CudaSedimentSolver* cuda = m.cuda()) {
    kernel_controls(ctx, *cuda, SedimentKernelKind::H);
    kernel_controls(ctx, *cuda, SedimentKernelKind::S);
  } else {
    ImGui::TextDisabled("kernel versions need the CUDA backend");
  }
  const SedimentMetrics met = m.metrics();
  ImGui::Text("%.0f steps/s, %.3f Gpoints/s", met.steps_per_s, met.gpoints_per_s);
  ImGui::Text("%.2f GFLOP/s (paper's 55+34 flops), %.2f (counted 49+53)", met.gflops_paper, met.gflops_counted);
  ImGui::Text("%.0f B/point, %.1f GB/s", met.bytes_per_point, met.achieved_gbs);
  ImGui::TextDisabled("every variant's last Gpoints/s: Timing section");
}

}  // namespace ws::gui
