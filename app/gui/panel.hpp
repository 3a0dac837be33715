#pragma once
// The control panel is a list of sections, each a small function in its own
// file (panel_*.cpp) drawn under a collapsing header. To add a panel (the
// audio panel, a sediment model's controls), write
//     void draw_my_section(GuiContext& ctx);
// in its own file and append one line to register_extra_panel_sections()
// in extra_sections.cpp:
//     sections.push_back({"Audio", draw_my_section, /*open=*/true, after_advance_fn});
// `after_advance`, when set, runs once per frame right after the model advanced
// (before any drawing): the place to pull new receiver samples for playback.
#include <functional>
#include <string>
#include <vector>

#include "gui/gui_context.hpp"

namespace ws::gui {

struct PanelSection {
  std::string title;
  std::function<void(GuiContext&)> draw;
  bool default_open = true;
  std::function<void(GuiContext&)> after_advance;  // optional
};

// The built-in sections in panel order, then the extra ones.
std::vector<PanelSection> make_panel_sections();
void register_extra_panel_sections(std::vector<PanelSection>& sections);

// Draws the panel window with every section.
void draw_panel(GuiContext& ctx, const std::vector<PanelSection>& sections);

// The built-in sections (one file each).
void draw_run_section(GuiContext& ctx);        // panel_run.cpp
void draw_scene_section(GuiContext& ctx);      // panel_scene.cpp
void draw_positions_section(GuiContext& ctx);  // panel_positions.cpp
void draw_slices_section(GuiContext& ctx);     // panel_slices.cpp
void draw_colour_section(GuiContext& ctx);     // panel_colour.cpp
void draw_timing_section(GuiContext& ctx);     // panel_timing.cpp
void draw_receiver_section(GuiContext& ctx);   // panel_receiver.cpp
void draw_kernel_section(GuiContext& ctx);     // panel_kernels.cpp (issue 3)
void draw_shortcuts_section(GuiContext& ctx);  // panel_shortcuts.cpp

}  // namespace ws::gui
