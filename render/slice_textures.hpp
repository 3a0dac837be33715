#pragma once
// The three slice textures (R32F, one texel per grid node) and how they are
// filled each frame from the solver's current field:
//
//  - Interop (CUDA field, GL on the same GPU): one pixel-unpack buffer holding
//    the three packed slices is registered with CUDA once; each frame it is
//    mapped, the extraction kernel writes into it on the solver's stream, it is
//    unmapped, and glTexSubImage2D copies buffer -> textures on the GPU.
//    Nothing crosses to the host except the 4-byte max |u|.
//  - Staged (CUDA field, GL elsewhere, e.g. llvmpipe): the kernel writes a
//    device buffer that is copied to the host and uploaded. Only the slices
//    travel, never the field, and the mode says so.
//  - Upload (CPU field): the slices are gathered on the host and uploaded.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "cuda_gl_interop.hpp"
#include "gl_objects.hpp"
#include "slice_extract.hpp"

namespace ws::render {

enum class SliceUploadMode { Interop, Staged, Upload };
const char* to_string(SliceUploadMode m);

class SliceTextures {
 public:
  // A GL context must be current. `field` fixes the dimensions and whether the
  // data lives on the device; interop is tried when it does and
  // `allow_interop` is set (false forces the staged path, for tests).
  SliceTextures(const FieldView& field, bool allow_interop = true);
  ~SliceTextures();
  SliceTextures(const SliceTextures&) = delete;
  SliceTextures& operator=(const SliceTextures&) = delete;

  // Refreshes the textures from `field` (same nx, ny, nz as at construction;
  // precision and padding may differ). `stream`: the solver's CUDA stream
  // (ignored for host fields); the caller need not synchronise it. In interop
  // mode nothing waits on the host: the slices are extracted on `stream` after
  // the work already queued there (the frame's last step), and unmapping orders
  // them before the GL upload and every draw issued after it.
  void update(const FieldView& field, const SlicePositions& pos, cudaStream_t stream);

  GLuint texture(SliceAxis a) const { return tex_[(int)a].id(); }
  int width(SliceAxis a) const { return set_.planes[(int)a].width; }
  int height(SliceAxis a) const { return set_.planes[(int)a].height; }
  const SlicePositions& positions() const { return pos_; }
  // Max |u| over the three slices at the last update; waits for that update's
  // extraction when it is still running on the device.
  float max_abs() const;
  // The newest max |u| the device has finished, without waiting: the last update's
  // when its extraction is done, else the one before (the GUI's colour range).
  float max_abs_latest() const;
  SliceUploadMode mode() const { return mode_; }
  // Why interop is not used (empty when it is).
  const std::string& interop_note() const { return interop_note_; }

  // The value of texel (u, v) of one slice, read back from its texture
  // (one texel through a read framebuffer: for hovering, not for bulk use).
  float value_at(SliceAxis a, int u, int v) const;
  // All texels of one slice read back from GL (row-major in u), for tests.
  std::vector<float> read_back(SliceAxis a) const;
  // The packed pixel-unpack buffer read back from GL (interop mode), for tests.
  std::vector<float> read_back_buffer() const;

 private:
  void upload_from(const float* host_or_pbo_offset, bool from_pbo);

  int nx_, ny_, nz_;
  SliceSet set_;
  SlicePositions pos_;
  std::array<gl::Texture, kSliceCount> tex_;
  gl::Buffer pbo_;
  gl::Framebuffer read_fbo_;
  std::unique_ptr<CudaGlBuffer> pbo_cuda_;
  SliceUploadMode mode_ = SliceUploadMode::Upload;
  std::string interop_note_;
  std::vector<float> host_;
  float* staging_dev_ = nullptr;      // staged mode: packed slices on the device
  uint32_t* max_bits_dev_ = nullptr;  // device max |u| bits
  uint32_t* max_bits_host_ = nullptr; // pinned
  cudaEvent_t max_ready_ = nullptr;   // recorded after the copy of max_bits_host_
  mutable bool max_pending_ = false;  // max_bits_host_ not yet read for the last update
  mutable float max_abs_ = 0.0f;
  void take_max() const;
};

}  // namespace ws::render
