// `wavescope` with no subcommand: the GLFW window (OpenGL 4.3 core) with the
// Dear ImGui panel, shaped like imgui's example_glfw_opengl3 frame loop:
//   poll events -> new ImGui frame -> input -> apply requests -> advance ->
//   slices -> panels -> draw 3-D view -> ImGui render -> swap.
//
// Scripted mode, for tests and screenshots (environment variables, so the
// command line stays the user's):
//   WS_GUI_FRAMES=N          run N frames, then exit 0
//   WS_GUI_SCREENSHOT=FILE   after the last frame, save the window as PNG
//   WS_GUI_STEPS_PER_FRAME=K fixed K steps per frame (default 4)
//   WS_GUI_LOAD=FILE         ask the scene loader for FILE after the first frame
//                            (as the Load button does; tests the error path)
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <glad/gl.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <chrono>
#include <cstdlib>
#include <iostream>

#include "cli/commands.hpp"
#include "gui/frame_step.hpp"
#include "gui/input.hpp"
#include "gui/panel.hpp"
#include "gui/views.hpp"
#include "png_writer.hpp"
#include "render_target.hpp"

namespace ws::cli {

namespace {

struct Script {
  long long frames = -1;  // < 0: interactive
  std::string screenshot;
  int steps_per_frame = 0;
  std::string load;
};

Script script_from_env() {
  Script s;
  if (const char* f = std::getenv("WS_GUI_FRAMES")) s.frames = std::atoll(f);
  if (const char* p = std::getenv("WS_GUI_SCREENSHOT")) s.screenshot = p;
  if (const char* k = std::getenv("WS_GUI_STEPS_PER_FRAME")) s.steps_per_frame = std::atoi(k);
  if (const char* l = std::getenv("WS_GUI_LOAD")) s.load = l;
  return s;
}

void glfw_error(int code, const char* text) { std::cerr << "GLFW error " << code << ": " << text << "\n"; }

// The window and the ImGui context, torn down in reverse order.
struct Window {
  GLFWwindow* handle = nullptr;
  ~Window() {
    if (handle) {
      ImGui_ImplOpenGL3_Shutdown();
      ImGui_ImplGlfw_Shutdown();
      ImGui::DestroyContext();
      glfwDestroyWindow(handle);
    }
    glfwTerminate();
  }
};

bool open_window(Window& w) {
  glfwSetErrorCallback(glfw_error);
  if (!glfwInit()) return false;
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  w.handle = glfwCreateWindow(1400, 880, "wavescope", nullptr, nullptr);
  if (!w.handle) return false;
  glfwMakeContextCurrent(w.handle);
  glfwSwapInterval(1);
  if (!gladLoadGL((GLADloadfunc)glfwGetProcAddress) || !GLAD_GL_VERSION_4_3) return false;
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // the layout starts the same every time
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(w.handle, true);
  ImGui_ImplOpenGL3_Init("#version 430");
  return true;
}

}  // namespace

int run_gui(const std::string& scene_path, const std::string& backend) {
  const Script script = script_from_env();
  BackendChoice choice;
  try {
    choice = parse_backend(backend);
  } catch (const std::exception& e) {
    std::cerr << "wavescope: " << e.what() << "\n";
    return 2;
  }
  // Declared before the state that owns GL objects, so the context outlives them.
  Window window;
  if (!open_window(window)) {
    std::cerr << "wavescope: cannot open an OpenGL 4.3 window (no display, or no GL 4.3 driver).\n"
                 "  Without a display, draw the same views offscreen through EGL:\n"
                 "    wavescope render --scene " << scene_path << " --png view.png\n";
    return 1;
  }
  std::cerr << "wavescope: GL_RENDERER " << (const char*)glGetString(GL_RENDERER) << "\n";
  gui::GuiContext ctx;
  ctx.backend = choice;
  try {
    ctx.session = std::make_unique<gui::Session>(scene_path, ctx.backend);
  } catch (const std::exception& e) {
    std::cerr << "wavescope: cannot load scene '" << scene_path << "': " << e.what() << "\n";
    return 2;
  }
  ctx.scene_path_input = scene_path;
  const auto& g = ctx.model().grid();
  ctx.slice_pos = {g.nx / 2, g.ny / 2, g.nz / 2};
  ctx.camera.reset(ctx.session->room().extent_m);
  if (script.steps_per_frame > 0) ctx.run.steps_per_frame = script.steps_per_frame;
  std::cerr << "wavescope: " << ctx.model().backend_note() << "; slices: "
            << render::to_string(ctx.session->slices().mode()) << "\n";

  const std::vector<gui::PanelSection> sections = gui::make_panel_sections();
  gui::WindowViews views;
  long long frame = 0;
  auto last = std::chrono::steady_clock::now();
  while (!glfwWindowShouldClose(window.handle) && !ctx.quit) {
    glfwPollEvents();
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(window.handle, &fb_w, &fb_h);
    if (fb_w <= 0 || fb_h <= 0) {  // minimised
      ImGui::EndFrame();
      continue;
    }
    ctx.hover = {};
    gui::handle_keyboard(ctx);
    gui::apply_pending(ctx);  // frame boundary: the panels' requests from the last frame
    gui::advance_frame(ctx, sections);
    gui::handle_mouse_3d(ctx, fb_w, fb_h);
    gui::draw_3d_view(ctx, views, fb_w, fb_h);
    gui::draw_2d_window(ctx, views);
    gui::draw_panel(ctx, sections);
    ImGui::Render();

    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, fb_w, fb_h);
    gui::present_3d_view(views, fb_w, fb_h);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    ++frame;
    if (frame == 1 && !script.load.empty()) ctx.pending.load_scene = script.load;
    if (script.frames >= 0 && frame >= script.frames) {
      if (!ctx.scene_error.empty()) std::cerr << "wavescope: scene loader: " << ctx.scene_error << "\n";
      if (!ctx.blowup.empty()) std::cerr << "wavescope: " << ctx.blowup << "\n";
      std::cerr << "wavescope: scene '" << ctx.model().scene().name << "' at step " << ctx.model().step() << "\n";
      if (!script.screenshot.empty()) {
        const auto rgba = render::read_framebuffer_rgba(0, fb_w, fb_h);
        render::write_png_rgba(script.screenshot, fb_w, fb_h, rgba,
                               {{"wavescope:step", std::to_string(ctx.model().step())}});
        std::cerr << "wavescope: wrote " << script.screenshot << " after " << frame << " frames, step "
                  << ctx.model().step() << "\n";
      }
      break;
    }
    glfwSwapBuffers(window.handle);
    const auto now = std::chrono::steady_clock::now();
    const double frame_s = std::chrono::duration<double>(now - last).count();
    last = now;
    ctx.timing.frame_ms.push((float)(frame_s * 1e3));
  }
  return 0;
}

}  // namespace ws::cli
