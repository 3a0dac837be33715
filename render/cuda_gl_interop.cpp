#include "cuda_gl_interop.hpp"

#include <utility>

#include "core/cuda_check.hpp"
#include "cuda/device_info.hpp"

namespace ws::render {

std::string interop_unavailable_reason() {
  const CudaDeviceInfo dev = query_cuda_device();
  if (!dev.usable) return dev.reason;
  const GLubyte* r = glGetString(GL_RENDERER);
  const std::string renderer = r ? (const char*)r : "unknown";
  // Mesa's software rasterisers cannot share memory with CUDA: say so without asking the driver.
  if (is_software_renderer(renderer)) return "the GL renderer (" + renderer + ") is software, not the GPU";
  // Which CUDA devices drive the current GL context. A clean "none" or a list
  // without the solver's device rules interop out; an error from the query
  // itself is not conclusive (registration is tried and reports its own error).
  unsigned count = 0;
  int devices[8] = {0};
  const cudaError_t e = cudaGLGetDevices(&count, devices, 8, cudaGLDeviceListAll);
  if (e != cudaSuccess) {
    cudaGetLastError();  // not sticky; clear it so later checks start clean
    return "";
  }
  if (count == 0) return "the GL renderer (" + renderer + ") is not a CUDA device";
  int current = -1;
  cudaGetDevice(&current);
  for (unsigned d = 0; d < count && d < 8; ++d)
    if (devices[d] == current) return "";
  return "the GL renderer (" + renderer + ") runs on another CUDA device than the solver";
}

bool is_software_renderer(const std::string& renderer) {
  for (const char* soft : {"llvmpipe", "softpipe", "swrast", "lavapipe"})
    if (renderer.find(soft) != std::string::npos) return true;
  return false;
}

CudaGlBuffer::CudaGlBuffer(GLuint buffer, unsigned flags) {
  CUDA_CHECK(cudaGraphicsGLRegisterBuffer(&res_, buffer, flags));
}
CudaGlBuffer::~CudaGlBuffer() {
  if (res_) cudaGraphicsUnregisterResource(res_);
}
CudaGlBuffer::CudaGlBuffer(CudaGlBuffer&& o) noexcept : res_(std::exchange(o.res_, nullptr)) {}
CudaGlBuffer& CudaGlBuffer::operator=(CudaGlBuffer&& o) noexcept {
  if (this != &o) {
    if (res_) cudaGraphicsUnregisterResource(res_);
    res_ = std::exchange(o.res_, nullptr);
  }
  return *this;
}

CudaGlImage::CudaGlImage(GLuint texture, GLenum target, unsigned flags) {
  CUDA_CHECK(cudaGraphicsGLRegisterImage(&res_, texture, target, flags));
}
CudaGlImage::~CudaGlImage() {
  if (res_) cudaGraphicsUnregisterResource(res_);
}
CudaGlImage::CudaGlImage(CudaGlImage&& o) noexcept : res_(std::exchange(o.res_, nullptr)) {}
CudaGlImage& CudaGlImage::operator=(CudaGlImage&& o) noexcept {
  if (this != &o) {
    if (res_) cudaGraphicsUnregisterResource(res_);
    res_ = std::exchange(o.res_, nullptr);
  }
  return *this;
}

ScopedMap::ScopedMap(cudaGraphicsResource_t res, cudaStream_t stream) : res_(res), stream_(stream) {
  CUDA_CHECK(cudaGraphicsMapResources(1, &res_, stream_));
}
ScopedMap::~ScopedMap() { cudaGraphicsUnmapResources(1, &res_, stream_); }

void* ScopedMap::pointer(size_t* bytes) const {
  void* p = nullptr;
  size_t n = 0;
  CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(&p, &n, res_));
  if (bytes) *bytes = n;
  return p;
}

cudaArray_t ScopedMap::array(unsigned level) const {
  cudaArray_t a = nullptr;
  CUDA_CHECK(cudaGraphicsSubResourceGetMappedArray(&a, res_, 0, level));
  return a;
}

}  // namespace ws::render
