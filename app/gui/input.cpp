#include "gui/input.hpp"

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>

namespace ws::gui {

const std::vector<Shortcut>& shortcut_list() {
  static const std::vector<Shortcut> list = {
      {"Space", "run / pause"},
      {"S", "single step (pauses)"},
      {"R", "reset the field to zero"},
      {"C", "reset the camera"},
      {"1 / 2 / 3", "2-D view shows XY / XZ / YZ (waves)"},
      {"PgUp / PgDn", "move the 2-D view's slice plane (waves)"},
      {"+ / -", "double / halve steps per frame"},
      {"A", "automatic / fixed colour range"},
      {"D", "linear / dB colour scale"},
      {"Esc", "quit"},
  };
  return list;
}

void handle_keyboard(GuiContext& ctx) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureKeyboard) return;  // typing into a text box
  // ImGui 1.86 indexes keys by the backend's codes (GLFW_KEY_*).
  auto pressed = [](int k) { return ImGui::IsKeyPressed(k, false); };
  if (pressed(GLFW_KEY_SPACE)) {
    ctx.run.running = !ctx.run.running;
    if (ctx.run.running) ctx.blowup.clear();
  }
  if (pressed(GLFW_KEY_S)) ctx.pending.step_once = true;
  if (pressed(GLFW_KEY_R)) ctx.pending.reset = true;
  if (pressed(GLFW_KEY_C)) ctx.view->frame_camera(ctx.camera);
  if (pressed(GLFW_KEY_1)) ctx.view_2d = render::SliceAxis::XY;
  if (pressed(GLFW_KEY_2)) ctx.view_2d = render::SliceAxis::XZ;
  if (pressed(GLFW_KEY_3)) ctx.view_2d = render::SliceAxis::YZ;
  int& plane = ctx.slice_pos.index_for(ctx.view_2d);
  if (ImGui::IsKeyPressed(GLFW_KEY_PAGE_UP)) ++plane;  // repeats while held; clamped by the slice update
  if (ImGui::IsKeyPressed(GLFW_KEY_PAGE_DOWN)) plane = std::max(0, plane - 1);
  if (pressed(GLFW_KEY_EQUAL) || pressed(GLFW_KEY_KP_ADD))
    ctx.run.steps_per_frame = std::min(ctx.run.steps_per_frame * 2, ctx.run.max_steps_per_frame);
  if (pressed(GLFW_KEY_MINUS) || pressed(GLFW_KEY_KP_SUBTRACT))
    ctx.run.steps_per_frame = std::max(ctx.run.steps_per_frame / 2, 1);
  if (pressed(GLFW_KEY_A)) ctx.scale.automatic = !ctx.scale.automatic;
  if (pressed(GLFW_KEY_D)) ctx.scale.decibels = !ctx.scale.decibels;
  if (pressed(GLFW_KEY_ESCAPE)) ctx.quit = true;
}

void handle_mouse_3d(GuiContext& ctx, int fb_w, int fb_h) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantCaptureMouse) return;  // over a panel, or dragging a widget
  if (ImGui::IsMouseDragging(ImGuiMouseButton_Left, 0.0f)) {
    ctx.camera.rotate(io.MouseDelta.x, io.MouseDelta.y);
  }
  if (io.MouseWheel != 0.0f) ctx.camera.zoom(io.MouseWheel);
  // Hover: mouse coordinates are in window points; the view fills the framebuffer.
  const float sx = io.DisplaySize.x > 0 ? fb_w / io.DisplaySize.x : 1.0f;
  const float sy = io.DisplaySize.y > 0 ? fb_h / io.DisplaySize.y : 1.0f;
  if (!ImGui::IsMousePosValid()) return;
  const render::Ray ray = ctx.camera.ray_through(io.MousePos.x * sx, io.MousePos.y * sy, (float)fb_w, (float)fb_h);
  ctx.view->hover_3d(ctx, ray);
}

}  // namespace ws::gui
