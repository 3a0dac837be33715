#pragma once
// An offscreen OpenGL 4.3 core context with no window and no X server:
// EGL's device platform (EGL_EXT_platform_device) picks a GPU directly,
// the context is made current without a surface (EGL_KHR_surfaceless_context)
// and everything is drawn into framebuffer objects.
//
// On a machine with an NVIDIA driver the device that matches CUDA device 0
// (EGL_NV_device_cuda) is chosen, so CUDA-GL interop works; on a machine
// without a GPU, Mesa exposes llvmpipe as a software EGL device and the same
// code runs there (no interop). GlDevice::Software asks for Mesa's llvmpipe
// even beside a GPU: the views are then drawn by the CPU, and the GPU never
// switches from the solver's CUDA context to a GL one (on datacenter GPUs such
// as the H200 each switch costs the solver about 0.4 ms, docs/benchmarks.md).
// WS_EGL_DEVICE=N overrides the choice.
#include <string>

namespace ws::render {

// Which GL draws: the GPU that runs CUDA (the default) or the CPU (Mesa's llvmpipe).
enum class GlDevice { Gpu, Software };

struct EglDeviceChoice {
  int index = -1;          // among eglQueryDevicesEXT's devices
  int count = 0;           // devices found
  bool software = false;   // EGL_MESA_device_software
  bool matches_cuda = false;
  std::string extensions;  // device extensions
};

class EglContext {
 public:
  // Creates, makes current and loads GL through glad; throws std::runtime_error
  // naming the failing step and the EGL error (for GlDevice::Software without a
  // software device: which packages provide one).
  explicit EglContext(GlDevice want = GlDevice::Gpu);
  ~EglContext();
  EglContext(const EglContext&) = delete;
  EglContext& operator=(const EglContext&) = delete;

  void make_current();
  const EglDeviceChoice& device() const { return device_; }
  std::string renderer() const;  // GL_RENDERER
  std::string version() const;   // GL_VERSION

 private:
  void* display_ = nullptr;  // EGLDisplay
  void* context_ = nullptr;  // EGLContext
  EglDeviceChoice device_;
};

}  // namespace ws::render
