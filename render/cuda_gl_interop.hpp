#pragma once
// CUDA's view of GL objects. A GL buffer or texture is registered with CUDA
// once (constructor) and unregistered when the owner dies (destructor); each
// frame a ScopedMap maps it for CUDA, hands out the device pointer, and unmaps
// at scope exit, which orders the CUDA writes before GL's later reads on the
// same stream without a host synchronisation.
//
// Registration fails when the current GL context does not run on a CUDA device
// (Mesa llvmpipe, a GL context on another GPU); `interop_unavailable_reason`
// rules the clear cases out before anything is registered.
#include <glad/gl.h>
// glad's header guards keep <GL/gl.h> (included by cuda_gl_interop.h) out.
#include <cuda_gl_interop.h>
#include <cuda_runtime.h>

#include <string>

namespace ws::render {

// Why the current GL context cannot share buffers with the current CUDA
// device (no CUDA device, a software GL renderer, GL on another GPU), or
// empty when interop is worth trying (registration then has the last word).
std::string interop_unavailable_reason();

// Whether a GL_RENDERER string names a software rasteriser (Mesa's llvmpipe, softpipe,
// swrast, lavapipe): one the CPU runs, with which CUDA cannot share memory.
bool is_software_renderer(const std::string& renderer);

// A GL buffer (e.g. a pixel-unpack buffer) registered with CUDA.
class CudaGlBuffer {
 public:
  CudaGlBuffer() = default;
  // flags: cudaGraphicsRegisterFlagsWriteDiscard when CUDA overwrites the whole buffer.
  CudaGlBuffer(GLuint buffer, unsigned flags);
  ~CudaGlBuffer();
  CudaGlBuffer(CudaGlBuffer&& o) noexcept;
  CudaGlBuffer& operator=(CudaGlBuffer&& o) noexcept;
  CudaGlBuffer(const CudaGlBuffer&) = delete;
  CudaGlBuffer& operator=(const CudaGlBuffer&) = delete;

  cudaGraphicsResource_t resource() const { return res_; }
  explicit operator bool() const { return res_ != nullptr; }

 private:
  cudaGraphicsResource_t res_ = nullptr;
};

// A GL texture registered with CUDA (cudaGraphicsGLRegisterImage): mapped, it
// is a cudaArray written with cudaMemcpy2DToArray or surface stores.
class CudaGlImage {
 public:
  CudaGlImage() = default;
  CudaGlImage(GLuint texture, GLenum target, unsigned flags);
  ~CudaGlImage();
  CudaGlImage(CudaGlImage&& o) noexcept;
  CudaGlImage& operator=(CudaGlImage&& o) noexcept;
  CudaGlImage(const CudaGlImage&) = delete;
  CudaGlImage& operator=(const CudaGlImage&) = delete;

  cudaGraphicsResource_t resource() const { return res_; }

 private:
  cudaGraphicsResource_t res_ = nullptr;
};

// Maps one registered resource on `stream` for the lifetime of the guard.
class ScopedMap {
 public:
  ScopedMap(cudaGraphicsResource_t res, cudaStream_t stream);
  ~ScopedMap();  // unmaps on the same stream; never throws
  ScopedMap(const ScopedMap&) = delete;
  ScopedMap& operator=(const ScopedMap&) = delete;

  // Mapped buffer: device pointer and its size in bytes.
  void* pointer(size_t* bytes = nullptr) const;
  // Mapped image: the cudaArray of one mip level.
  cudaArray_t array(unsigned level = 0) const;

 private:
  cudaGraphicsResource_t res_;
  cudaStream_t stream_;
};

}  // namespace ws::render
