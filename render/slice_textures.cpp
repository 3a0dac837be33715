#include "slice_textures.hpp"

#include <cstring>
#include <stdexcept>

#include "core/cuda_check.hpp"

namespace ws::render {

const char* to_string(SliceUploadMode m) {
  switch (m) {
    case SliceUploadMode::Interop: return "CUDA-GL interop";
    case SliceUploadMode::Staged: return "CUDA extract, host staged upload";
    case SliceUploadMode::Upload: return "host upload (CPU field)";
  }
  return "?";
}

SliceTextures::SliceTextures(const FieldView& field, bool allow_interop)
    : nx_(field.layout.nx), ny_(field.layout.ny), nz_(field.layout.nz) {
  pos_ = {nx_ / 2, ny_ / 2, nz_ / 2};
  set_ = make_slice_set(field.layout, pos_);
  for (int q = 0; q < kSliceCount; ++q) {
    glBindTexture(GL_TEXTURE_2D, tex_[q].id());
    // Immutable storage: the size never changes for one grid.
    glTexStorage2D(GL_TEXTURE_2D, 1, GL_R32F, set_.planes[q].width, set_.planes[q].height);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    const std::vector<float> zero(set_.planes[q].texels(), 0.0f);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, set_.planes[q].width, set_.planes[q].height, GL_RED, GL_FLOAT,
                    zero.data());
  }
  glBindTexture(GL_TEXTURE_2D, 0);

  if (!field.on_device) {
    mode_ = SliceUploadMode::Upload;
    interop_note_ = "the field lives on the host (CPU solver)";
  } else {
    interop_note_ = allow_interop ? interop_unavailable_reason() : "interop disabled by the caller";
    if (interop_note_.empty()) {
      glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo_.id());
      glBufferData(GL_PIXEL_UNPACK_BUFFER, set_.total * sizeof(float), nullptr, GL_STREAM_DRAW);
      glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
      try {
        pbo_cuda_ = std::make_unique<CudaGlBuffer>(pbo_.id(), cudaGraphicsRegisterFlagsWriteDiscard);
        mode_ = SliceUploadMode::Interop;
      } catch (const CudaError& e) {
        interop_note_ = std::string("registering the GL buffer with CUDA failed: ") + e.what();
      }
    }
    if (mode_ != SliceUploadMode::Interop) {
      mode_ = SliceUploadMode::Staged;
      CUDA_CHECK(cudaMalloc(&staging_dev_, set_.total * sizeof(float)));
    }
    CUDA_CHECK(cudaMalloc(&max_bits_dev_, sizeof(uint32_t)));
    CUDA_CHECK(cudaMallocHost(&max_bits_host_, sizeof(uint32_t)));
    CUDA_CHECK(cudaEventCreateWithFlags(&max_ready_, cudaEventDisableTiming));
  }
  if (mode_ != SliceUploadMode::Interop) host_.resize(set_.total);
  gl::check_gl("creating the slice textures");
}

SliceTextures::~SliceTextures() {
  pbo_cuda_.reset();  // unregister before GL deletes the buffer
  if (staging_dev_) cudaFree(staging_dev_);
  if (max_bits_dev_) cudaFree(max_bits_dev_);
  if (max_ready_) {
    cudaEventSynchronize(max_ready_);  // the pending copy writes the pinned buffer freed next
    cudaEventDestroy(max_ready_);
  }
  if (max_bits_host_) cudaFreeHost(max_bits_host_);
}

void SliceTextures::take_max() const {
  float m;
  std::memcpy(&m, max_bits_host_, sizeof m);
  max_abs_ = m;
  max_pending_ = false;
}

float SliceTextures::max_abs() const {
  if (max_pending_) {
    CUDA_CHECK(cudaEventSynchronize(max_ready_));
    take_max();
  }
  return max_abs_;
}

float SliceTextures::max_abs_latest() const {
  if (max_pending_) {
    const cudaError_t q = cudaEventQuery(max_ready_);
    if (q == cudaSuccess) take_max();
    // Any other error is the context's (a sticky error the solver reports itself): the
    // value never arrives, and the colour scale keeps the last one. This is read every
    // frame by the views and the panel, which must keep drawing after a fault.
    else if (q != cudaErrorNotReady) max_pending_ = false;
  }
  return max_abs_;
}

void SliceTextures::update(const FieldView& field, const SlicePositions& pos, cudaStream_t stream) {
  const FieldLayout& L = field.layout;
  if (L.nx != nx_ || L.ny != ny_ || L.nz != nz_)
    throw std::invalid_argument("SliceTextures::update: field is " + std::to_string(L.nx) + "x" +
                                std::to_string(L.ny) + "x" + std::to_string(L.nz) + ", textures were made for " +
                                std::to_string(nx_) + "x" + std::to_string(ny_) + "x" + std::to_string(nz_));
  if (field.on_device != (mode_ != SliceUploadMode::Upload))
    throw std::invalid_argument("SliceTextures::update: the field moved between host and device; recreate");
  pos_ = {std::clamp(pos.i, 0, nx_ - 1), std::clamp(pos.j, 0, ny_ - 1), std::clamp(pos.k, 0, nz_ - 1)};
  set_ = make_slice_set(L, pos_);

  switch (mode_) {
    case SliceUploadMode::Interop: {
      // The previous update's copy into the pinned word must land before this one is queued.
      if (max_pending_) max_abs_latest();
      if (max_pending_) {
        CUDA_CHECK(cudaEventSynchronize(max_ready_));
        take_max();
      }
      {
        ScopedMap map(pbo_cuda_->resource(), stream);
        size_t bytes = 0;
        float* dst = static_cast<float*>(map.pointer(&bytes));
        extract_slices_device(field, set_, dst, max_bits_dev_, stream);
        CUDA_CHECK(cudaMemcpyAsync(max_bits_host_, max_bits_dev_, sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
        CUDA_CHECK(cudaEventRecord(max_ready_, stream));
        max_pending_ = true;
      }  // unmap on `stream`: GL work issued after it starts only when the extraction is done
      upload_from(nullptr, true);
      return;
    }
    case SliceUploadMode::Staged:
      extract_slices_device(field, set_, staging_dev_, max_bits_dev_, stream);
      CUDA_CHECK(cudaMemcpyAsync(max_bits_host_, max_bits_dev_, sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
      CUDA_CHECK(cudaMemcpyAsync(host_.data(), staging_dev_, set_.total * sizeof(float), cudaMemcpyDeviceToHost,
                                 stream));
      CUDA_CHECK(cudaStreamSynchronize(stream));  // the host upload needs the slices here
      upload_from(host_.data(), false);
      break;
    case SliceUploadMode::Upload:
      max_abs_ = extract_slices_host(field, set_, host_.data());
      upload_from(host_.data(), false);
      return;
  }
  float m;
  std::memcpy(&m, max_bits_host_, sizeof m);
  max_abs_ = m;
}

void SliceTextures::upload_from(const float* host, bool from_pbo) {
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
  if (from_pbo) glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo_.id());
  for (int q = 0; q < kSliceCount; ++q) {
    const SlicePlane& p = set_.planes[q];
    glBindTexture(GL_TEXTURE_2D, tex_[q].id());
    // With a bound unpack buffer the "pointer" is a byte offset into it.
    const void* src = from_pbo ? reinterpret_cast<const void*>(set_.offset[q] * sizeof(float))
                               : static_cast<const void*>(host + set_.offset[q]);
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, p.width, p.height, GL_RED, GL_FLOAT, src);
  }
  glBindTexture(GL_TEXTURE_2D, 0);
  if (from_pbo) glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
}

float SliceTextures::value_at(SliceAxis a, int u, int v) const {
  const int q = (int)a;
  u = std::clamp(u, 0, set_.planes[q].width - 1);
  v = std::clamp(v, 0, set_.planes[q].height - 1);
  GLint prev_read = 0;
  glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &prev_read);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, read_fbo_.id());
  glFramebufferTexture2D(GL_READ_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex_[q].id(), 0);
  glReadBuffer(GL_COLOR_ATTACHMENT0);
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  float val = 0.0f;
  glReadPixels(u, v, 1, 1, GL_RED, GL_FLOAT, &val);
  glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)prev_read);
  return val;
}

std::vector<float> SliceTextures::read_back(SliceAxis a) const {
  const int q = (int)a;
  std::vector<float> out(set_.planes[q].texels());
  glBindTexture(GL_TEXTURE_2D, tex_[q].id());
  glPixelStorei(GL_PACK_ALIGNMENT, 4);
  glGetTexImage(GL_TEXTURE_2D, 0, GL_RED, GL_FLOAT, out.data());
  glBindTexture(GL_TEXTURE_2D, 0);
  return out;
}

std::vector<float> SliceTextures::read_back_buffer() const {
  std::vector<float> out;
  if (mode_ != SliceUploadMode::Interop) return out;
  out.resize(set_.total);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo_.id());
  glGetBufferSubData(GL_PIXEL_UNPACK_BUFFER, 0, set_.total * sizeof(float), out.data());
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  return out;
}

}  // namespace ws::render
