#pragma once
// What happens to the model at each frame boundary: apply the panels'
// requests, advance (fixed or budgeted steps per frame), record timings,
// refresh the slices. A blow-up pauses the run and keeps its message.
#include "gui/gui_context.hpp"
#include "gui/panel.hpp"

namespace ws::gui {

void apply_pending(GuiContext& ctx);
void advance_frame(GuiContext& ctx, const std::vector<PanelSection>& sections);
std::string variant_key(WaveModel& m);  // panel_kernels.cpp

}  // namespace ws::gui
