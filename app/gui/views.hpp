#pragma once
// The two views in the window: the 3-D view fills the window behind the
// panels (drawn into a framebuffer object, then blitted), and the 2-D view of
// one slice sits in its own ImGui window as an image.
#include "gui/gui_context.hpp"
#include "render_target.hpp"
#include "view_renderer.hpp"

namespace ws::gui {

struct WindowViews {
  render::ViewRenderer renderer;
  render::RenderTarget view_3d{16, 16};
  render::RenderTarget view_2d{16, 16};
};

// Draws the 3-D view into views.view_3d, sized to the framebuffer.
void draw_3d_view(GuiContext& ctx, WindowViews& views, int fb_width, int fb_height);
// Copies the 3-D view into the window's back buffer (before ImGui draws on top).
void present_3d_view(const WindowViews& views, int fb_width, int fb_height);
// The 2-D slice window, with hovering.
void draw_2d_window(GuiContext& ctx, WindowViews& views);

}  // namespace ws::gui
