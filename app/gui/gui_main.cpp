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
//                            (as the Load button does; tests the error path and
//                            the switch between the wave and sediment models)
//   WS_GUI_STENCIL=NAME      ask for a stencil switch after the first frame (as
//                            the kernel section's selector does)
//   WS_GUI_KERNEL=ID         ask for a kernel switch after the first frame (as the
//                            kernel selector does, with the kernel's default block)
//   WS_GUI_OPEN=T1,T2        open exactly these panel sections (by title) at start
//   WS_GUI_AUDIO=open        open the default audio output at start (as the
//                            audio panel's Open button does)
//   WS_GUI_SOAK=K            every K frames queue the next live switch (precision,
//                            stencil, kernel) and print memory and the field's peak
//                            (gui/soak.hpp); WS_GUI_SOAK_SWITCHES=precision,stencil
//                            limits the rotation to those kinds, WS_GUI_SOAK_STENCILS=A;B
//                            names the two stencils
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <glad/gl.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <iostream>

#include "cli/commands.hpp"
#include "cuda_gl_interop.hpp"
#include "gui/frame_step.hpp"
#include "gui/gui_decomp.hpp"
#include "gui/input.hpp"
#include "gui/panel.hpp"
#include "gui/soak.hpp"
#include "gui/views.hpp"
#include "playback/audio_session.hpp"
#include "png_writer.hpp"
#include "render_target.hpp"

namespace ws::cli {

namespace {

struct Script {
  long long frames = -1;  // < 0: interactive
  std::string screenshot;
  int steps_per_frame = 0;
  std::string load;
  std::string stencil;
  std::string kernel;
  int soak_every = 0;
};

Script script_from_env() {
  Script s;
  if (const char* f = std::getenv("WS_GUI_FRAMES")) s.frames = std::atoll(f);
  if (const char* p = std::getenv("WS_GUI_SCREENSHOT")) s.screenshot = p;
  if (const char* k = std::getenv("WS_GUI_STEPS_PER_FRAME")) s.steps_per_frame = std::atoi(k);
  if (const char* l = std::getenv("WS_GUI_LOAD")) s.load = l;
  if (const char* n = std::getenv("WS_GUI_STENCIL")) s.stencil = n;
  if (const char* k = std::getenv("WS_GUI_KERNEL")) s.kernel = k;
  if (const char* k = std::getenv("WS_GUI_SOAK")) s.soak_every = std::atoi(k);
  return s;
}

// Each receiver's history at exit, every sample's bits folded in (FNV-1a): runs that
// must agree bit for bit (one grid and slabs) print the same lines.
void print_receivers(const WaveModel& m) {
  const auto& h = m.receiver_history();
  for (size_t r = 0; r < h.size(); ++r) {
    uint64_t hash = 1469598103934665603ull;
    for (double v : h[r]) {
      uint64_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      hash = (hash ^ bits) * 1099511628211ull;
    }
    std::cerr << "wavescope: receiver " << r << ": " << h[r].size() << " samples, last "
              << std::setprecision(17) << (h[r].empty() ? 0.0 : h[r].back()) << ", bits " << std::hex << hash
              << std::dec << "\n";
  }
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

// gl "cpu": the window's GL (views and panel) drawn by Mesa's llvmpipe, so the GPU runs
// only the solver's CUDA context (on datacenter GPUs each switch to a GL context costs the
// solver about 0.4 ms, docs/benchmarks.md). GLVND picks the vendor for GLX by this variable
// and Mesa its rasteriser by the second; both are read when the context is created.
bool open_window(Window& w, const std::string& gl) {
  if (gl == "cpu") {
    setenv("__GLX_VENDOR_LIBRARY_NAME", "mesa", 1);
    setenv("LIBGL_ALWAYS_SOFTWARE", "1", 1);
  }
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

int run_gui(const std::string& scene_path, const std::string& backend, const std::string& gl,
            const DecompArgs& decomp_args) {
  const Script script = script_from_env();
  BackendChoice choice;
  try {
    choice = parse_backend(backend);
  } catch (const std::exception& e) {
    std::cerr << "wavescope: " << e.what() << "\n";
    return 2;
  }
  DecompOptions decomp;
  try {
    decomp = gui::gui_decomp_options(decomp_args, choice, scene_path);
  } catch (const std::exception& e) {  // bad --gpus / --slabs-per-gpu, or mpirun: before the window opens
    std::cerr << "wavescope: " << e.what() << "\n";
    return 2;
  }
  // Declared before the state that owns GL objects, so the context outlives them.
  Window window;
  if (!open_window(window, gl)) {
    std::cerr << "wavescope: cannot open an OpenGL 4.3 window (no display, or no GL 4.3 driver).\n"
                 "  Without a display, draw the same views offscreen through EGL:\n"
                 "    wavescope render --scene " << scene_path << " --png view.png\n";
    return 1;
  }
  const std::string renderer = (const char*)glGetString(GL_RENDERER);
  const bool software = render::is_software_renderer(renderer);
  std::cerr << "wavescope: GL_RENDERER " << renderer << "\n";
  if (gl == "cpu" && !software)
    std::cerr << "wavescope: --gl cpu asked for Mesa's llvmpipe, but the window's GL is " << renderer
              << " (is libgl1-mesa-dri installed?)\n";
  gui::GuiContext ctx;
  ctx.gl_renderer = renderer;
  ctx.gl_software = software;
  ctx.backend = choice;
  ctx.decomp = decomp;
  if (!gui::load_scene(ctx, scene_path)) {
    std::cerr << "wavescope: " << ctx.scene_error << "\n";
    return 2;
  }
  if (script.steps_per_frame > 0) ctx.run.steps_per_frame = script.steps_per_frame;
  std::cerr << "wavescope: " << gui::to_string(ctx.view->kind()) << " model, " << ctx.view->backend_note() << "\n";
  // Audio never stops the picture: without a device the panel shows why.
  ctx.audio = std::make_shared<audio::AudioSession>();
  if (const char* a = std::getenv("WS_GUI_AUDIO"); a && std::string(a) == "open") ctx.audio->open({});
  std::cerr << "wavescope: audio: " << ctx.audio->status() << "\n";

  std::vector<gui::PanelSection> sections = gui::make_panel_sections(ctx.audio);
  if (const char* open = std::getenv("WS_GUI_OPEN")) {
    const std::string list = std::string(",") + open + ",";
    for (auto& sec : sections) sec.default_open = list.find("," + sec.title + ",") != std::string::npos;
  }
  gui::WindowViews views;
  gui::SoakScript soak{script.soak_every};
  if (const char* w = std::getenv("WS_GUI_SOAK_SWITCHES")) soak.switches = w;
  if (const char* st = std::getenv("WS_GUI_SOAK_STENCILS"); st && std::string(st).find(';') != std::string::npos) {
    soak.stencil_a = std::string(st).substr(0, std::string(st).find(';'));
    soak.stencil_b = std::string(st).substr(std::string(st).find(';') + 1);
  }
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
    gui::finish_frame(ctx, sections);  // the steps the last frame queued
    gui::apply_pending(ctx);           // frame boundary: the panels' requests from the last frame
    gui::advance_frame(ctx);           // this frame's steps run while it draws
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
    if (frame == 1 && !script.stencil.empty()) ctx.pending.stencil = script.stencil;
    if (frame == 1 && !script.kernel.empty()) ctx.pending.kernel = std::make_pair(script.kernel, LaunchOptions{});
    gui::soak_step(ctx, soak, frame);
    if (script.frames >= 0 && frame >= script.frames) {
      gui::finish_frame(ctx, sections);  // what the exit prints includes this frame's steps
      if (!ctx.scene_error.empty()) std::cerr << "wavescope: scene loader: " << ctx.scene_error << "\n";
      if (!ctx.blowup.empty()) std::cerr << "wavescope: " << ctx.blowup << "\n";
      if (!ctx.action_error.empty()) std::cerr << "wavescope: " << ctx.action_error << "\n";
      if (!ctx.stencil_error.empty()) std::cerr << "wavescope: " << ctx.stencil_error << "\n";
      if (ctx.session) std::cerr << "wavescope: stencil " << ctx.model().grid().stencil.name << "\n";
      if (soak.every_frames > 0)
        std::cerr << "wavescope: soak: " << soak.cycle << " switches, " << soak.failures << " failed\n";
      std::cerr << "wavescope: audio at exit: " << ctx.audio->status() << (ctx.audio->is_open() ? " (open)" : "")
                << "\n";
      if (ctx.session) print_receivers(ctx.model());
      std::cerr << "wavescope: scene '" << ctx.view->scene_name() << "' at step " << ctx.view->step() << " (model "
                << gui::to_string(ctx.view->kind()) << ")\n";
      if (!script.screenshot.empty()) {
        const auto rgba = render::read_framebuffer_rgba(0, fb_w, fb_h);
        render::write_png_rgba(script.screenshot, fb_w, fb_h, rgba,
                               {{"wavescope:step", std::to_string(ctx.view->shown_step())},
                                {"wavescope:model", gui::to_string(ctx.view->kind())}});
        std::cerr << "wavescope: wrote " << script.screenshot << " after " << frame << " frames, showing step "
                  << ctx.view->shown_step() << "\n";
      }
      break;
    }
    glfwSwapBuffers(window.handle);
    const auto now = std::chrono::steady_clock::now();
    const double frame_s = std::chrono::duration<double>(now - last).count();
    last = now;
    ctx.timing.last_frame_s = frame_s;  // the audio pacing's frame interval
    ctx.timing.frame_ms.push((float)(frame_s * 1e3));
  }
  return 0;
}

}  // namespace ws::cli
