// The stencil selector (issue 4): the first members of each family of
// Hamilton et al. and the named 27-point schemes, plus a text box for any
// name make_stencil accepts. A switch keeps the running Courant number (and so
// the grid); WaveModel::set_stencil refuses one whose stability limit is
// lower, and its message shows here while the run goes on with the old
// stencil. After a switch the kernel dropdown lists only the variants that
// support the new stencil.
#include <imgui.h>
#include <imgui_stdlib.h>

#include "gui/panel.hpp"
#include "stencil/families.hpp"

namespace ws::gui {

namespace {

struct FamilyList {
  std::string family;
  std::vector<std::string> names;
};

const std::vector<FamilyList>& stencil_menu() {
  static const std::vector<FamilyList> menu = [] {
    std::vector<FamilyList> m;
    for (StencilFamily f : {StencilFamily::Leggy, StencilFamily::Named27, StencilFamily::Compact, StencilFamily::Box}) {
      try {
        m.push_back({family_name(f), family_member_names(f, 20)});
      } catch (const std::exception&) {
        // A family that cannot list its members stays out of the menu; the text box still takes its names.
      }
    }
    return m;
  }();
  return menu;
}

}  // namespace

void draw_stencil_controls(GuiContext& ctx) {
  const DerivedGrid& g = ctx.model().grid();
  ImGui::Text("stencil %s: %zu points, radius %d, courant limit %.5f", g.stencil.name.c_str(), g.stencil.points.size(),
              g.stencil.radius, g.stencil.courant_max);
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped("running courant %.5f: a stencil with a lower limit is refused", g.courant);
  ImGui::PopStyleColor();
  if (ImGui::BeginCombo("stencil", g.stencil.name.c_str(), ImGuiComboFlags_HeightLarge)) {
    for (const FamilyList& f : stencil_menu()) {
      ImGui::TextDisabled("%s", f.family.c_str());
      for (const std::string& n : f.names) {
        const bool selected = n == g.stencil.name;
        if (ImGui::Selectable(("  " + n).c_str(), selected) && !selected) ctx.pending.stencil = n;
      }
    }
    ImGui::EndCombo();
  }
  static std::string typed;
  ImGui::InputTextWithHint("##stencil_name", "any name, e.g. leggy:4, compact:5, box:2,1,0, iwb", &typed);
  ImGui::SameLine();
  if (ImGui::Button("use") && !typed.empty()) ctx.pending.stencil = typed;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", stencil_name_forms().c_str());
  if (!ctx.stencil_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.45f, 0.35f, 1));
    ImGui::TextWrapped("%s", ctx.stencil_error.c_str());
    ImGui::PopStyleColor();
  }
}

}  // namespace ws::gui
