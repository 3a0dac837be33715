// Issue 3's controls: the kernel variant (from the registry, only those that
// support the running stencil and precision), the precision, the read-only
// cache and the block size; then issue 4's stencil selector
// (panel_stencil.cpp). Every change is a request applied at the frame
// boundary, so the run keeps going on the same field. The last measured
// throughput of every variant used this session is in the Timing section.
#include <imgui.h>

#include <algorithm>
#include <set>
#include <string>

#include "decomp/decomposed_solver.hpp"
#include "gui/frame_step.hpp"
#include "gui/panel.hpp"

namespace ws::gui {

namespace {

void precision_switch(GuiContext& ctx) {
  int p = ctx.model().solver().precision() == Precision::Float ? 0 : 1;
  const int before = p;
  ImGui::RadioButton("float", &p, 0);
  ImGui::SameLine();
  ImGui::RadioButton("double", &p, 1);
  if (p != before) ctx.pending.precision = p == 0 ? Precision::Float : Precision::Double;
}

// "auto → zstream_vec 64x8": the arrow drawn with lines (the default ImGui font has no U+2192).
void auto_label(const std::string& note) {
  const std::string arrow = "\u2192";
  const size_t at = note.find(arrow);
  if (at == std::string::npos) {
    ImGui::TextUnformatted(note.c_str());
    return;
  }
  ImGui::TextUnformatted(note.substr(0, at).c_str());
  ImGui::SameLine(0.0f, 0.0f);
  const float h = ImGui::GetTextLineHeight(), w = h * 1.2f;
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImU32 col = ImGui::GetColorU32(ImGuiCol_Text);
  const float y = p.y + 0.5f * h, x0 = p.x + 0.15f * w, x1 = p.x + 0.85f * w;
  dl->AddLine(ImVec2(x0, y), ImVec2(x1, y), col, 1.5f);
  dl->AddTriangleFilled(ImVec2(x1 + 1.0f, y), ImVec2(x1 - 0.3f * h, y - 0.25f * h), ImVec2(x1 - 0.3f * h, y + 0.25f * h),
                        col);
  ImGui::Dummy(ImVec2(w, h));
  ImGui::SameLine(0.0f, 0.0f);
  ImGui::TextUnformatted(note.substr(at + arrow.size()).c_str());
}

// The autotuned choice (when the running kernel is it) and the re-tune button.
void auto_controls(GuiContext& ctx) {
  const std::string& note = ctx.model().kernel_choice_note();
  if (!note.empty()) auto_label(note);
  else ImGui::TextDisabled("kernel chosen by hand");
  ImGui::SameLine();
  if (ImGui::Button("re-tune")) ctx.pending.actions.push_back([](GuiContext& c) { c.model().retune_kernel(); });
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("time every kernel and block that runs this stencil and precision on this grid (about 2 s,\n"
                      "the simulation waits) and switch to the fastest; the field is kept and the choice cached");
}

void variant_controls(GuiContext& ctx, CudaWaveSolver& cuda) {
  const auto variants =
      KernelRegistry::instance().supporting(ctx.model().grid().stencil, cuda.precision());
  const KernelVariant& cur = cuda.kernel();
  LaunchOptions opt = cuda.launch_options();
  if (ImGui::BeginCombo("kernel", cur.name.c_str())) {
    for (const KernelVariant* v : variants) {
      const bool selected = v->id == cur.id;
      if (ImGui::Selectable(v->name.c_str(), selected) && !selected) {
        LaunchOptions o = opt;
        o.block = preferred_block(*v, ctx.model().grid().stencil, cuda.precision());  // each design's own block
        ctx.pending.kernel = std::make_pair(v->id, o);
      }
      if (ImGui::IsItemHovered()) {
        const BlockShape b = preferred_block(*v, ctx.model().grid().stencil, cuda.precision());
        ImGui::SetTooltip("%s (%s), block %dx%dx%d for this stencil", v->id.c_str(), v->family.c_str(), b.x, b.y, b.z);
      }
    }
    ImGui::EndCombo();
  }
  auto_controls(ctx);
  if (cur.has_readonly_toggle) {
    bool ro = opt.readonly_cache;
    if (ImGui::Checkbox("read-only data cache (__ldg)", &ro)) {
      LaunchOptions o = opt;
      o.readonly_cache = ro;
      ctx.pending.kernel = std::make_pair(cur.id, o);
    }
  }
  // Block size: edited freely, applied with the button (a half-typed size would be refused).
  static int block[3] = {0, 0, 0};
  static std::string block_for;
  if (block_for != cur.id || !ImGui::IsAnyItemActive()) {
    block[0] = opt.block.x;
    block[1] = opt.block.y;
    block[2] = opt.block.z;
    block_for = cur.id;
  }
  ImGui::InputInt3(cur.block_uses_z ? "block x,y,z" : "block x,y (z unused)", block);
  ImGui::SameLine();
  if (ImGui::Button("apply")) {
    LaunchOptions o = opt;
    o.block = {std::max(1, block[0]), std::max(1, block[1]), cur.block_uses_z ? std::max(1, block[2]) : 1};
    ctx.pending.kernel = std::make_pair(cur.id, o);
  }
  ImGui::Text("%d threads per block (at most 1024)", block[0] * block[1] * (cur.block_uses_z ? block[2] : 1));
  if (cur.block_for) {  // a block per stencil (ztma_leggy's width, temporal_2step's grown tile)
    const BlockShape b = preferred_block(cur, ctx.model().grid().stencil, cuda.precision());
    ImGui::TextDisabled("block %dx%d for this stencil and precision", b.x, b.y);
  }
}

}  // namespace

void draw_kernel_section(GuiContext& ctx) {
  precision_switch(ctx);
  CudaWaveSolver* cuda = ctx.model().cuda();
  if (const DecompProbe* d = decomp_probe(ctx.model().solver())) {
    // --gpus: the slabs keep the kernel they were built with; precision and stencil switch.
    const auto& dev = ctx.decomp.devices;
    const int gpus = (int)std::set<int>(dev.begin(), dev.end()).size();
    if (gpus > 0) ImGui::TextWrapped("on %d GPU(s) (%d slabs: %s)", gpus, d->slab_count(), ctx.model().backend_note().c_str());
    else ImGui::TextWrapped("on %d CPU slabs (%s)", d->slab_count(), ctx.model().backend_note().c_str());
    ImGui::TextDisabled("the kernel stays on a decomposed grid; precision and stencil switch");
    // The slabs' step graph fell back to queued steps (a capture the driver refused, a wait
    // between GPUs that gave up): say why, the run goes on without it.
    const DecompGraphUse use = decomp_graph_use(ctx.model().solver());
    if (!use.note.empty()) ImGui::TextColored(ImVec4(1, 0.6f, 0.2f, 1), "%s", use.note.c_str());
  } else if (!cuda) {
    ImGui::TextDisabled("kernel variants need the CUDA backend");
  } else {
    variant_controls(ctx, *cuda);
  }
  ImGui::Separator();
  draw_stencil_controls(ctx);
}

// Key under which a variant's throughput is remembered.
std::string variant_key(WaveModel& m) {
  const WaveSolver& s = m.solver();
  if (const DecompProbe* d = decomp_probe(m.solver()))
    return std::to_string(d->slab_count()) + " slabs / " + to_string(s.precision());
  if (!m.cuda()) return std::string("cpu / ") + to_string(s.precision());
  const CudaWaveSolver& c = *m.cuda();
  const LaunchOptions& o = c.launch_options();
  const KernelVariant& v = c.kernel();
  std::string key = v.id + " / " + to_string(s.precision());
  if (v.has_readonly_toggle) key += o.readonly_cache ? " / ldg" : " / plain";
  key += " / " + std::to_string(o.block.x) + "x" + std::to_string(o.block.y);
  if (v.block_uses_z) key += "x" + std::to_string(o.block.z);
  return key;
}

}  // namespace ws::gui
