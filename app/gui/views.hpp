#pragma once
// The views in the window: the 3-D view fills the window behind the panels
// (drawn by the running model into a framebuffer object, then blitted), and
// the model's side window (the wave model's 2-D slice, the sediment model's
// cross-section) sits in its own ImGui window.
#include "gui/gui_context.hpp"
#include "render_target.hpp"
#include "view_renderer.hpp"

namespace ws::gui {

struct WindowViews {
  render::ViewRenderer renderer;
  render::RenderTarget view_3d{16, 16};
  render::RenderTarget view_2d{16, 16};
};

// Draws the running model's 3-D view into views.view_3d, sized to the framebuffer.
void draw_3d_view(GuiContext& ctx, WindowViews& views, int fb_width, int fb_height);
// Copies the 3-D view into the window's back buffer (before ImGui draws on top).
void present_3d_view(const WindowViews& views, int fb_width, int fb_height);
// The running model's side window, with hovering.
void draw_2d_window(GuiContext& ctx, WindowViews& views);

}  // namespace ws::gui
