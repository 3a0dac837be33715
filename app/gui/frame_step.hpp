#pragma once
// What happens to the model at each frame boundary: apply the panels'
// requests (a scene load may switch the model), advance (fixed, budgeted, or
// paced by the audio clock), record timings, refresh what the views draw.
// A blow-up pauses the run and keeps its message.
#include "gui/gui_context.hpp"
#include "gui/panel.hpp"

namespace ws::gui {

// Loads a scene (either model) into ctx; on failure sets ctx.scene_error and
// keeps the running one. Returns whether the new scene runs now.
bool load_scene(GuiContext& ctx, const std::string& path);
void apply_pending(GuiContext& ctx);
void advance_frame(GuiContext& ctx, const std::vector<PanelSection>& sections);
std::string variant_key(WaveModel& m);  // panel_kernels.cpp

}  // namespace ws::gui
