#pragma once
// What happens to the model at each frame boundary: finish the last frame's
// steps, apply the panels' requests (a scene load may switch the model), refresh
// what the views draw, queue this frame's steps (fixed, budgeted, or paced by
// the audio clock), record timings.
// A blow-up pauses the run and keeps its message.
#include "gui/gui_context.hpp"
#include "gui/panel.hpp"

namespace ws::gui {

// Loads a scene (either model) into ctx; on failure sets ctx.scene_error and
// keeps the running one. Returns whether the new scene runs now.
bool load_scene(GuiContext& ctx, const std::string& path);
void apply_pending(GuiContext& ctx);
// A frame's advance is queued and drawn over (the wave model on one GPU, WaveModel::advance_async):
// finish_frame waits for the steps queued by the frame before (receivers, watchdog, timings,
// the panels' after_advance), before apply_pending changes anything; advance_frame then
// refreshes the views from that field and queues this frame's steps.
void finish_frame(GuiContext& ctx, const std::vector<PanelSection>& sections);
void advance_frame(GuiContext& ctx);
std::string variant_key(WaveModel& m);  // panel_kernels.cpp

}  // namespace ws::gui
