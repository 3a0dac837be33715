#pragma once
// The control panel is a list of sections, each a small function in its own
// file (panel_*.cpp) drawn under a collapsing header. To add a panel (the
// audio panel, a sediment model's controls), write
//     void draw_my_section(GuiContext& ctx);
// in its own file and append one line to register_extra_panel_sections()
// in extra_sections.cpp:
//     sections.push_back({"Audio", draw_my_section, /*open=*/true, after_advance_fn, ModelKind::Wave});
// (the last field limits the section to one model; leave it out for both).
// `after_advance`, when set, runs once per frame right after the model advanced
// (before any drawing): the place to pull new receiver samples for playback.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gui/gui_context.hpp"

namespace ws::gui {

struct PanelSection {
  std::string title;
  std::function<void(GuiContext&)> draw;
  bool default_open = true;
  std::function<void(GuiContext&)> after_advance;  // optional
  std::optional<ModelKind> model;  // drawn (and after_advance run) only while this model runs; absent: always

  bool applies_to(const GuiContext& ctx) const { return !model || (ctx.view && ctx.view->kind() == *model); }
};

// The built-in sections in panel order, then the extra ones.
std::vector<PanelSection> make_panel_sections(const std::shared_ptr<audio::AudioSession>& audio);
void register_extra_panel_sections(std::vector<PanelSection>& sections, const std::shared_ptr<audio::AudioSession>& audio);

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
void draw_kernel_section(GuiContext& ctx);     // panel_kernels.cpp (issue 3), with the stencil selector
void draw_stencil_controls(GuiContext& ctx);   // panel_stencil.cpp (issue 4)
void draw_dispersion_section(GuiContext& ctx); // panel_dispersion.cpp (issue 4)
void draw_height_view_section(GuiContext& ctx);      // panel_sediment.cpp (issue 7)
void draw_sediment_kernel_section(GuiContext& ctx);  // panel_sediment_kernels.cpp (issue 7)
void draw_shortcuts_section(GuiContext& ctx);  // panel_shortcuts.cpp

}  // namespace ws::gui
