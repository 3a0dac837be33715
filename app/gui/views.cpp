#include "gui/views.hpp"

namespace ws::gui {

void draw_3d_view(GuiContext& ctx, WindowViews& v, int fb_w, int fb_h) { ctx.view->draw_3d(ctx, v, fb_w, fb_h); }

void present_3d_view(const WindowViews& v, int fb_w, int fb_h) { v.view_3d.blit_to_default(0, 0, fb_w, fb_h); }

void draw_2d_window(GuiContext& ctx, WindowViews& v) { ctx.view->draw_side_window(ctx, v); }

}  // namespace ws::gui
