#pragma once
// Keyboard shortcuts and the 3-D view's mouse: ImGui gets first claim
// (io.WantCaptureMouse / WantCaptureKeyboard), the camera and the shortcuts
// only see what ImGui does not want.
#include <vector>

#include "gui/gui_context.hpp"

struct GLFWwindow;

namespace ws::gui {

struct Shortcut {
  const char* keys;
  const char* action;
};
const std::vector<Shortcut>& shortcut_list();

// Call once per frame after ImGui::NewFrame.
void handle_keyboard(GuiContext& ctx);
// Drag rotates, wheel zooms; fills ctx.hover when the cursor is over a slice
// in the 3-D view (which fills the window behind the panels).
void handle_mouse_3d(GuiContext& ctx, int fb_width, int fb_height);

}  // namespace ws::gui
