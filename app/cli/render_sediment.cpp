// `wavescope render` for a sediment scene: the basin's height surface,
// coloured by the sand fraction and lit, drawn offscreen through EGL the way
// the GUI draws it (the vertex buffer written by CUDA through interop when the
// model runs on the GPU that drives the EGL device), written as PNG.
#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/interrupt.hpp"
#include "cli/render_options.hpp"
#include "egl_context.hpp"
#include "height_surface.hpp"
#include "png_writer.hpp"
#include "sediment/sediment_kernels.hpp"
#include "sediment/sediment_model.hpp"

namespace ws::cli {

namespace {

std::vector<std::string> split_ids(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string id; std::getline(in, id, ',');)
    if (!id.empty()) out.push_back(id);
  return out;
}

}  // namespace

int run_sediment_render(const RenderOptions& o) {
  // Input first, so bad input is refused before any GL or CUDA work.
  SedimentScene scene;
  try {
    scene = load_sediment_scene(o.scene);
    if (!o.precision.empty()) scene.precision = parse_precision(o.precision);
  } catch (const std::exception& e) {
    std::cerr << "wavescope render: " << e.what() << "\n";
    return 2;
  }
  if (const std::string bad = check_output_options(o); !bad.empty()) {
    std::cerr << "wavescope render: " << bad << "\n";
    return 2;
  }
  if (o.view != "3d") {
    std::cerr << "wavescope render: --view " << o.view
              << " is not available for a sediment scene; allowed: 3d (the height surface)\n";
    return 2;
  }
  if (!o.slice_m.empty() || o.range > 0.0 || o.db) {
    std::cerr << "wavescope render: --slice-m, --range and --db are for wave scenes; a sediment scene is coloured "
                 "by its sand fraction\n";
    return 2;
  }
  std::unique_ptr<SedimentModel> model;
  try {
    model = std::make_unique<SedimentModel>(scene, parse_backend(o.backend));
    for (const std::string& id : split_ids(o.kernel)) {
      (void)SedimentKernelRegistry::instance().at(id);  // an unknown id is bad input on every backend
      if (model->cuda()) model->set_kernel(id);
    }
    // As for wave scenes: a kernel id names a CUDA kernel; the CPU reference has one update.
    if (!o.kernel.empty() && !model->cuda())
      std::cerr << "wavescope render: --kernel " << o.kernel << " applies to the CUDA backend; running the "
                << model->backend_note() << "\n";
  } catch (const SceneError& e) {
    std::cerr << "wavescope render: " << e.what() << "\n";
    return 2;
  } catch (const std::invalid_argument& e) {
    std::cerr << "wavescope render: " << e.what() << "\n";
    return 2;
  }
  const SedimentGrid& g = model->grid();
  long long first_steps = o.steps;
  if (first_steps < 0 && o.seconds >= 0.0) first_steps = (long long)std::llround(o.seconds / g.dt_s);
  // Default: the scene's duration, else enough steps for the inflow to build a visible deposit.
  if (first_steps < 0)
    first_steps = o.frames > 0 ? 0 : scene.duration_s > 0 ? (long long)std::llround(scene.duration_s / g.dt_s) : 1000;

  render::EglContext egl(render_gl_device(o));
  std::cout << "GL_RENDERER: " << egl.renderer() << "\n"
            << "GL_VERSION: " << egl.version() << "\n"
            << "EGL device: " << egl.device().index << " of " << egl.device().count
            << (egl.device().software ? " (software)" : "") << (egl.device().matches_cuda ? " (CUDA device)" : "")
            << "\n"
            << "solver: " << model->backend_note() << "\n";
  const SedimentFieldView h0 = model->view_h();
  render::HeightSurface surface(h0.nx, h0.ny, h0.on_device, !o.no_interop);
  const bool interop = surface.mode() == render::SliceUploadMode::Interop;
  std::cout << "interop: " << (interop ? "yes" : "no") << (interop ? "" : " (" + surface.interop_note() + ")")
            << "\nsurface upload: " << render::to_string(surface.mode()) << ", " << surface.dims().mx << " x "
            << surface.dims().my << " vertices (stride " << surface.stride() << ")" << std::endl;
  render::HeightRenderer renderer;
  render::RenderTarget target(o.size[0], o.size[1]);
  render::OrbitCamera camera;

  float exaggeration = (float)o.exaggeration;
  const int count = o.frames > 0 ? o.frames : 1;
  InterruptScope interrupt_scope;  // SIGINT/SIGTERM: the frame in progress is written at the step reached
  for (int f = 0; f < count && !interrupted(); ++f) {
    const long long n = f == 0 ? first_steps : o.every;
    advance_until_interrupted(*model, n);
    const SedimentStats st = model->stats();
    if (exaggeration <= 0.0f)  // chosen once, from the first frame's relief (at least a metre)
      exaggeration = render::auto_exaggeration(scene.length_x_m(), scene.length_y_m(),
                                               std::max(st.h_max_m - st.h_min_m, 1.0));
    const render::HeightFrame frame =
        render::make_height_frame(scene.length_x_m(), scene.length_y_m(), st.h_min_m, st.h_max_m, exaggeration);
    camera.reset(frame.extent_m);
    surface.update(model->view_h(), model->view_s(), exaggeration, model->stream());
    renderer.draw(target, camera, surface, frame);
    const auto rgba = target.read_rgba();
    const std::string path = o.frames > 0 ? render_frame_path(o, f) : o.png;
    std::ostringstream t, ex;
    t << model->time_s();
    ex << exaggeration;
    render::write_png_rgba(path, target.width(), target.height(), rgba,
                           {{"wavescope:model", "sediment2d"},
                            {"wavescope:step", std::to_string(model->step())},
                            {"wavescope:time_s", t.str()},
                            {"wavescope:vertical_exaggeration", ex.str()}});
    std::cout << "wrote " << path << ": step " << model->step() << ", t = " << model->time_s() << " s, h "
              << st.h_min_m << " .. " << st.h_max_m << " m, s " << st.s_min << " .. " << st.s_max
              << ", vertical exaggeration x" << exaggeration << std::endl;
  }
  if (interrupted()) {
    std::cerr << "wavescope render: " << interrupt_name() << " at step " << model->step()
              << "; the frames written so far are kept\n";
    return interrupted_exit_code();
  }
  return 0;
}

}  // namespace ws::cli
