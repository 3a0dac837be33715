#include "egl_context.hpp"

#include <glad/egl.h>
#include <glad/gl.h>

#include <cstdlib>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/device_info.hpp"
#include <cuda_runtime.h>

namespace ws::render {

namespace {

std::string egl_error_text(const char* step) {
  char buf[160];
  snprintf(buf, sizeof buf, "EGL: %s failed (error 0x%04x)", step, (unsigned)eglGetError());
  return buf;
}

bool has_ext(const std::string& list, const char* name) {
  const std::string padded = " " + list + " ";
  return padded.find(std::string(" ") + name + " ") != std::string::npos;
}

// Which EGL device to use: WS_EGL_DEVICE; else for GlDevice::Software the first
// software device; else the one that is CUDA device 0, else the first hardware
// device, else the first (llvmpipe on a CPU machine).
EglDeviceChoice choose_device(const std::vector<EGLDeviceEXT>& devs, GlDevice want) {
  EglDeviceChoice best;
  best.count = (int)devs.size();
  int cuda_dev = -1;
  if (query_cuda_device().usable) cudaGetDevice(&cuda_dev);
  int hw = -1, match = -1, soft = -1;
  std::vector<std::string> exts(devs.size());
  for (size_t d = 0; d < devs.size(); ++d) {
    const char* e = eglQueryDeviceStringEXT ? eglQueryDeviceStringEXT(devs[d], EGL_EXTENSIONS) : nullptr;
    exts[d] = e ? e : "";
    const bool is_soft = has_ext(exts[d], "EGL_MESA_device_software");
    if (hw < 0 && !is_soft) hw = (int)d;
    if (soft < 0 && is_soft) soft = (int)d;
    EGLAttrib cuda_attr = -1;
    if (cuda_dev >= 0 && match < 0 && has_ext(exts[d], "EGL_NV_device_cuda") && eglQueryDeviceAttribEXT &&
        eglQueryDeviceAttribEXT(devs[d], EGL_CUDA_DEVICE_NV, &cuda_attr) && cuda_attr == cuda_dev)
      match = (int)d;
  }
  int pick = match >= 0 ? match : (hw >= 0 ? hw : 0);
  const char* env = std::getenv("WS_EGL_DEVICE");
  if (want == GlDevice::Software && !env) {
    if (soft < 0)
      throw std::runtime_error("EGL: no software device (Mesa's llvmpipe) among the " + std::to_string(devs.size()) +
                               " found; drawing on the CPU needs the packages libegl-mesa0 and libgl1-mesa-dri");
    pick = soft;
  }
  if (env) {
    const int want = std::atoi(env);
    if (want < 0 || want >= (int)devs.size())
      throw std::runtime_error("WS_EGL_DEVICE=" + std::string(env) + " is out of range; allowed: 0.." +
                               std::to_string((int)devs.size() - 1));
    pick = want;
  }
  best.index = pick;
  best.extensions = exts[pick];
  best.software = has_ext(exts[pick], "EGL_MESA_device_software");
  best.matches_cuda = pick == match;
  return best;
}

}  // namespace

EglContext::EglContext(GlDevice want) {
  // Client extensions first (no display yet): EGL_EXT_device_enumeration, EGL_EXT_platform_device.
  if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) throw std::runtime_error("EGL: cannot load libEGL (is libegl1 installed?)");
  if (!eglQueryDevicesEXT || !eglGetPlatformDisplayEXT)
    throw std::runtime_error("EGL: the client lacks EGL_EXT_device_enumeration / EGL_EXT_platform_device");
  EGLint n = 0;
  if (!eglQueryDevicesEXT(0, nullptr, &n) || n <= 0) throw std::runtime_error("EGL: no devices found");
  std::vector<EGLDeviceEXT> devs(n);
  eglQueryDevicesEXT(n, devs.data(), &n);
  devs.resize(n);
  device_ = choose_device(devs, want);

  EGLDisplay dpy = eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT, devs[device_.index], nullptr);
  if (dpy == EGL_NO_DISPLAY) throw std::runtime_error(egl_error_text("eglGetPlatformDisplayEXT(EGL_PLATFORM_DEVICE_EXT)"));
  EGLint major = 0, minor = 0;
  if (!eglInitialize(dpy, &major, &minor)) throw std::runtime_error(egl_error_text("eglInitialize"));
  display_ = dpy;
  // Reload with the display so its extensions (surfaceless, no-config) are known.
  gladLoaderLoadEGL(dpy);
  if (!GLAD_EGL_KHR_surfaceless_context) throw std::runtime_error("EGL: the device lacks EGL_KHR_surfaceless_context");
  if (!eglBindAPI(EGL_OPENGL_API)) throw std::runtime_error(egl_error_text("eglBindAPI(EGL_OPENGL_API)"));

  EGLConfig config = nullptr;
  const EGLint config_attr[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
  EGLint nconf = 0;
  if (!eglChooseConfig(dpy, config_attr, &config, 1, &nconf) || nconf == 0) {
    if (!GLAD_EGL_KHR_no_config_context) throw std::runtime_error(egl_error_text("eglChooseConfig"));
    config = EGL_NO_CONFIG_KHR;  // surfaceless: a config is not needed
  }
  const EGLint ctx_attr[] = {EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 3,
                             EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
  EGLContext ctx = eglCreateContext(dpy, config, EGL_NO_CONTEXT, ctx_attr);
  if (ctx == EGL_NO_CONTEXT) {
    eglTerminate(dpy);
    throw std::runtime_error(egl_error_text("eglCreateContext (OpenGL 4.3 core)"));
  }
  context_ = ctx;
  make_current();
  if (!gladLoadGL((GLADloadfunc)eglGetProcAddress)) throw std::runtime_error("EGL: gladLoadGL failed");
  if (!GLAD_GL_VERSION_4_3) throw std::runtime_error("EGL: the context is not OpenGL 4.3 (" + version() + ")");
}

EglContext::~EglContext() {
  if (display_) {
    eglMakeCurrent((EGLDisplay)display_, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    if (context_) eglDestroyContext((EGLDisplay)display_, (EGLContext)context_);
    eglTerminate((EGLDisplay)display_);
  }
}

void EglContext::make_current() {
  if (!eglMakeCurrent((EGLDisplay)display_, EGL_NO_SURFACE, EGL_NO_SURFACE, (EGLContext)context_))
    throw std::runtime_error(egl_error_text("eglMakeCurrent (surfaceless)"));
}

std::string EglContext::renderer() const {
  const GLubyte* s = glGetString(GL_RENDERER);
  return s ? (const char*)s : "?";
}

std::string EglContext::version() const {
  const GLubyte* s = glGetString(GL_VERSION);
  return s ? (const char*)s : "?";
}

}  // namespace ws::render
