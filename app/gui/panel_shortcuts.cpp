// The keyboard shortcuts (handled in input.cpp), listed where people look for them.
#include <imgui.h>

#include "gui/input.hpp"
#include "gui/panel.hpp"

namespace ws::gui {

void draw_shortcuts_section(GuiContext& ctx) {
  (void)ctx;
  for (const auto& s : shortcut_list()) {
    ImGui::TextUnformatted(s.keys);
    ImGui::SameLine(110);
    ImGui::TextUnformatted(s.action);
  }
  ImGui::TextDisabled("mouse: drag rotates, wheel zooms the 3-D view");
}

}  // namespace ws::gui
